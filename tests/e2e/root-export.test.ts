import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

const exec = promisify(execFile);

/** A resolve hook that reports every module a program loads, on stderr. */
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(
  "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('loaded ' + r.url + '\\n'); return r; }",
)}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(RECORD_LOADS)});`)}`;

/** The library's root export (the built package) is for any program: importing it loads no test runner. */
describe('import "agent-platform-conformance"', () => {
  test('loads no module of vitest', async () => {
    const { stderr } = await exec(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', "await import('./dist/src/index.js');"], {
      cwd: PROJECT_ROOT,
    });
    const loaded = stderr.split('\n').filter((l) => l.startsWith('loaded '));
    expect(
      loaded.some((l) => l.includes('/dist/src/index.js')),
      'the hook saw the import',
    ).toBe(true);
    expect(loaded.filter((l) => /\/node_modules\/(vitest|@vitest)\//.test(l))).toEqual([]);
  });
});

/** The verifier's entry is the pure core: it takes its network through a port and loads no HTTP client. */
describe('import "agent-platform-conformance/verifier"', () => {
  test('loads neither undici nor vitest', async () => {
    const { stderr } = await exec(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', "await import('./dist/src/verifier/index.js');"], {
      cwd: PROJECT_ROOT,
    });
    const loaded = stderr.split('\n').filter((l) => l.startsWith('loaded '));
    expect(
      loaded.some((l) => l.includes('/dist/src/verifier/index.js')),
      'the hook saw the import',
    ).toBe(true);
    expect(loaded.filter((l) => /\/node_modules\/(undici|vitest|@vitest)\//.test(l))).toEqual([]);
  });
});
