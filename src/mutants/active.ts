import type { Deviation } from './types.js';

/**
 * The deviation switched on in this worker, if any: a mutant (a fault the suite must catch) or a conformant
 * variant (another choice the spec allows, which the suite must pass). A self-test run switches one on around a
 * check (suites/lib/check.ts); the in-process targets read it when they build a deployment and on every request.
 */
let active: { readonly deviation: Deviation; readonly kind: 'mutant' | 'variant' } | undefined;

export function activeDeviation(): Deviation | undefined {
  return active?.deviation;
}

/** Whether the deployment is a mutant: its failures are then its answers, not bugs of the reference. */
export function mutantActive(): boolean {
  return active?.kind === 'mutant';
}

export function switchDeviation(deviation: Deviation | undefined, kind: 'mutant' | 'variant' = 'mutant'): void {
  active = deviation ? { deviation, kind } : undefined;
}
