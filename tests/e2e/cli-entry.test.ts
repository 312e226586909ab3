import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STACK_LINE } from '../cli/run-cli.js';
import { PROJECT_ROOT } from '../paths.js';
import { spawnCli } from './spawn-cli.js';

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
