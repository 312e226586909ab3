import { MUTANTS } from '../mutants/catalogue.js';
import { rewrite } from '../mutants/answer.js';
import type { Mutant } from '../mutants/types.js';
import type { CheckIdentity } from '../contract/check.js';
import type { DeclaredMutant, SelfTestConfig } from '../contract/run-context.js';

function declaredMutant(d: DeclaredMutant): Mutant {
  return {
    id: d.id,
    description: d.description,
    requirements: d.requirements,
    platform: {
      answer: rewrite(
        () => true,
        (a) => a.headers.set(d.addHeader.name, d.addHeader.value),
      ),
    },
  };
}

/** The mutants a self-test tries: the catalogue's and any declared ones. */
export function selfTestMutants(config: SelfTestConfig): readonly Mutant[] {
  return [...MUTANTS, ...(config.extra ?? []).map(declaredMutant)];
}

/** What a check did with a mutant switched on, as a self-test run's test records it (task meta `mutant`). */
export interface MutantTrialMeta {
  readonly mutant: string;
  /** The check tried. */
  readonly check: CheckIdentity;
  /**
   * killed: the check failed; survived: it passed; not-run: it reported itself not-run; skipped: another check of
   * this suite file had already killed the mutant.
   */
  readonly outcome: 'killed' | 'survived' | 'not-run' | 'skipped';
  readonly message?: string;
}

/** What a check did with a conformant variant switched on (task meta `variantTrial`): it must pass. */
export interface VariantTrialMeta {
  readonly variant: string;
  readonly check: CheckIdentity;
  readonly outcome: 'passed' | 'failed' | 'not-run';
  readonly message?: string;
}
