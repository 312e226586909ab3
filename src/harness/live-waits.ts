import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignedRequestCase, SignedRequestVectors } from '../cases/types.js';
import { CHALLENGE_EXPIRY_TOLERANCE_S } from '../spec/readings.js';
import { LIMITS } from '../spec/limits.js';
import { selectedBy } from '../contract/check.js';
import type { CheckIndex } from './check-index.js';
import { THROTTLE_WAIT_MS, TRIPPING_CASES } from './failure-budget.js';
import { planLive } from './live-staging.js';

/**
 * How long the checks of time-bound rules wait in real time on a live run with --allow-waits: the run's deadline and
 * each check's time limit grow by it, so a wait never ends a run that would otherwise have finished.
 */

/** A little more than the longest step offset: the margins of live steps (src/harness/case-on-target.ts) and the run's own pace. */
const MARGIN_S = 30;

/** Seconds a signed-request case waits live: its registration's re-read delay and its latest step. */
export function caseWaitSeconds(c: SignedRequestCase): number {
  const plan = planLive(c, { allowWaits: true, ownerKey: 'any' });
  const delay = 'delay' in plan ? plan.delay : 0;
  const latest = Math.max(0, ...c.steps.map((s) => (s.at ?? c.now) - c.now));
  return delay + latest === 0 ? 0 : delay + latest + MARGIN_S;
}

/** The purchase checks that age a challenge past (or almost to) its lifetime, by check id. */
const AGING_WAITS: Readonly<Record<string, number>> = Object.freeze({
  'purchase.challenge-honoured-until-expiry': LIMITS.paymentChallengeLifetime.value - CHALLENGE_EXPIRY_TOLERANCE_S + MARGIN_S,
  'purchase.challenge-expired': LIMITS.paymentChallengeLifetime.value + CHALLENGE_EXPIRY_TOLERANCE_S + 1 + MARGIN_S,
  'purchase.expired-settled-credited': LIMITS.paymentChallengeLifetime.value + CHALLENGE_EXPIRY_TOLERANCE_S + 1 + MARGIN_S,
});

/**
 * The checks that trip the throttle on purpose from the run's one address (a trip of the run's pacer) and what they may
 * wait: a window for the run's other failures to leave the deployment's, and a window for the throttle to pass. (With
 * --client-address-header they wait for nothing; the deadline is an upper bound.)
 */
const TRIPPING_CHECKS: ReadonlySet<string> = new Set(['fleet.throttle-counts-every-instance', ...[...TRIPPING_CASES].map((id) => `signed.${id}`)]);
const TRIP_WAIT_S = 2 * Math.ceil(THROTTLE_WAIT_MS / 1000);

/**
 * Seconds the checks a run selects (`files` relative to the package root, `selection` as planned) wait live under
 * --allow-waits, summed (checks of one file run one after another). Without the index: every time-bound check.
 */
export function plannedWaitSeconds(packageRoot: string, index: CheckIndex | undefined, files: readonly string[], selection: readonly string[]): number {
  const checkIds = index?.checks.filter((c) => files.includes(c.file) && selectedBy(selection, c)).map((c) => c.id);
  const vectors = JSON.parse(readFileSync(join(packageRoot, 'vectors', 'signed-requests.json'), 'utf8')) as SignedRequestVectors;
  const cases = new Map<string, SignedRequestCase>(vectors.testGroups.flatMap((g) => g.cases.map((c) => [`signed.${c.id}`, c] as const)));
  let total = 0;
  for (const id of checkIds ?? [...cases.keys(), ...Object.keys(AGING_WAITS)]) {
    const c = cases.get(id);
    total += (c ? caseWaitSeconds(c) : (AGING_WAITS[id] ?? 0)) + (TRIPPING_CHECKS.has(id) ? TRIP_WAIT_S : 0);
  }
  return total;
}

/** The purchase aging checks' waits, for their time limits. */
export function agingWaitSeconds(checkId: string): number {
  return AGING_WAITS[checkId] ?? 0;
}
