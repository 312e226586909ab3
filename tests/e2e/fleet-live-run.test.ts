import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServeProcess, startServe } from '../stores/serve-process.js';
import { startPostgres, startRedis, type TestPostgres, type TestServer, whyNoPostgres, whyNoRedis } from '../stores/servers.js';
import { spawnCli } from './spawn-cli.js';

/**
 * The fleet as issue 16 is done when: two `serve` instances over one Redis and one PostgreSQL (both started here, on
 * loopback ports of their own) pass a whole live run given both instances, with the options that let every live
 * check run but the real-time waits (--allow-waits adds some 40 minutes, and needs no second instance).
 */
const missing = whyNoRedis() ?? whyNoPostgres();
let redis: TestServer | undefined;
let pg: TestPostgres | undefined;
const fleet: ServeProcess[] = [];
const keysDir = mkdtempSync(join(tmpdir(), 'apc-fleet-keys-'));
/** A whole live run on a loaded 2-core machine; the run's own deadline ends it before this does. */
const RUN_MS = 1_500_000;

beforeAll(async () => {
  if (missing) return;
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const [a, b] = [await freePort(), await freePort()];
  const shared = [
    '--allow-insecure-fixtures',
    '--client-address-header',
    'x-forwarded-for',
    '--public-url',
    `http://127.0.0.1:${a}`,
    '--store',
    redis.url,
    '--db',
    await pg.createDatabase(),
    '--keys-dir',
    keysDir,
  ];
  // One after the other: the first creates the schema and the agent's keys, the second finds them.
  fleet.push(await startServe(['--port', String(a), ...shared]));
  fleet.push(await startServe(['--port', String(b), ...shared]));
}, 120_000);
afterAll(async () => {
  for (const serve of fleet) await serve.kill('SIGTERM');
  await redis?.stop();
  await pg?.stop();
  rmSync(keysDir, { recursive: true, force: true });
}, 30_000);

interface Result {
  readonly id: string;
  readonly verdict: string;
  readonly message?: string;
}

describe('two serve instances over one Redis and one PostgreSQL', () => {
  it(
    'pass a whole live run given both (run --base-url A --also-base-url B): exit 0, the fleet checks among the passes',
    async (ctx) => {
      if (missing) ctx.skip(missing);
      const [a, b] = fleet as [ServeProcess, ServeProcess];
      const run = await spawnCli(
        [
          'run',
          '--base-url',
          a.url,
          '--also-base-url',
          b.url,
          '--agent-url',
          `${a.url}/agents/reference`,
          '--client-address-header',
          'x-forwarded-for',
          '--allow-spend',
          '--spend-cap',
          '1000000',
          '--out',
          'reports/e2e-fleet-live',
          '--json',
        ],
        RUN_MS,
      );
      const results = (JSON.parse(run.stdout) as { results: Result[] }).results;
      const failed = results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => `${r.id}: ${r.message ?? ''}`);
      expect(failed, `${run.stderr.slice(-2000)}\n${a.output().slice(-1000)}\n${b.output().slice(-1000)}`).toEqual([]);
      expect(results.filter((r) => r.id.startsWith('fleet.')).map((r) => [r.id, r.verdict])).toEqual([
        ['fleet.throttle-counts-every-instance', 'pass'],
        ['fleet.replay-across-instances', 'pass'],
        ['fleet.platform-token-accepted-elsewhere', 'pass'],
        ['fleet.in-flight-charge-resumed-elsewhere', 'pass'],
        ['fleet.concurrent-presentations-charge-once', 'pass'],
      ]);
      expect(run.code).toBe(0);
    },
    RUN_MS,
  );
});
