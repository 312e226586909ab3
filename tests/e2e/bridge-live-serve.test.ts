import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServeCommand } from '../../src/cli/serve.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { CHROMIUM_PATH } from '../../suites/lib/browser.js';
import { PROJECT_ROOT } from '../paths.js';
import { spawnCli } from './spawn-cli.js';

/** A live run against `serve` runs the browser checks of 4.6 and 7.1 on serve's own host page and SDK, and passes them. */
describe('the host bridge checks, live against serve', () => {
  it('run --base-url <serve> --only 7.1 --only 4.6 (and the sandbox requirements): every check passes, none is not-run', async (ctx) => {
    if (!existsSync(CHROMIUM_PATH)) {
      if (process.env.CI) throw new Error(`CI must have Chromium at ${CHROMIUM_PATH}`);
      return ctx.skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    }
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const command = createServeCommand(() => stopped);
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => undefined }, cwd: PROJECT_ROOT };
    const serving = command.run(parseCommandArgs(command, ['--port', '0', '--allow-insecure-fixtures']), io);
    try {
      for (let i = 0; i < 500 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
      const base = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
      expect(base, out).toBeDefined();
      const only = ['7.1', '4.6', 'WIDGET-CSP-RENDER', 'WIDGET-CSP-FALLBACK', 'WIDGET-PERMISSIONS-ALLOW'].flatMap((s) => ['--only', s]);
      const run = await spawnCli(['run', '--base-url', base!, ...only, '--json', '--out', mkdtempSync(join(tmpdir(), 'apc-bridge-'))], 280_000);
      const report = JSON.parse(run.stdout) as { counts: Record<string, number>; results: Array<{ id: string; verdict: string }> };
      expect(
        report.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict}`),
        run.stderr,
      ).toEqual([]);
      expect(report.results.map((r) => r.id)).toEqual(expect.arrayContaining(['bridge.timeout', 'bridge.sdk-handling', 'bridge.csp-connect-enforced']));
      expect(report.counts.pass, 'checks passed').toBeGreaterThanOrEqual(25);
    } finally {
      stop();
      await serving;
    }
  }, 300_000);
});
