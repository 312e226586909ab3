import type { Mutant } from './types.js';

/**
 * The mutant switched on in this worker, if any. A self-test run switches one on around a check (suites/lib/check.ts);
 * the in-process targets read it when they build a deployment and on every request.
 */
let active: Mutant | undefined;

export function activeMutant(): Mutant | undefined {
  return active;
}

export function switchMutant(mutant: Mutant | undefined): void {
  active = mutant;
}
