import { AGENT_MUTANTS } from './agent.js';
import { AUTH_MUTANTS } from './auth.js';
import { BRIDGE_MUTANTS } from './bridge.js';
import { INBAND_MUTANTS } from './inband.js';
import { PUBLISH_MUTANTS } from './publish.js';
import { PURCHASE_MUTANTS } from './purchase.js';
import { SDK_AUTH_MUTANTS } from './sdk-auth.js';
import { VERIFIER_MUTANTS } from './verifier.js';
import type { Mutant } from './types.js';
import { WIDGET_MUTANTS } from './widgets.js';

/** Every named fault of the reference deployments, section by section. */
export const MUTANTS: readonly Mutant[] = Object.freeze([
  ...WIDGET_MUTANTS,
  ...PUBLISH_MUTANTS,
  ...BRIDGE_MUTANTS,
  ...AGENT_MUTANTS,
  ...SDK_AUTH_MUTANTS,
  ...AUTH_MUTANTS,
  ...VERIFIER_MUTANTS,
  ...PURCHASE_MUTANTS,
  ...INBAND_MUTANTS,
]);

/** Problems of a mutant list: duplicate ids, a mutant naming no requirement or one the catalogue does not hold. */
export function mutantCatalogueProblems(mutants: readonly Mutant[], catalogueIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const m of mutants) {
    if (seen.has(m.id)) problems.push(`mutant ${m.id} is listed twice`);
    seen.add(m.id);
    if (m.requirements.length === 0) problems.push(`mutant ${m.id} names no requirement`);
    for (const id of m.requirements) if (!catalogueIds.has(id)) problems.push(`mutant ${m.id} names ${id}, which the catalogue does not hold`);
    if (!m.platform && !m.fetcher && !m.agent) problems.push(`mutant ${m.id} switches nothing on`);
  }
  return problems;
}
