import type { CheckResult } from './results.js';

/**
 * What would let a not-run check run, for the headline and the reports' "what to enable next": an option of `run`,
 * a larger cap, a browser, the in-process run, or the target offering what the check reads. Each need is named once
 * here, with the words its reasons use: the checks' reasons (CAPABILITY_REASONS in src/harness/target.ts, the suites'
 * own reason constants) name the option that enables them, and the first need whose words a reason carries is it.
 */
export interface NotRunNeed {
  readonly id: string;
  /** How a headline says it after a count: "35 need --agent-url". */
  readonly words: string;
  /** What enables it, for the "what to enable next" block. */
  readonly enable: string;
  readonly marks: RegExp;
  /** How `list` names it among a check's needs, when its words do not start "need ". */
  readonly label?: string;
}

/** In order: a reason naming two options belongs to the first need it names (a cap before the spending it caps). */
const NOT_RUN_NEEDS = [
  {
    id: 'interrupted',
    words: 'stopped by the interruption',
    enable: 'let the run finish (no signal, a longer --deadline)',
    marks: /the run stopped before this check/,
  },
  { id: 'skip', words: 'left out by --skip', enable: 'drop them from --skip', marks: /skipped by --skip/ },
  // Client mode's reasons (src/harness/client/results.ts), before the options: they quote case ids and how a client ended.
  {
    id: 'client-case',
    words: 'need a client case the selection left out',
    enable: '--only the cases each reason names (or no --only)',
    marks: /^no selected case judges it; the cases that do/,
  },
  {
    id: 'client-reached',
    words: "were not reached by the client's requests",
    enable: 'a client that goes on to the requests they judge (each reason names its cases and how the client ended)',
    marks: /^no request the client sent in the \d+ case\(s\) that judge it reached it/,
  },
  {
    id: 'client-no-case',
    words: 'have no client case yet',
    enable: 'nothing a run can add: no case of the catalogue judges them',
    marks: /^no selected case judges it; no case judges it yet/,
  },
  {
    id: 'spend-cap',
    words: 'need a higher --spend-cap',
    enable: 'raise --spend-cap (minor units for the whole run)',
    marks: /pass the run's --spend-cap/,
  },
  { id: 'allow-spend', words: 'need --allow-spend', enable: '--allow-spend --spend-cap N (test tokens spt_test_*)', marks: /^needs spend:|--allow-spend/ },
  {
    id: 'agent-url',
    words: 'need --agent-url',
    enable: '--agent-url URL (an agent the platform hosts)',
    marks: /needs --agent-url|(?:run|one) with --agent-url/,
  },
  { id: 'base-url', words: 'need --base-url', enable: '--base-url URL beside --agent-url', marks: /add --base-url/ },
  { id: 'also-base-url', words: 'need --also-base-url', enable: '--also-base-url URL (a second instance)', marks: /--also-base-url/ },
  {
    id: 'widget-host-url',
    words: 'need --widget-host-url',
    enable: "--widget-host-url URL (the deployment's widget host page)",
    marks: /--widget-host-url|widget host page/,
  },
  { id: 'chromium', words: 'need Chromium', enable: '--chromium PATH (a Chromium or Chrome the run may launch)', marks: /Chromium|--chromium/ },
  {
    id: 'control-url',
    words: 'need --control-url',
    enable: "--control-url URL (the deployment's test control)",
    marks: /--control-url(?![^;]*only the embedded reference)/,
  },
  { id: 'allow-waits', words: 'need --allow-waits', enable: '--allow-waits (wait in real time)', marks: /--allow-waits/ },
  { id: 'owner-key', words: 'need --owner-key', enable: "--owner-key KEY (the operator's platform key)", marks: /--owner-key/ },
  { id: 'agent-client', words: 'need --agent-client', enable: '--agent-client ID:SECRET (a client the agent knows)', marks: /--agent-client/ },
  {
    id: 'client-address-header',
    words: 'need --client-address-header',
    enable: '--client-address-header NAME (a deployment that honours it)',
    marks: /--client-address-header/,
  },
  {
    id: 'in-process',
    words: 'need the in-process run',
    enable: 'a run without --base-url and --agent-url (only the embedded reference can be configured so)',
    marks: /embedded reference|in-process only|run in-process|without --base-url|without --agent-url/,
  },
  {
    id: 'target',
    words: 'found nothing of the target to check',
    enable: 'nothing: the target does not offer what they read (see each reason)',
    label: 'the target (or its fixture host) offering what it reads',
    marks: /^the target |serves no |does not declare|names no |^needs /,
  },
] as const satisfies readonly NotRunNeed[];

/** Every need's id, the words a not-run result's `needs` and a check's declared needs use. */
export type NotRunNeedId = (typeof NOT_RUN_NEEDS)[number]['id'];

/**
 * What a check may declare it needs to run live (suites/needs.json, suites/checks.json, `list`): any need but those
 * only a run's course gives (its interruption, its --skip).
 */
export type DeclaredNeed = Exclude<NotRunNeedId, 'interrupted' | 'skip'>;
const RUN_COURSE: ReadonlySet<string> = new Set(['interrupted', 'skip']);
export const DECLARABLE_NEEDS: readonly DeclaredNeed[] = NOT_RUN_NEEDS.map((n) => n.id).filter((id): id is DeclaredNeed => !RUN_COURSE.has(id));

/** How `list` names a need: "--agent-url", "a higher --spend-cap", "the in-process run". */
export function needLabel(id: string): string {
  const need = (NOT_RUN_NEEDS as readonly NotRunNeed[]).find((n) => n.id === id);
  if (!need) throw new Error(`"${id}" is not a need (src/harness/not-run-needs.ts)`);
  return need.label ?? need.words.replace(/^need /, '');
}

const OTHER: NotRunNeed = { id: 'other', words: 'for other reasons', enable: 'see each reason', marks: /$^/ };

/** The need a not-run reason names. */
export function notRunNeed(message: string | undefined): NotRunNeed {
  const text = message ?? '';
  return (NOT_RUN_NEEDS as readonly NotRunNeed[]).find((n) => n.marks.test(text)) ?? OTHER;
}

export interface NotRunGroup {
  readonly need: NotRunNeed;
  readonly checks: number;
}

/** The run's not-run checks grouped by what would run them, largest group first. */
export function notRunGroups(results: readonly Pick<CheckResult, 'verdict' | 'message'>[]): NotRunGroup[] {
  const counts = new Map<NotRunNeed, number>();
  for (const r of results) if (r.verdict === 'not-run') counts.set(notRunNeed(r.message), (counts.get(notRunNeed(r.message)) ?? 0) + 1);
  return [...counts].map(([need, checks]) => ({ need, checks })).sort((a, b) => b.checks - a.checks);
}

/** "235 of 409 checked; 174 not run: 35 need --agent-url, 25 need --widget-host-url, ..." */
export function judgedWords(report: {
  readonly counts: { readonly total: number; readonly 'not-run': number };
  readonly results: readonly CheckResult[];
}): string {
  const c = report.counts;
  const checked = `${c.total - c['not-run']} of ${c.total} checked`;
  if (c['not-run'] === 0) return checked;
  const groups = notRunGroups(report.results).map((g) => `${g.checks} ${g.need.words}`);
  return `${checked}; ${c['not-run']} not run: ${groups.join(', ')}`;
}
