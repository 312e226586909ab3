import type { MutantDepth, UntestableRequirement } from '../mutants/types.js';
import type { VariantTrialMeta } from './self-test-config.js';
import type { RequirementRecord } from '../spec/types.js';
import type { MutantTrial } from './reporter.js';
import type { CheckResult } from './results.js';

/** A mutant as the self-test judges it: its id, what it does, the requirements it breaks and where it breaks them. */
interface MutantEntry {
  readonly id: string;
  readonly description: string;
  readonly requirements: readonly string[];
  readonly depth: MutantDepth;
}

/** A conformant variant as the self-test judges it. */
interface VariantEntry {
  readonly id: string;
  readonly description: string;
  readonly readings: readonly string[];
  readonly requirements: readonly string[];
}

/** conformant: every check tried with it passed; false-fail: a check failed it; untried: no check ran with it. */
type VariantVerdict = 'conformant' | 'false-fail' | 'untried';

export interface VariantOutcome {
  readonly id: string;
  readonly description: string;
  readonly readings: readonly string[];
  readonly verdict: VariantVerdict;
  readonly tried: number;
  /** The checks that failed it, and what they said. */
  readonly failures: readonly { readonly check: string; readonly message: string }[];
}

/** killed: a check naming one of its requirements failed with it switched on (and passed without it). */
type MutantVerdict = 'killed' | 'survived';

export interface MutantOutcome {
  readonly id: string;
  readonly description: string;
  readonly requirements: readonly string[];
  readonly depth: MutantDepth;
  readonly verdict: MutantVerdict;
  /** The check that caught it and what it said. */
  readonly killedBy?: { readonly check: string; readonly message: string };
  /** How many checks tried it (a mutant is tried by every check naming one of its requirements, until one catches it). */
  readonly tried: number;
  /** Why a survivor survived. */
  readonly why?: string;
}

/**
 * guarded: checked, and every mutant naming it was caught, one of them deep (the rule broken where it is decided);
 * answer-only: likewise, but every mutant naming it only rewrites answers; survivor: a mutant naming it survived;
 * no-mutant: checked but no mutant names it; failing: a check naming it fails against the clean reference;
 * no-check: no check names it; untestable: the catalogue says no check can observe it (with the reason).
 */
export type RequirementVerdict = 'guarded' | 'answer-only' | 'survivor' | 'no-mutant' | 'failing' | 'no-check' | 'untestable';

export const REQUIREMENT_VERDICTS: readonly RequirementVerdict[] = ['guarded', 'answer-only', 'survivor', 'no-mutant', 'failing', 'no-check', 'untestable'];

/** Verdicts that fail the self-test. */
export const FAILING_REQUIREMENT_VERDICTS: ReadonlySet<RequirementVerdict> = new Set(['survivor', 'failing', 'no-check']);

export interface RequirementSelfTest {
  readonly id: string;
  readonly section: string;
  readonly checks: number;
  readonly mutants: number;
  readonly killed: number;
  readonly verdict: RequirementVerdict;
  /** Why it is untestable, or which mutants survived. */
  readonly note?: string;
}

export interface SelfTestSummary {
  readonly passed: boolean;
  /** Why it did not pass, one line each. */
  readonly problems: readonly string[];
  readonly mutants: {
    readonly total: number;
    readonly killed: number;
    readonly survived: number;
    readonly score: number;
    /** Mutants that break the rule where it is decided, and how many were caught. */
    readonly deep: { readonly total: number; readonly killed: number };
  };
  /** Conformant variants: each must pass every check tried with it. */
  readonly variants: { readonly total: number; readonly conformant: number; readonly falseFails: number };
  readonly variantOutcomes: readonly VariantOutcome[];
  /** Requirements in the selection that carry each verdict. */
  readonly requirementCounts: Readonly<Record<RequirementVerdict, number>> & { readonly total: number };
  readonly wallTimeMs: number;
  readonly outcomes: readonly MutantOutcome[];
  readonly requirements: readonly RequirementSelfTest[];
}

export interface SelfTestInput {
  /** The checks' results against the clean reference. */
  readonly results: readonly CheckResult[];
  readonly trials: readonly MutantTrial[];
  readonly variants: readonly VariantEntry[];
  readonly variantTrials: readonly VariantTrialMeta[];
  readonly mutants: readonly MutantEntry[];
  readonly catalogue: readonly RequirementRecord[];
  readonly untestable: readonly UntestableRequirement[];
  /** `--only` values (sections or ids); empty: everything. */
  readonly selection: readonly string[];
  readonly wallTimeMs: number;
}

const SECTION = /^\d+(\.\d+)*$/;

/** Whether a requirement is inside a run's selection (`7.3` selects 7.3 and 7.3.x; an id selects itself). */
function inSelection(record: Pick<RequirementRecord, 'id' | 'section'>, selection: readonly string[]): boolean {
  if (selection.length === 0) return true;
  return selection.some((s) => (SECTION.test(s) ? record.section === s || record.section.startsWith(`${s}.`) : record.id === s));
}

/**
 * The self-test's verdict: every check passes against the clean reference, every mutant in the selection is caught
 * by a check naming one of its requirements (a check that failed clean catches nothing), and every requirement in
 * the selection has a check unless the catalogue marks it untestable.
 */
