import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { requirementId } from '../../src/spec/ids.js';
import { PURCHASE_REQUIREMENTS } from '../../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { REQUIREMENTS } from '../../src/spec/requirements.js';
import { type ServeProcess, startServe } from '../stores/serve-process.js';
import { spawnCli } from './spawn-cli.js';

/**
 * The fleet checks (suites/5.2-fleet.test.ts) both ways: one `serve` given as both instances is a deployment of one
 * and passes them; two `serve` processes each keeping its state in memory, answering for one host, are a broken fleet
 * and fail every one, naming its requirement. Without --also-base-url they are not run, saying what to give.
 */
const FLEET_CHECKS: Readonly<Record<string, readonly string[]>> = {
  // First in the suite file: a run from one address waits out the window its trip opens (when it may), not another before it.
  'fleet.throttle-counts-every-instance': [requirementId('AUTH', AUTH_CODES.too_many_failed_signatures)],
  'fleet.replay-across-instances': [requirementId('AUTH', AUTH_CODES.signature_replayed)],
  'fleet.platform-token-accepted-elsewhere': [REQUIREMENTS.signedRequestAccepted.id],
  'fleet.in-flight-charge-resumed-elsewhere': [PURCHASE_ERRORS.charge_processing.id, PURCHASE_REQUIREMENTS.resumeSameCredential.id],
  'fleet.concurrent-presentations-charge-once': [
    PURCHASE_ERRORS.purchase_already_granted.id,
    PURCHASE_ERRORS.purchase_in_flight.id,
    PURCHASE_REQUIREMENTS.settledCreditedOnce.id,
  ],
};
const LIVE_OPTIONS = ['--client-address-header', 'x-forwarded-for', '--allow-spend', '--spend-cap', '100000', '--only', '5.2', '--json'];

interface Result {
  readonly id: string;
  readonly verdict: string;
  readonly requirements: readonly string[];
  readonly message?: string;
}

let one: ServeProcess | undefined;
let apart: ServeProcess | undefined;
beforeAll(async () => {
  one = await startServe(['--port', '0', '--allow-insecure-fixtures', '--client-address-header', 'x-forwarded-for']);
  // Another process answering for the first one's host, with its own memory: a load balancer over these two is a broken fleet.
  apart = await startServe(['--port', '0', '--allow-insecure-fixtures', '--client-address-header', 'x-forwarded-for', '--authority', new URL(one.url).host]);
}, 120_000);
afterAll(async () => {
  await one?.kill('SIGTERM');
  await apart?.kill('SIGTERM');
});

async function fleetRun(extra: readonly string[]): Promise<{ code: number; results: readonly Result[] }> {
  const run = await spawnCli(['run', '--base-url', one!.url, ...extra, ...LIVE_OPTIONS, '--out', 'reports/e2e-fleet-checks'], 300_000);
  const report = JSON.parse(run.stdout) as { results: Result[] };
  // --only 5.2 also selects the checks of other sections naming a 5.2 requirement; these tests judge the fleet's.
  return { code: run.code, results: report.results.filter((r) => Object.hasOwn(FLEET_CHECKS, r.id)) };
}

describe('run --also-base-url: the fleet checks', () => {
  it('pass against one serve given as both instances', async () => {
    const { code, results } = await fleetRun(['--also-base-url', one!.url]);
    expect(results.map((r) => [r.id, r.verdict, r.message ?? ''])).toEqual(Object.keys(FLEET_CHECKS).map((id) => [id, 'pass', '']));
    expect(code).toBe(0);
  }, 300_000);

  it('fail against two serve processes keeping their state apart, each naming its requirement', async () => {
    const { code, results } = await fleetRun(['--also-base-url', apart!.url]);
    expect(results.map((r) => [r.id, r.verdict, r.requirements])).toEqual(Object.entries(FLEET_CHECKS).map(([id, reqs]) => [id, 'fail', reqs]));
    const byId = new Map(results.map((r) => [r.id, r.message ?? '']));
    expect(byId.get('fleet.replay-across-instances')).toContain('expected 401 signature_replayed, but the answer was 200');
    expect(byId.get('fleet.throttle-counts-every-instance')).toContain('expected 401 too_many_failed_signatures, but the answer was 200');
    expect(byId.get('fleet.platform-token-accepted-elsewhere')).toContain('refused with platform_token_invalid');
    expect(byId.get('fleet.in-flight-charge-resumed-elsewhere')).toContain('the instance at --also-base-url answered');
    expect(byId.get('fleet.concurrent-presentations-charge-once')).toContain('was not answered as one purchase');
    expect(code).toBe(1);
  }, 300_000);

  it('are not run without --also-base-url, saying what to give', async () => {
    const { results } = await fleetRun([]);
    expect(results.map((r) => [r.id, r.verdict])).toEqual(Object.keys(FLEET_CHECKS).map((id) => [id, 'not-run']));
    for (const r of results) expect(r.message).toMatch(/^give --also-base-url: /);
  }, 300_000);
});
