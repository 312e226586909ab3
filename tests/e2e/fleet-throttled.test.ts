import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE_WAIT_MS } from '../../src/harness/failure-budget.js';
import { runConformance } from '../../src/harness/run.js';
import { type ServedReference, serveReference } from '../../src/reference/index.js';
import { createMemoryPorts } from '../../src/verifier/memory-ports.js';
import { freePort } from '../stores/serve-process.js';
import { type Fleet, runAgainstFleet, startFleet, whyNoFleet } from './fleet.js';

/**
 * Issue 27, the fleet finished: the run's fleet checks against two `serve` instances over one Redis (and one SQLite
 * file), with the deployment's own throttling left on: no --client-address-header, so every request of the run comes
 * from one address and the failures the instances count together are the run's own. Under --allow-waits the five pass
 * within the pacing floor: the throttle check holds the run's address (the pacer's trip), trips the throttle over both
 * instances and waits its window out (one window, 62 s) before the run goes on.
 */
const missing = whyNoFleet('sqlite');
const FLEET_CHECKS = [
  'fleet.replay-across-instances',
  'fleet.throttle-counts-every-instance',
  'fleet.platform-token-accepted-elsewhere',
  'fleet.in-flight-charge-resumed-elsewhere',
  'fleet.concurrent-presentations-charge-once',
];
/** A whole run of five checks, one window of them waited out; the run's own deadline ends it before this does. */
const RUN_MS = 300_000;
/** What a run may take beyond its pacing floor (starting, buying, the loaded machine). */
const OVER_FLOOR_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'apc-fleet-throttled-'));
let fleet: Fleet | undefined;

beforeAll(async () => {
  if (!missing) fleet = await startFleet({ publicUrl: 'first-instance', purchases: { sqliteFile: join(dir, 'purchases.sqlite') } });
}, 120_000);
afterAll(async () => {
  await fleet?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('the fleet checks over one Redis, the throttle on and no --client-address-header', () => {
  it(
    "pass within the pacing floor, the throttle check tripping the throttle from the run's one address",
    async (ctx) => {
      if (missing) ctx.skip(missing);
      const { run, report } = await runAgainstFleet(
        fleet!,
        ['--allow-spend', '--spend-cap', '100000', '--allow-waits', ...FLEET_CHECKS.flatMap((id) => ['--only', id])],
        'reports/e2e-fleet-throttled',
        RUN_MS,
      );
      const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.message ? `${r.verdict}: ${r.message}` : r.verdict]));
      expect(verdicts, run.stderr.slice(-2000)).toEqual(Object.fromEntries(FLEET_CHECKS.map((id) => [id, 'pass'])));
      expect(run.code).toBe(0);
      // The throttle was tripped on purpose, and its window waited out once, announced.
      expect(run.stderr).toMatch(/fleet\.throttle-counts-every-instance tripped the deployment's throttle from the run's one address on purpose/);
      expect(run.stderr).toMatch(/fleet\.throttle-counts-every-instance: waiting 6\d s in real time .* for the deployment's throttle window to pass/);
      expect(report.pacing, 'a run from one address records its pacing').toBeDefined();
      expect(report.pacing!.throttled).toBe(true);
      expect(report.pacing!.failingRequests).toBeGreaterThanOrEqual(30);
      expect(report.pacing!.wallTimeMs).toBeLessThan(report.pacing!.floorMs + OVER_FLOOR_MS);
      for (const serve of fleet!.instances) expect(serve.output()).not.toMatch(/error while answering/);
    },
    RUN_MS,
  );
});

describe('from one address, a deployment whose throttle does not hold fails the throttle checks', () => {
  const served: ServedReference[] = [];
  afterAll(async () => {
    for (const s of served.splice(0)) await s.close();
  });
  /** A run from one address under --allow-waits: the verdicts by check, how long it took and what it waited. */
  async function runFromOneAddress(only: string, baseUrl: string, alsoBaseUrl?: string) {
    const started = Date.now();
    const outcome = await runConformance({
      only: [only],
      live: { baseUrl, allowWaits: true, ...(alsoBaseUrl ? { alsoBaseUrl } : {}) },
      out: dir,
    });
    return { outcome, wallMs: Date.now() - started, verdicts: outcome.report?.results.map((r) => `${r.id}: ${r.verdict}`) };
  }

  it('two instances counting failures each for itself (15 each) fail the fleet check, and nothing is waited out', async () => {
    const port = await freePort();
    const authority = `127.0.0.1:${port}`;
    served.push(await serveReference({ port, allowInsecureFixtures: true }));
    served.push(await serveReference({ port: 0, authority, allowInsecureFixtures: true }));
    const [a, b] = served as [ServedReference, ServedReference];
    const { outcome, wallMs, verdicts } = await runFromOneAddress('fleet.throttle-counts-every-instance', a.url, b.url);
    expect(verdicts).toEqual(['fleet.throttle-counts-every-instance: fail']);
    expect(outcome.report!.results[0]!.message).toMatch(
      /step 31 of 32 .*expected 401 too_many_failed_signatures|step 31 of 32 .*expected error_code too_many_failed_signatures/,
    );
    expect(outcome.report!.pacing).toMatchObject({ throttled: false, waitedMs: 0 });
    expect(wallMs).toBeLessThan(THROTTLE_WAIT_MS);
  }, 120_000);

  it('a deployment that never throttles fails the thirty-failures check, and nothing is waited out', async () => {
    const never = await serveReference({
      port: 0,
      allowInsecureFixtures: true,
      ports: (clock, fetcher) => ({ ...createMemoryPorts(clock, fetcher), failures: { count: () => 0, record: () => undefined } }),
    });
    served.push(never);
    const { outcome, wallMs, verdicts } = await runFromOneAddress('signed.throttle-thirty-failures', never.url);
    expect(verdicts).toEqual(['signed.throttle-thirty-failures: fail']);
    expect(outcome.report!.pacing).toMatchObject({ throttled: false, waitedMs: 0 });
    expect(wallMs).toBeLessThan(THROTTLE_WAIT_MS);
  }, 120_000);
});
