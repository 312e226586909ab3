import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const run = (args: string[]) => runCli(['run', ...args]);

/** A whole run in a child process collects every suite file; on two busy cores that takes more than the default. */
const RUN_TIMEOUT_MS = 90_000;

describe('agent-platform-conformance run', () => {
  test(
    'a run of one requirement writes report.json, junit.xml and summary.md and exits 0',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'apc-run-'));
      const { code, stdout } = await run(['--only', 'AUTH-SIGNATURE-REPLAYED', '--seed', '7', '--out', out, '--json']);
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.seed).toBe(7);
      expect(report.complete).toBe(true);
      expect(report.counts.fail).toBe(0);
      expect(report.counts.pass).toBeGreaterThanOrEqual(2);
      for (const r of report.results) expect(r.requirements).toContain('AUTH-SIGNATURE-REPLAYED');
      const [runDir] = readdirSync(out);
      for (const file of ['report.json', 'junit.xml', 'summary.md']) expect(existsSync(join(out, runDir!, file)), file).toBe(true);
      const junit = readFileSync(join(out, runDir!, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agent-platform-conformance" tests="\d+" failures="0"/);
      expect(junit).not.toMatch(/<testcase (?![^>]*name=")/);
      expect(readFileSync(join(out, runDir!, 'summary.md'), 'utf8')).toMatch(/^# Conformance: CONFORMANT/);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    '--skip leaves a check out, reported not-run as skipped by --skip, and the others run',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'apc-run-'));
      const { code, stdout } = await run(['--only', 'KEY-DIRECTORY-MEDIA-TYPE', '--skip', 'key-directory.media-type', '--seed', '7', '--out', out, '--json']);
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      const skipped = report.results.find((r: { id: string }) => r.id === 'key-directory.media-type');
      expect(skipped).toMatchObject({ verdict: 'not-run', message: 'skipped by --skip', level: 'MUST', requirements: ['KEY-DIRECTORY-MEDIA-TYPE'] });
      const others = report.results.filter((r: { id: string }) => r.id !== 'key-directory.media-type');
      expect(others.length).toBeGreaterThan(0);
      for (const r of others) expect(r.verdict).toBe('pass');
      expect(report.rerun).toEqual(['--skip', 'key-directory.media-type']);
      const selfTest = await run(['--self-test', '--skip', '2.4', '--out', out]);
      expect(selfTest.code).toBe(2);
      expect(selfTest.stderr).toContain('--skip goes with a run of the suites; --self-test judges its whole selection');
    },
    RUN_TIMEOUT_MS,
  );

  test(
    'a selection that selects nothing exits 2 and says so',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'apc-run-'));
      const section = await run(['--only', '9.9', '--out', out]);
      expect(section.code).toBe(2);
      expect(section.stderr).toContain('no suite covers section 9.9');
      const id = await run(['--only', 'NO-SUCH-REQUIREMENT', '--out', out]);
      expect(id.code).toBe(2);
      expect(id.stderr).toContain('selects no check');
    },
    RUN_TIMEOUT_MS,
  );

  test(
    '--chromium names the browser the browser checks launch: one that does not start has them not-run, naming the option',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'apc-run-'));
      const { code, stdout, stderr } = await run(['--chromium', '/bin/true', '--only', 'bridge.permissions-allow', '--out', out, '--json']);
      expect(code, 'a run in which no selected check could run').toBe(2);
      expect(stderr).toContain('--chromium /bin/true did not start');
      const [result] = JSON.parse(stdout).results as Array<{ id: string; verdict: string; message: string }>;
      expect(result).toMatchObject({ id: 'bridge.permissions-allow', verdict: 'not-run' });
      expect(result!.message).toContain('needs Chromium: --chromium /bin/true did not start');
    },
    RUN_TIMEOUT_MS,
  );

  test(
    'an unreachable target exits 3, and bad options exit 2 without a stack trace',
    async () => {
      const live = await run(['--base-url', 'http://127.0.0.1:9', '--out', mkdtempSync(join(tmpdir(), 'apc-run-'))]);
      expect(live.code).toBe(3);
      expect(live.stderr).toContain('target unreachable: http://127.0.0.1:9 did not answer');
      const stray = await run(['--fixture-url', 'http://127.0.0.1:1']);
      expect(stray.code).toBe(2);
      expect(stray.stderr).toContain('go with --base-url');
      const waits = await run(['--allow-waits']);
      expect(waits.code).toBe(2);
      expect(waits.stderr).toContain('--allow-waits, --owner-key, --control-url and --widget-host-url go with --base-url');
      const hostStray = await run(['--widget-host-url', 'http://127.0.0.1:9/w/{postId}/host']);
      expect(hostStray.code).toBe(2);
      expect(hostStray.stderr).toContain('--widget-host-url go with --base-url');
      const hostNoSlot = await run(['--base-url', 'http://127.0.0.1:9', '--widget-host-url', 'http://127.0.0.1:9/w/host']);
      expect(hostNoSlot.code).toBe(2);
      expect(hostNoSlot.stderr).toContain('--widget-host-url must name where the published widget goes with {postId}');
      const hostNotUrl = await run(['--base-url', 'http://127.0.0.1:9', '--widget-host-url', '/w/{postId}/host']);
      expect(hostNotUrl.code).toBe(2);
      expect(hostNotUrl.stderr).toContain('--widget-host-url must be an http or https URL');
      const ownerKey = await run(['--base-url', 'http://127.0.0.1:9', '--owner-key', 'two words']);
      expect(ownerKey.code).toBe(2);
      expect(ownerKey.stderr).toContain('--owner-key must be the header value the deployment accepts');
      const noChromium = await run(['--chromium', '/no/such/chromium']);
      expect(noChromium.code).toBe(2);
      expect(noChromium.stderr).toContain('--chromium /no/such/chromium: no Chromium to run there (no such file)');
      expect(noChromium.stderr).not.toMatch(/\n\s+at /);
      const folder = await run(['--chromium', tmpdir()]);
      expect(folder.code).toBe(2);
      expect(folder.stderr).toContain('it is a folder, not a program');
      const seed = await run(['--seed', 'abc']);
      expect(seed.code).toBe(2);
      expect(seed.stderr).toContain('--seed must be a whole number');
      expect(seed.stderr).not.toMatch(/\n\s+at /);
    },
    RUN_TIMEOUT_MS,
  );
});
