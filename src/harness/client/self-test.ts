import { CLIENT_RULE_LIST } from '../../client-judge/rules.js';
import { CLIENT_MUTANTS, clientMutantDepth, type ClientMutant } from '../../mutants/client.js';
import { clientDocuments, clientIdentity, runReferenceClient } from '../../reference/client/client.js';
import type { ClientChoices, ClientFault, ClientIdentity } from '../../reference/client/types.js';
import type { ClientCase } from '../../scenarios/clients/cases.js';
import { CLIENT_REQUIREMENT_LIST } from '../../spec/client-requirements.js';
import { CLIENT_VARIANTS, type ClientVariant } from '../../variants/client.js';
import type { MutantTrial } from '../reporter.js';
import type { CheckResult } from '../results.js';
import type { VariantTrialMeta } from '../self-test-config.js';
import { judgeSelfTest, type SelfTestSummary } from '../self-test.js';
import { runCasesInProcess } from './in-process.js';
import { clientCheckResults, type ClientCaseRun } from './results.js';

/** The agent URL the reference client signs as in the self-test (its documents are served from memory). */
const SELF_TEST_AGENT = 'https://client.example/agents/reference';

/** The reference client with `faults` and `choices`, run over `cases` in this process; its results, one per rule. */
async function runReference(
  cases: readonly ClientCase[],
  all: readonly ClientCase[],
  o: { faults?: readonly ClientFault[]; choices?: ClientChoices; identity: ClientIdentity },
): Promise<{ runs: ClientCaseRun[]; results: CheckResult[] }> {
  const faults = o.faults ?? [];
  const runs = await runCasesInProcess({
    cases,
    documents: clientDocuments(o.identity, faults),
    client: (env, ports) =>
      runReferenceClient(env, {
        identity: o.identity,
        fetch: ports.fetch,
        clock: ports.clock,
        connect: ports.connect,
        faults,
        ...(o.choices ? { choices: o.choices } : {}),
      }),
  });
  return { runs, results: clientCheckResults(runs, all) };
}

/** The cases that judge any rule naming one of `requirements`. */
function casesFor(requirements: readonly string[], cases: readonly ClientCase[]): ClientCase[] {
  const keys = new Set(CLIENT_RULE_LIST.filter((r) => requirements.includes(r.requirement.id)).map((r) => r.key));
  return cases.filter((c) => c.rules.some((k) => keys.has(k)));
}

export interface ClientSelfTestOptions {
  readonly cases: readonly ClientCase[];
  /** Every case of the catalogue (for not-run reasons). */
  readonly all: readonly ClientCase[];
  /** `--only` values: the requirements in scope. */
  readonly selection: readonly string[];
  readonly mutants?: readonly ClientMutant[];
  readonly variants?: readonly ClientVariant[];
  readonly progress?: (line: string) => void;
}

/**
 * Client mode's self-test: every case against the reference client (each check must pass or not run), each client
 * mutant (a fault of the reference client) over the cases judging its requirements (a check naming one of them must
 * fail), each client variant likewise (every check naming its requirements must pass). Scored by the server
 * self-test's own judge over the client catalogue. Runs in this process on a virtual clock: no process, no wait.
 */
export async function clientSelfTest(options: ClientSelfTestOptions): Promise<{ results: CheckResult[]; selfTest: SelfTestSummary }> {
  const started = Date.now();
  const mutants = options.mutants ?? CLIENT_MUTANTS;
  const variants = options.variants ?? CLIENT_VARIANTS;
  const identity = clientIdentity(SELF_TEST_AGENT, 1, 'client-self-test');
  const clean = await runReference(options.cases, options.all, { identity });
  const ruleOf = new Map(clean.results.map((r) => [r.id, r]));

  const trials: MutantTrial[] = [];
  for (const mutant of mutants) {
    const cases = casesFor(mutant.requirements, options.cases);
    if (cases.length === 0) continue;
    const tried = await runReference(cases, options.all, { identity, faults: [mutant.fault()] });
    let killed = false;
    for (const result of tried.results) {
      if (!result.requirements.some((id) => mutant.requirements.includes(id))) continue;
      const outcome = killed ? 'skipped' : result.verdict === 'fail' ? 'killed' : result.verdict === 'not-run' ? 'not-run' : 'survived';
      if (outcome === 'killed' && ruleOf.get(result.id)?.verdict === 'pass') killed = true;
      trials.push({
        mutant: mutant.id,
        check: { id: result.id, requirements: result.requirements, level: result.level },
        checkId: result.id,
        requirements: result.requirements,
        level: result.level,
        outcome,
        durationMs: result.durationMs,
        ...(result.message === undefined ? {} : { message: result.message }),
      });
    }
    options.progress?.(`client mutant ${mutant.id}: ${killed ? 'caught' : 'SURVIVED'}`);
  }

  const variantTrials: VariantTrialMeta[] = [];
  for (const variant of variants) {
    const cases = casesFor(variant.requirements, options.cases);
    if (cases.length === 0) continue;
    const keys = clientIdentity(SELF_TEST_AGENT, variant.keys ?? 1, 'client-self-test');
    const tried = await runReference(cases, options.all, { identity: keys, choices: variant.choices });
    for (const result of tried.results) {
      if (!result.requirements.some((id) => variant.requirements.includes(id))) continue;
      variantTrials.push({
        variant: variant.id,
        check: { id: result.id, requirements: result.requirements, level: result.level },
        outcome: result.verdict === 'fail' || result.verdict === 'error' ? 'failed' : result.verdict === 'pass' ? 'passed' : 'not-run',
        ...(result.message === undefined ? {} : { message: result.message }),
      });
    }
    const failed = variantTrials.some((t) => t.variant === variant.id && t.outcome === 'failed');
    options.progress?.(`client variant ${variant.id}: ${failed ? 'FALSE FAIL' : 'passed'}`);
  }

  const selfTest = judgeSelfTest({
    results: clean.results,
    trials,
    mutants: mutants.map((m) => ({ id: m.id, description: m.description, requirements: m.requirements, depth: clientMutantDepth(m) })),
    variants: variants.map((v) => ({ id: v.id, description: v.description, readings: v.readings, requirements: v.requirements })),
    variantTrials,
    catalogue: CLIENT_REQUIREMENT_LIST,
    untestable: [],
    selection: options.selection,
    wallTimeMs: Date.now() - started,
  });
  return { results: clean.results, selfTest };
}
