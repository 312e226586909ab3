import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';
import { STACK_LINE } from './run-cli.js';

const run = promisify(execFile);

/** The command line as a process: `tsx src/cli/entry.ts ...`. */
async function spawnCli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', ...argv], { cwd: PROJECT_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('src/cli/entry.ts', () => {
  it('exits with the code main returns and prints no stack trace', async () => {
    const version = await spawnCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);

    const unknown = await spawnCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^agent-platform-conformance: unknown command "frobnicate"/);
    expect(unknown.stderr).not.toMatch(STACK_LINE);
  });
});

describe('bin/agent-platform-conformance.js', () => {
  it('is a node ESM shim over the build output of src/cli/main.ts', () => {
    const shim = readFileSync(`${PROJECT_ROOT}bin/agent-platform-conformance.js`, 'utf8');
    expect(shim.startsWith('#!/usr/bin/env node\n')).toBe(true);
    const specifier = /from '(\.\.\/dist\/[^']+)'/.exec(shim)?.[1];
    // tsconfig.build.json: outDir dist, rootDir . — so dist/src/cli/main.js is built from src/cli/main.ts.
    expect(specifier).toBe('../dist/src/cli/main.js');
    expect(shim).toContain('main(process.argv.slice(2))');
    expect(shim).toContain('process.exit(code)');
    const pkg = JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin['agent-platform-conformance']).toBe('bin/agent-platform-conformance.js');
  });
});
