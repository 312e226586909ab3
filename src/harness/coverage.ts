import { AUTH_ERROR_LIST } from '../spec/auth-errors.js';
import { BRIDGE_ERROR_LIST } from '../spec/bridge-errors.js';
import { ENDPOINT_ERROR_LIST } from '../spec/endpoint-errors.js';
import { LIMIT_LIST } from '../spec/limits.js';
import { PURCHASE_ERROR_LIST } from '../spec/purchase-errors.js';
import { REQUIREMENT_LIST } from '../spec/requirements.js';
import { CLIENT_REQUIREMENT_LIST } from '../spec/client-requirements.js';
import { WIDGET_PROBLEM_LIST } from '../spec/widgets.js';
import type { Level, RequirementRecord } from '../spec/types.js';
import type { CheckResult, Verdict } from './results.js';

/**
 * covered: every check naming the requirement passed; failing: one failed, warned or errored; not-run: none
 * failed but one did not run; no-check: no check of the run names it.
 */
export type CoverageStatus = 'covered' | 'failing' | 'not-run' | 'no-check';

/** The widget bundle rules (2.5, 4.5) but CODE_TOO_LARGE, a 7.1 code listed with the others. */
export const WIDGET_BUNDLE_RULES: readonly RequirementRecord[] = WIDGET_PROBLEM_LIST.filter((r) => !BRIDGE_ERROR_LIST.some((b) => b.id === r.id));

/** Every requirement of the catalogue, section by section: the rules, the widget bundle rules (2.5), 7.1, 7.2, 7.3, 7.4, 8. */
export const CATALOGUE: readonly RequirementRecord[] = Object.freeze([
  ...REQUIREMENT_LIST,
  ...WIDGET_BUNDLE_RULES,
  ...BRIDGE_ERROR_LIST,
  ...ENDPOINT_ERROR_LIST,
  ...AUTH_ERROR_LIST,
  ...PURCHASE_ERROR_LIST,
  ...LIMIT_LIST,
]);

/** The agent's own rules (src/spec/client-requirements.ts): what a client run judges (`run --client-command`); server runs never name them. */
const CLIENT_CATALOGUE: readonly RequirementRecord[] = CLIENT_REQUIREMENT_LIST;

/** The catalogue a report's coverage is read against: the client rules for a client run, the platform's otherwise. */
export function catalogueFor(report: { readonly target: { readonly kind: string } }): readonly RequirementRecord[] {
  return report.target.kind === 'client' ? CLIENT_CATALOGUE : CATALOGUE;
}

/** A check of the run that names a requirement. */
export interface CoveringCheck {
  /** Its position in the report's results, so a page can link to it. */
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly suite: string;
  readonly verdict: Verdict;
}

export interface RequirementCoverage {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly condition: string;
  readonly status: CoverageStatus;
  readonly checks: readonly CoveringCheck[];
  readonly verdicts: Readonly<Record<Verdict, number>>;
}

/** An id a check names that the catalogue does not hold: a typo, or a requirement the catalogue lacks. */
interface UncataloguedRequirement {
  readonly id: string;
  readonly status: Exclude<CoverageStatus, 'no-check'>;
  readonly checks: readonly CoveringCheck[];
  readonly verdicts: Readonly<Record<Verdict, number>>;
}

type CoverageCounts = Readonly<Record<CoverageStatus, number>> & { readonly total: number };

interface SectionCoverage {
  readonly section: string;
  readonly counts: CoverageCounts;
}

export interface Coverage {
  /** One entry per catalogue requirement, in catalogue order. */
  readonly requirements: readonly RequirementCoverage[];
  readonly counts: CoverageCounts;
  /** The same counts per catalogue section, in catalogue order. */
  readonly sections: readonly SectionCoverage[];
  readonly uncatalogued: readonly UncataloguedRequirement[];
  /** Checks that name no requirement at all. */
  readonly untagged: readonly CoveringCheck[];
}

const emptyVerdicts = (): Record<Verdict, number> => ({ pass: 0, fail: 0, warn: 0, 'not-run': 0, error: 0 });

