import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { runCli, STACK_LINE, tempDir } from './run-cli.js';

/**
 * run --expected-failures against the embedded reference, which passes every check: a listed check that passes is
 * stale and fails the run (exit 1); an id the suite does not have is refused before the run (exit 2). The listed
 * failure that fails nothing is proved against a deviating deployment (tests/e2e/wrong-servers.test.ts).
 */
let cwd: string;
beforeAll(async () => {
  cwd = await tempDir();
  await writeFile(join(cwd, 'stale.yaml'), 'expected_failures:\n  - id: key-directory.entries\n    reason: "PLAT-311, fixed since"\n');
  await writeFile(join(cwd, 'typo.yaml'), 'expected_failures:\n  - id: key-directory.entriez\n    reason: r\n');
});

describe('run --expected-failures', () => {
  it('fails the run when a listed check now passes, naming the entry to remove', async () => {
    const run = await runCli(['run', '--only', 'key-directory.entries', '--expected-failures', 'stale.yaml', '--out', 'reports'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('EXPECTED FAILURES NOW PASS');
    expect(run.stdout).toContain('STALE key-directory.entries: now passes');
    const dir = join(cwd, 'reports', readdirSync(join(cwd, 'reports'))[0]!);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    expect(report.expectedFailures).toEqual({
      file: 'stale.yaml',
      entries: [{ id: 'key-directory.entries', verdict: 'fail', reason: 'PLAT-311, fixed since', outcome: 'stale', checks: ['key-directory.entries'] }],
    });
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
      /<testcase name="key-directory.entries" classname="expected failures stale.yaml"[^>]*>\s*<failure /,
    );
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('| key-directory.entries | stale | PLAT-311, fixed since |');
  }, 120_000);

  it('refuses an id the suite does not have before anything runs (exit 2)', async () => {
    const run = await runCli(['run', '--expected-failures', 'typo.yaml'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"key-directory.entriez" is neither a check id');
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it('names a file that is missing', async () => {
    const run = await runCli(['run', '--expected-failures', 'nowhere.yaml'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('nowhere.yaml');
  });
});
