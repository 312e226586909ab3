import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

const exec = promisify(execFile);
async function reportIn(out: string, waitMs: number): Promise<{ complete: boolean; harnessErrors: string[] }> {
  for (const until = Date.now() + waitMs; ; await sleep(250)) {
    const [runDir] = existsSync(out) ? readdirSync(out) : [];
    const file = runDir ? join(out, runDir, 'report.json') : '';
    if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { complete: boolean; harnessErrors: string[] };
    if (Date.now() > until) throw new Error(`no report under ${out}`);
  }
}

const npm = (args: string[], cwd: string) => exec('npm', args, { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });

/** The path users take: the packed tarball installed in an empty project and run with npx. */
describe('npm pack, then npx agent-platform-conformance', () => {
  test('--help and a run work from the installed tarball', async () => {
    const work = mkdtempSync(join(tmpdir(), 'apc-pack-'));
    await npm(['pack', '--pack-destination', work, '--silent'], PROJECT_ROOT);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toMatch(/^agent-platform-conformance-\d+\.\d+\.\d+\.tgz$/);

    const app = join(work, 'app');
    await exec('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    await npm(['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline', '--silent'], app);

    const help = await exec('npx', ['--no-install', 'agent-platform-conformance', '--help'], { cwd: app, timeout: 60_000 });
    for (const command of ['run', 'verify', 'sign', 'keygen', 'serve']) expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));

    const run = await exec('npx', ['--no-install', 'agent-platform-conformance', 'run', '--only', 'AUTH-SIGNATURE-REPLAYED', '--json'], {
      cwd: app,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const report = JSON.parse(run.stdout) as { counts: { pass: number; fail: number }; complete: boolean };
    expect(report.complete).toBe(true);
    expect(report.counts.fail).toBe(0);
    expect(report.counts.pass).toBeGreaterThanOrEqual(2);

    // `timeout --foreground 60 npx ...` and CI runners stop npx alone: the run it started still writes its report.
    const out = join(work, 'stopped');
    const npx = spawn('npx', ['--no-install', 'agent-platform-conformance', 'run', '--out', out], { cwd: app, stdio: 'ignore' });
    await sleep(8000); // the run is under way: a whole run takes far longer
    npx.kill('SIGTERM');
    const stopped = await reportIn(out, 60_000);
    expect(stopped.complete).toBe(false);
    expect(stopped.harnessErrors[0]).toMatch(/^the run was interrupted \((SIGTERM|the process that started it, pid \d+, ended)\)/);
  }, 400_000);
});
