import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';
import { runCli } from './run-cli.js';

describe('verify vectors/signed-requests.json', () => {
  it('matches every expect of every case, and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['verify', 'vectors/signed-requests.json', '--json'], { cwd: PROJECT_ROOT });
    expect(stderr).toBe('');
    const out = JSON.parse(stdout) as { cases: Array<{ id: string; steps: Array<{ matches_expect: boolean | null }> }> };
    const differing = out.cases.filter((c) => c.steps.some((s) => s.matches_expect === false)).map((c) => c.id);
    expect(differing).toEqual([]);
    expect(code).toBe(0);
  });
});
