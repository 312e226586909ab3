import { describe, expect, it, vi } from 'vitest';
import { runCli, STACK_LINE } from './run-cli.js';

vi.mock('../../src/cli/version.js', () => ({
  packageVersion: () => {
    throw new Error('package.json vanished');
  },
}));

describe('an error nobody anticipated', () => {
  it('exits 3 as a harness error, in one line without a stack trace', async () => {
    const { code, stdout, stderr } = await runCli(['--version']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe('agent-platform-conformance: harness error: package.json vanished\n');
    expect(stderr).not.toMatch(STACK_LINE);
  });
});
