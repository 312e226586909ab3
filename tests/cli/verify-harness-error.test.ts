import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

vi.mock('../../src/cases/run-case.js', () => ({
  runCase: async () => {
    throw new TypeError('the verifier broke');
  },
}));

describe('verify when the harness fails', () => {
  it('exits 3 with one line naming the case, and no stack trace', async () => {
    const cwd = await tempDir();
    const c = {
      id: 'any',
      description: 'any case',
      platform: { authority: 'platform.example' },
      now: 1800000000,
      documents: {},
      steps: [{ request: { method: 'GET', url: 'https://platform.example/', headers: [] } }],
    };
    await writeFile(join(cwd, 'case.json'), JSON.stringify(c));
    const { code, stdout, stderr } = await runCli(['verify', 'case.json'], { cwd });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe('agent-platform-conformance: case "any" could not be run: the verifier broke\n');
    expect(stderr).not.toMatch(STACK_LINE);
  });
});
