import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../stores/serve-process.js';
import { type Fleet, runAgainstFleet, startFleet, whyNoFleet } from './fleet.js';

/**
 * The fleet as issue 16 is done when: two `serve` instances over one Redis and one PostgreSQL (both started here, on
 * loopback ports of their own) pass a whole live run given both instances, with the options that let every live
 * check run but the real-time waits (--allow-waits adds some 40 minutes, and needs no second instance).
 */
const missing = whyNoFleet();
let fleet: Fleet | undefined;
const keysDir = mkdtempSync(join(tmpdir(), 'apc-fleet-keys-'));
/** A whole live run on a loaded 2-core machine; the run's own deadline ends it before this does. */
const RUN_MS = 1_500_000;

beforeAll(async () => {
  // The first instance also creates the agent's keys, the second finds them.
  if (!missing) fleet = await startFleet({ publicUrl: 'first-instance', args: ['--client-address-header', 'x-forwarded-for', '--keys-dir', keysDir] });
}, 120_000);
afterAll(async () => {
  await fleet?.stop();
  rmSync(keysDir, { recursive: true, force: true });
}, 30_000);

describe('two serve instances over one Redis and one PostgreSQL', () => {
  it(
    'pass a whole live run given both (run --base-url A --also-base-url B): exit 0, the fleet checks among the passes',
    async (ctx) => {
      if (missing) ctx.skip(missing);
      const [a, b] = fleet!.instances as [ServeProcess, ServeProcess];
      const { run, report } = await runAgainstFleet(
        fleet!,
        ['--agent-url', `${a.url}/agents/reference`, '--client-address-header', 'x-forwarded-for', '--allow-spend', '--spend-cap', '1000000'],
        'reports/e2e-fleet-live',
        RUN_MS,
      );
      const { results } = report;
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