export function judgeSelfTest(input: SelfTestInput): SelfTestSummary {
  const scope = input.catalogue.filter((r) => inSelection(r, input.selection));
  const scopeIds = new Set(scope.map((r) => r.id));
  const passedClean = new Set(input.results.filter((r) => r.verdict === 'pass').map((r) => r.id));
  const checksOf = new Map<string, CheckResult[]>();
  for (const r of input.results) for (const id of new Set(r.requirements)) checksOf.set(id, [...(checksOf.get(id) ?? []), r]);

  const outcomes = input.mutants
    .filter((m) => m.requirements.some((id) => scopeIds.has(id)))
    .map((m): MutantOutcome => {
      const trials = input.trials.filter((t) => t.mutant === m.id && t.outcome !== 'skipped');
      const kill = trials.find((t) => t.outcome === 'killed' && passedClean.has(t.checkId));
      const base = { id: m.id, description: m.description, requirements: m.requirements, depth: m.depth, tried: trials.length };
      if (kill) return { ...base, verdict: 'killed', killedBy: { check: kill.checkId, message: (kill.message ?? '').split('\n')[0]!.slice(0, 300) } };
      const checked = m.requirements.filter((id) => checksOf.has(id));
      const why =
        checked.length === 0
          ? `no check names ${m.requirements.join(' or ')}`
          : trials.length === 0
            ? `no check naming ${checked.join(' or ')} was tried`
            : trials.some((t) => t.outcome === 'killed')
              ? 'the only checks that failed under it fail against the clean reference too'
              : trials.every((t) => t.outcome === 'not-run')
                ? 'every check naming its requirements reported itself not-run'
                : `${trials.filter((t) => t.outcome === 'survived').length} check(s) naming ${checked.join(' or ')} passed with it switched on`;
      return { ...base, verdict: 'survived', why };
    });

  const untestable = new Map(input.untestable.map((u) => [u.id, u.reason]));
  const requirements = scope.map((record): RequirementSelfTest => {
    const checks = checksOf.get(record.id) ?? [];
    const naming = outcomes.filter((o) => o.requirements.includes(record.id));
    const killed = naming.filter((o) => o.verdict === 'killed').length;
    const survivors = naming.filter((o) => o.verdict === 'survived');
    const counts = { id: record.id, section: record.section, checks: checks.length, mutants: naming.length, killed };
    const reason = untestable.get(record.id);
    // Marked untestable: so it stays while no check of it runs (a check that only ever reports not-run observes nothing).
    if (reason !== undefined && checks.every((c) => c.verdict === 'not-run')) return { ...counts, verdict: 'untestable', note: reason };
    if (checks.length === 0) return { ...counts, verdict: 'no-check' };
    if (checks.some((c) => c.verdict === 'fail' || c.verdict === 'error')) return { ...counts, verdict: 'failing' };
    if (survivors.length) return { ...counts, verdict: 'survivor', note: survivors.map((s) => s.id).join(' ') };
    if (naming.length === 0) return { ...counts, verdict: 'no-mutant' };
    return { ...counts, verdict: naming.some((o) => o.depth === 'deep') ? 'guarded' : 'answer-only' };
  });

  const variantOutcomes = judgeVariants(input);

  const requirementCounts = { guarded: 0, 'answer-only': 0, survivor: 0, 'no-mutant': 0, failing: 0, 'no-check': 0, untestable: 0, total: requirements.length };
  for (const r of requirements) requirementCounts[r.verdict]++;
  const killed = outcomes.filter((o) => o.verdict === 'killed').length;
  const survivors = outcomes.filter((o) => o.verdict === 'survived');
  const cleanFailures = input.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
  const problems = [
    ...cleanFailures.map((r) => `the clean reference fails ${r.id}`),
    ...survivors.map((s) => `mutant ${s.id} survived: ${s.why}`),
    ...requirements.filter((r) => r.verdict === 'no-check').map((r) => `${r.id} has no check and is not marked untestable`),
    ...(outcomes.length === 0 ? ['the selection tries no mutant'] : []),
    ...variantOutcomes
      .filter((v) => v.verdict === 'false-fail')
      .map(
        (v) =>
          `variant ${v.id} (${v.description}) is conformant, yet ${v.failures.map((f) => f.check).join(', ')} failed it: ${v.failures[0]!.message.split('\n')[0]!.slice(0, 200)}`,
      ),
    ...variantOutcomes.filter((v) => v.verdict === 'untried').map((v) => `variant ${v.id} was tried by no check: it proves nothing`),
  ];
  const deep = outcomes.filter((o) => o.depth === 'deep');
  return {
    passed: problems.length === 0,
    problems,
    mutants: {
      total: outcomes.length,
      killed,
      survived: survivors.length,
      score: outcomes.length ? killed / outcomes.length : 0,
      deep: { total: deep.length, killed: deep.filter((o) => o.verdict === 'killed').length },
    },
    variants: {
      total: variantOutcomes.length,
      conformant: variantOutcomes.filter((v) => v.verdict === 'conformant').length,
      falseFails: variantOutcomes.filter((v) => v.verdict === 'false-fail').length,
    },
    variantOutcomes,
    requirementCounts,
    wallTimeMs: input.wallTimeMs,
    outcomes,
    requirements,
  };
}

/**
 * Each variant tried by the checks of the run: it must pass every one of them. A whole run must try every variant; a
 * selection judges those its checks ran against (a variant whose checks there all report not-run is outside it).
 */
function judgeVariants(input: SelfTestInput): VariantOutcome[] {
  const tried = new Set(input.variantTrials.filter((t) => t.outcome !== 'not-run').map((t) => t.variant));
  return input.variants
    .filter((v) => tried.has(v.id) || input.selection.length === 0)
    .map((v): VariantOutcome => {
      const trials = input.variantTrials.filter((t) => t.variant === v.id && t.outcome !== 'not-run');
      const failures = trials.filter((t) => t.outcome === 'failed').map((t) => ({ check: t.check.id, message: t.message ?? '' }));
      const verdict: VariantVerdict = trials.length === 0 ? 'untried' : failures.length ? 'false-fail' : 'conformant';
      return { id: v.id, description: v.description, readings: v.readings, verdict, tried: trials.length, failures };
    });
}
