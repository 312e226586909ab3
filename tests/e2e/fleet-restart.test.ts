import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { freePort, post, type ServeProcess, SigningAgent, startServe } from '../stores/serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'apc-restart-'));
const file = join(dir, 'purchases.sqlite');
const running: ServeProcess[] = [];
let agent: SigningAgent | undefined;
afterAll(async () => {
  for (const serve of running) await serve.kill('SIGKILL');
  await agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads the purchase records as serve left them in its file. */
function records(): { grants: number; balance: string | undefined; charges: { challenge_id: string; state: string }[] } {
  const db = new Database(file, { readonly: true });
  try {
    const grants = (db.prepare('SELECT COUNT(*) AS n FROM grants').get() as { n: number }).n;
    const balance = (db.prepare('SELECT CAST(nano AS TEXT) AS nano FROM balances').get() as { nano: string } | undefined)?.nano;
    return {
      grants,
      balance,
      charges: db.prepare('SELECT challenge_id, state FROM charges ORDER BY sent_at').all() as { challenge_id: string; state: string }[],
    };
  } finally {
    db.close();
  }
}

describe('serve --db FILE across a SIGKILL', () => {
  it('resumes a charge settled but not credited when killed, credits it once, and loses nothing credited before', async () => {
    agent = await SigningAgent.start('restart');
    const port = await freePort();
    const args = ['--port', String(port), '--allow-insecure-fixtures', '--db', file];
    const first = await startServe(args);
    running.push(first);
    const credits = `${first.url}${PLATFORM_ROUTES.mppCredits}`;
    const buy = async (serve: ServeProcess, headers: Record<string, string>) => post(serve.url, credits, agent!.sign(credits, headers));
    const challenge = async (serve: ServeProcess) => {
      const asked = await buy(serve, {});
      expect(asked.status).toBe(402);
      return asked.headers[HEADERS.wwwAuthenticate] as string;
    };

    const before = SigningAgent.paying(await challenge(first), 'spt_test_settled_1');
    expect((await buy(first, before)).status, 'a purchase credited before the crash').toBe(200);

    // The grant fails after the charge settled: what a crash between the two leaves behind.
    const db = new Database(file);
    db.exec("CREATE TRIGGER crash BEFORE INSERT ON grants BEGIN SELECT RAISE(ABORT, 'the process died here'); END");
    db.close();
    const paying = SigningAgent.paying(await challenge(first), 'spt_test_settled_2');
    const interrupted = await buy(first, paying);
    expect(interrupted.status).toBe(503);
    expect(interrupted.body).toContain('grant_failed');
    await first.kill('SIGKILL');
    expect(records()).toMatchObject({ grants: 1, balance: '5000000000', charges: [{ state: 'settled' }, { state: 'settled' }] });

    const repaired = new Database(file);
    repaired.exec('DROP TRIGGER crash');
    repaired.close();
    const second = await startServe(args);
    running.push(second);
    const resumed = await buy(second, paying);
    expect(resumed.status, resumed.body).toBe(200);
    expect(resumed.body).toContain('10000000000');
    expect((await buy(second, paying)).status, 'the same credential again: already granted').toBe(409);
    expect((await buy(second, before)).status, 'the purchase before the crash is still granted').toBe(409);
    expect(records()).toMatchObject({ grants: 2, balance: '10000000000' });
    await second.kill('SIGTERM');
    expect(second.child.exitCode).toBe(0);
  }, 120_000);
});