/** The coverage status of a requirement whose checks gave these verdicts. */
export function coverageStatus(verdicts: readonly Verdict[]): CoverageStatus {
  if (verdicts.length === 0) return 'no-check';
  if (verdicts.some((v) => v === 'fail' || v === 'warn' || v === 'error')) return 'failing';
  if (verdicts.some((v) => v === 'not-run')) return 'not-run';
  return 'covered';
}

function countStatuses(statuses: readonly CoverageStatus[]): CoverageCounts {
  const counts = { covered: 0, failing: 0, 'not-run': 0, 'no-check': 0, total: statuses.length };
  for (const s of statuses) counts[s]++;
  return counts;
}

function tally(checks: readonly CoveringCheck[]): Record<Verdict, number> {
  const verdicts = emptyVerdicts();
  for (const c of checks) verdicts[c.verdict]++;
  return verdicts;
}

/** Requirement coverage of a run: for every catalogue requirement, the checks that name it and their verdicts. */
export function requirementCoverage(results: readonly CheckResult[], catalogue: readonly RequirementRecord[] = CATALOGUE): Coverage {
  const byId = new Map<string, CoveringCheck[]>();
  const untagged: CoveringCheck[] = [];
  results.forEach((r, index) => {
    const check: CoveringCheck = { index, id: r.id, name: r.name, suite: r.suite, verdict: r.verdict };
    if (r.requirements.length === 0) untagged.push(check);
    for (const id of new Set(r.requirements)) (byId.get(id) ?? byId.set(id, []).get(id)!).push(check);
  });

  const known = new Set(catalogue.map((r) => r.id));
  const requirements = catalogue.map((record): RequirementCoverage => {
    const checks = byId.get(record.id) ?? [];
    return {
      id: record.id,
      section: record.section,
      level: record.level,
      condition: record.condition,
      status: coverageStatus(checks.map((c) => c.verdict)),
      checks,
      verdicts: tally(checks),
    };
  });
  const uncatalogued = [...byId]
    .filter(([id]) => !known.has(id))
    .map(
      ([id, checks]): UncataloguedRequirement => ({
        id,
        status: coverageStatus(checks.map((c) => c.verdict)) as UncataloguedRequirement['status'],
        checks,
        verdicts: tally(checks),
      }),
    );
  const sectionNames = bySectionNumber([...new Set(catalogue.map((r) => r.section))]);
  return {
    requirements,
    counts: countStatuses(requirements.map((r) => r.status)),
    sections: sectionNames.map((section) => ({ section, counts: countStatuses(requirements.filter((r) => r.section === section).map((r) => r.status)) })),
    uncatalogued,
    untagged,
  };
}

const sectionMaps = new WeakMap<readonly RequirementRecord[], ReadonlyMap<string, string>>();
const SUITE_SECTION = /(?:^|\/)(\d+(?:\.\d+)*)-[^/]*$/;

/**
 * The spec sections a check belongs to: the catalogue sections of the requirements it names, or, when it
 * names none the catalogue holds, the section its suite file is named after (`7.3-signed-requests.test.ts`).
 */
/** Spec sections in document order: 2.4 before 5.2 before 7.1 before 8. */
function bySectionNumber(sections: readonly string[]): string[] {
  const key = (s: string) => s.split('.').map(Number);
  return [...sections].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
    return 0;
  });
}

export function sectionsOfCheck(result: Pick<CheckResult, 'requirements' | 'suite'>, catalogue: readonly RequirementRecord[] = CATALOGUE): string[] {
  let sectionOf = sectionMaps.get(catalogue);
  if (!sectionOf) sectionMaps.set(catalogue, (sectionOf = new Map(catalogue.map((r) => [r.id, r.section]))));
  const sections = [...new Set(result.requirements.map((id) => sectionOf.get(id)).filter((s): s is string => s !== undefined))];
  if (sections.length) return sections;
  const fromSuite = SUITE_SECTION.exec(result.suite)?.[1];
  return fromSuite ? [fromSuite] : [];
}
