import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outcomeWords, runClientCommand } from '../../../src/harness/client/runner.js';

const folder = mkdtempSync(join(tmpdir(), 'apc-runner-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Whether a process with this id still runs: it exists (signal 0 only asks) and is not a zombie its new parent has yet to reap. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

const base = { cwd: folder, env: {}, timeLimitMs: 10_000 };

describe('runClientCommand: the client under test in a process group of its own', () => {
  it('runs the command through the shell with the case variables, and reports its exit code and output', async () => {
    const o = await runClientCommand({
      ...base,
      command: 'printf "%s %s" "$APC_CASE" "$APC_CARD_TOKEN"; echo oops >&2; exit 3',
      env: { APC_CASE: 'pack-card', APC_CARD_TOKEN: 'spt_test_settled_1' },
    });
    expect(o).toMatchObject({ exitCode: 3, signal: null, timedOut: false, stdout: 'pack-card spt_test_settled_1', stderr: 'oops\n' });
    expect(outcomeWords(o, 10_000)).toBe('exited with code 3');
  });

  it('stops the whole group at the time limit, a child that ignores SIGTERM included', async () => {
    const pidFile = join(folder, 'stubborn.pid');
    const o = await runClientCommand({
      ...base,
      command: `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & wait`,
      timeLimitMs: 500,
      graceMs: 200,
    });
    expect(o.timedOut).toBe(true);
    expect(outcomeWords(o, 500)).toBe('stopped after its time limit of 0.5 s');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it('kills what the shell left running once it has exited', async () => {
    const pidFile = join(folder, 'left.pid');
    const o = await runClientCommand({ ...base, command: `(sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}); exit 0` });
    expect(o).toMatchObject({ exitCode: 0, timedOut: false });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // SIGKILL is asynchronous: the process is gone within moments.
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it('stops the group when the run is interrupted', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const o = await runClientCommand({ ...base, command: 'sleep 30', signal: abort.signal, graceMs: 200 });
    expect(o.timedOut).toBe(false);
    expect(o.signal ?? o.exitCode).not.toBe(0);
    expect(o.durationMs).toBeLessThan(5000);
  });

  it('says when the command could not be started', async () => {
    const o = await runClientCommand({ ...base, cwd: join(folder, 'no-such-folder'), command: 'true' });
    expect(o.spawnError).toMatch(/ENOENT/);
    expect(outcomeWords(o, 1000)).toMatch(/^could not be started: /);
  });
});
