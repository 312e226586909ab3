import { MUTANTS } from '../mutants/catalogue.js';
import { rewrite } from '../mutants/answer.js';
import type { Mutant } from '../mutants/types.js';

/** How `run --self-test` tells the suites (in vitest workers) to try mutants: one JSON environment variable. */
export const SELF_TEST_ENV = 'CONFORMANCE_SELF_TEST';

/**
 * A mutant written as data (no code), for faults given from outside the catalogue: it adds one header to every
 * answer of the platform. The self-test's own test uses one to show that a fault no check observes fails the gate.
 */
export interface DeclaredMutant {
  readonly id: string;
  readonly description: string;
  readonly requirements: readonly string[];
  readonly addHeader: { readonly name: string; readonly value: string };
}

export interface SelfTestConfig {
  readonly extra?: readonly DeclaredMutant[];
}

export function declaredMutant(d: DeclaredMutant): Mutant {
  return {
    id: d.id,
    description: d.description,
    requirements: d.requirements,
    platform: { answer: rewrite(() => true, (a) => a.headers.set(d.addHeader.name, d.addHeader.value)) },
  };
}

/** The mutants a self-test tries: the catalogue's and any declared ones. */
export function selfTestMutants(config: SelfTestConfig): readonly Mutant[] {
  return [...MUTANTS, ...(config.extra ?? []).map(declaredMutant)];
}

/** The self-test configuration of this worker; undefined outside a self-test. */
export function readSelfTestConfig(env: NodeJS.ProcessEnv = process.env): SelfTestConfig | undefined {
  const raw = env[SELF_TEST_ENV];
  return raw ? (JSON.parse(raw) as SelfTestConfig) : undefined;
}

/** What a check did with a mutant switched on, as a self-test run's test records it (task meta `mutant`). */
export interface MutantTrialMeta {
  readonly mutant: string;
  /** The check's own test name, `<name> [IDS] (LEVEL)`. */
  readonly check: string;
  /**
   * killed: the check failed; survived: it passed; not-run: it reported itself not-run; skipped: another check of
   * this suite file had already killed the mutant.
   */
  readonly outcome: 'killed' | 'survived' | 'not-run' | 'skipped';
  readonly message?: string;
}
