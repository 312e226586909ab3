import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shippedFilePath } from '../../src/cli/package-root.js';
import { PROJECT_ROOT } from '../paths.js';
import { runCli } from './run-cli.js';

describe('verify --help names the vectors file where it lies', () => {
  it('relative in a checkout (and so in node_modules/agent-platform-conformance of a project)', () => {
    expect(shippedFilePath('vectors/signed-requests.json', PROJECT_ROOT)).toBe('vectors/signed-requests.json');
    expect(shippedFilePath('vectors/signed-requests.json', join(PROJECT_ROOT, '..'))).toMatch(/^[^/.].*\/vectors\/signed-requests\.json$/);
  });

  it('absolute from a folder outside the package, such as a project that runs it through npx', () => {
    const path = shippedFilePath('vectors/signed-requests.json', tmpdir());
    expect(isAbsolute(path)).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('the example, as shown, runs from a folder outside the package', async () => {
    const path = shippedFilePath('vectors/signed-requests.json', tmpdir());
    const run = await runCli(['verify', path], { cwd: tmpdir() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(resolve(tmpdir(), path))).toBe(true);
  }, 120_000);
});
