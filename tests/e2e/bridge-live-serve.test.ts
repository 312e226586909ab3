import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeCommand } from '../../src/cli/serve.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { REFERENCE_ONLY_ROUTES } from '../../src/spec/publish.js';
import { CHROMIUM_PATH } from '../../suites/lib/browser.js';
import { PROJECT_ROOT } from '../paths.js';
import { spawnCli } from './spawn-cli.js';

type Report = { counts: Record<string, number>; results: Array<{ id: string; verdict: string; message?: string }> };

const HOST_SIDE = ['7.1', '4.6', 'WIDGET-CSP-RENDER', 'WIDGET-CSP-FALLBACK', 'WIDGET-PERMISSIONS-ALLOW'].flatMap((s) => ['--only', s]);
/** Checks that run on any deployment: the run plays the host around the deployment's own SDK. */
const SDK_SIDE = ['bridge.sdk-handling', 'bridge.sdk-surfaces'];

let base = '';
let stop!: () => void;
let serving: Promise<number> | undefined;
const chromium = existsSync(CHROMIUM_PATH);

beforeAll(async () => {
  if (!chromium) return;
  let out = '';
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = createServeCommand(() => stopped);
  const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => undefined }, cwd: PROJECT_ROOT };
  serving = command.run(parseCommandArgs(command, ['--port', '0', '--allow-insecure-fixtures']), io);
  for (let i = 0; i < 500 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
  base = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1] ?? '';
  expect(base, out).not.toBe('');
});
afterAll(async () => {
  stop?.();
  await serving;
});

async function liveRun(extra: string[]): Promise<{ report: Report; stderr: string }> {
  const run = await spawnCli(['run', '--base-url', base, ...extra, '--json', '--out', mkdtempSync(join(tmpdir(), 'apc-bridge-'))], 280_000);
  expect(run.stdout, `exit ${run.code}: ${run.stderr.slice(-3000)}`).toMatch(/^\{/);
  return { report: JSON.parse(run.stdout) as Report, stderr: run.stderr };
}

/** A live run against `serve` runs the browser checks of 4.6 and 7.1 on serve's own host page (--widget-host-url) and SDK, and passes them. */
describe('the host bridge checks, live against serve', () => {
  it('run --base-url <serve> --widget-host-url <serve>/_reference/widgets/{postId}/host: every check of 7.1 and 4.6 passes, none is not-run', async (ctx) => {
    if (!chromium) {
      if (process.env.CI) throw new Error(`CI must have Chromium at ${CHROMIUM_PATH}`);
      return ctx.skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    }
    const { report, stderr } = await liveRun(['--widget-host-url', `${base}${REFERENCE_ONLY_ROUTES.widgetHost}`, ...HOST_SIDE]);
    expect(
      report.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict} ${r.message ?? ''}`),
      stderr,
    ).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(
      expect.arrayContaining(['bridge.timeout', 'bridge.sdk-handling', 'bridge.csp-connect-enforced', 'bridge.open-link-redirect-domains']),
    );
    expect(report.counts.pass, 'checks passed').toBeGreaterThanOrEqual(26);
  }, 300_000);

  it('without --widget-host-url the host-side checks are not-run naming the option; the SDK-side checks still run and pass (in the Chromium --chromium names)', async (ctx) => {
    if (!chromium) return ctx.skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    const { report, stderr } = await liveRun([
      '--chromium',
      CHROMIUM_PATH,
      '--only',
      'bridge.timeout',
      '--only',
      'bridge.permissions-allow',
      ...SDK_SIDE.flatMap((id) => ['--only', id]),
    ]);
    const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
    expect(verdicts, stderr).toEqual({
      'bridge.timeout': 'not-run',
      'bridge.permissions-allow': 'not-run',
      'bridge.sdk-handling': 'pass',
      'bridge.sdk-surfaces': 'pass',
    });
    for (const r of report.results.filter((r) => r.verdict === 'not-run')) expect(r.message, r.id).toContain('--widget-host-url');
  }, 300_000);
});
