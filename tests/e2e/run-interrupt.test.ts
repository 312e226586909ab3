import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import { validateReport } from '../../src/harness/report-schema.js';
import type { RunReport } from '../../src/harness/results.js';
import { PROJECT_ROOT } from '../paths.js';

/** A deployment that answers the reachability probe, then holds every request open: it hangs. */
async function hangingDeployment(): Promise<{ server: Server; url: string; held: ServerResponse[]; firstHeld: Promise<void> }> {
  const held: ServerResponse[] = [];
  let onFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (onFirst = resolve));
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') return void res.end('ok');
    held.push(res);
    onFirst();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, held, firstHeld };
}

const CLI = ['--import', 'tsx', 'src/cli/entry.ts'];
const runArgs = (url: string, out: string) => ['run', '--base-url', url, '--client-address-header', 'x-forwarded-for', '--out', out, '--json'];

/** The report a run left under `out`, waiting for it when the run is a process nobody waits on. */
async function reportIn(out: string, waitMs = 0): Promise<RunReport> {
  for (const until = Date.now() + waitMs; ; await sleep(200)) {
    const [runDir] = existsSync(out) ? readdirSync(out) : [];
    const file = runDir ? join(out, runDir, 'report.json') : '';
    if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as RunReport;
    if (Date.now() > until) throw new Error(`no report under ${out}`);
  }
}

const started: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('an interrupted run', () => {
  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s stops the run, which exits 3 and leaves a valid report marked incomplete',
    async (signal) => {
      const deployment = await hangingDeployment();
      servers.push(deployment.server);
      const out = mkdtempSync(join(tmpdir(), 'apc-interrupt-'));
      const child = spawn(process.execPath, [...CLI, ...runArgs(deployment.url, out)], { cwd: PROJECT_ROOT });
      started.push(child);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Read as a pipe's reader would: a report of every selected check is larger than a pipe holds unread.
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await deployment.firstHeld;
      child.kill(signal);
      for (const res of deployment.held) res.destroy();
      expect(await exited).toBe(3);
      const report = await reportIn(out);
      expect(report.complete).toBe(false);
      expect(report.harnessErrors[0]).toContain(`the run was interrupted (${signal})`);
      expect(validateReport(report)).toEqual({ valid: true, errors: [] });
      // With --json, stdout holds the report only; progress and the interruption go to stderr.
      expect((JSON.parse(stdout) as RunReport).harnessErrors).toEqual(report.harnessErrors);
      expect(stderr).toContain(`stopping: the run was interrupted (${signal})`);
      expect(stderr).toMatch(/^target http:\/\/127\.0\.0\.1:\d+; agent documents are served at/m);
    },
    60_000,
  );

  test('a run whose launcher is stopped alone (as npx is by a SIGTERM sent to it only) writes its incomplete report', async () => {
    const deployment = await hangingDeployment();
    servers.push(deployment.server);
    const out = mkdtempSync(join(tmpdir(), 'apc-orphan-'));
    // The launcher starts the run as npx does, with inherited output, and is then killed without a word to the run.
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        `require('node:child_process').spawn(process.execPath, ${JSON.stringify([...CLI, ...runArgs(deployment.url, out)])}, { stdio: 'ignore' }); setInterval(() => {}, 1000);`,
      ],
      { cwd: PROJECT_ROOT, stdio: 'ignore' },
    );
    started.push(launcher);
    await deployment.firstHeld;
    launcher.kill('SIGKILL');
    for (const res of deployment.held) res.destroy();
    const report = await reportIn(out, 30_000);
    expect(report.complete).toBe(false);
    expect(report.harnessErrors[0]).toMatch(/^the run was interrupted \(the process that started it, pid \d+, ended\)/);
    expect(validateReport(report)).toEqual({ valid: true, errors: [] });
  }, 60_000);

  // The run closes vitest and writes four reports for about a second after its last suite line; a Ctrl-C then comes
  // while the checks are being wound down (0 ms) or after they ended, while vitest closes (200, 400 ms).
  test.each([0, 200, 400])(
    'SIGINT %i ms after the last suite ended still leaves a report: exit 3, marked incomplete (never 130 without one)',
    async (delayMs) => {
      const out = mkdtempSync(join(tmpdir(), 'apc-late-interrupt-'));
      // In-process, one check in one suite file: when its suite line is printed every check has ended. A terminal's
      // Ctrl-C signals the whole process group; so does this test (the run leads a group of its own).
      const child = spawn(process.execPath, [...CLI, 'run', '--only', 'key-directory.media-type', '--out', out], { cwd: PROJECT_ROOT, detached: true });
      started.push(child);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      let stdout = '';
      const lastSuite = new Promise<void>((resolve) =>
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (/^suites\/2\.4-key-directory\.test\.ts: 1 passed$/m.test(stdout)) resolve();
        }),
      );
      await lastSuite;
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await sleep(delayMs);
      // The run may have ended by now (a fast machine): then there is nobody to signal, and its report must be complete.
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
      const exit = await Promise.race([exited, sleep(40_000).then(() => ({ code: -1, signal: null }))]);
      expect(exit.code, `the run did not exit after SIGINT:\n${stdout}\n${stderr}`).not.toBe(-1);
      // A signal that came once the report was written changes nothing (the run is over); any other must be answered by
      // the run with exit 3 and its report marked incomplete, never by an exit 130 (or death by the signal) that leaves
      // none: then there is no report here and reportIn fails.
      const report = await reportIn(out);
      if (exit.code !== 3) return expect(report.complete, `${JSON.stringify(exit)}: the signal came before the report`).toBe(true);
      expect(report.complete).toBe(false);
      expect(report.harnessErrors[0]).toContain('the run was interrupted (SIGINT)');
      expect(report.counts).toMatchObject({ total: 1, pass: 1 });
      expect(validateReport(report)).toEqual({ valid: true, errors: [] });
    },
    60_000,
  );
});

/**
 * How long after `11 checks selected` the 4.6 run is mid-suite: its browser starts for some 8 s, then its 11 checks end
 * over the next 8 to 10 ("9 of 11 checks done in 15 s"), so a run quicker than 15 s prints no progress line at all.
 */
const MIDWAY_MS = 12_000;

describe('an interrupted run of one suite', () => {
  test('--only 4.6 stopped mid-suite counts each check once, in its suite line and in the total', async () => {
    const selected = readCheckIndex(PROJECT_ROOT)!.checks.filter((c) => c.file === 'suites/4.6-host-bridge.test.ts');
    const out = mkdtempSync(join(tmpdir(), 'apc-interrupt-4.6-'));
    const child = spawn(process.execPath, [...CLI, 'run', '--only', '4.6', '--out', out], { cwd: PROJECT_ROOT, detached: true });
    started.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stdout = '';
    let named = false;
    // Some checks have ended and some have not when the progress line comes (a browser check takes seconds), or
    // MIDWAY_MS after the run named its checks, whichever is first: a run quicker than the 15 s between progress lines
    // prints none before it ends.
    const midway = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (!named && new RegExp(`^${selected.length} checks selected`, 'm').test(stdout)) {
          named = true;
          setTimeout(resolve, MIDWAY_MS);
        }
        if (new RegExp(`^ {2}\\.\\.\\. \\d+ of ${selected.length} checks done`, 'm').test(stdout)) resolve();
      }),
    );
    await midway;
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(3);
    const report = await reportIn(out);
    expect(report.complete).toBe(false);
    const ids = report.results.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => selected.some((c) => c.id === id))).toBe(true);
    const c = report.counts;
    expect(c.total).toBe(ids.length);
    expect(c.pass + c.fail + c.warn + c['not-run'] + c.error).toBe(c.total);
    // The suite line counts what the total counts: "suites/4.6-host-bridge.test.ts: 9 passed, 2 not run".
    const line = /^suites\/4\.6-host-bridge\.test\.ts: (.*)$/m.exec(stdout)?.[1];
    expect(line, stdout).toBeDefined();
    const inLine = [...line!.matchAll(/(\d+) (?:passed|FAILED|failed|warned|warnings?|not run|errors?)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(inLine, line).toBe(c.total);
    expect(c.total).toBeLessThanOrEqual(selected.length);
    expect(stdout).toMatch(new RegExp(`^INCOMPLETE \\(\\d+ of ${c.total} checked`, 'm'));
  }, 120_000);
});
