import type { CheckResult } from './results.js';

/**
 * What would run the checks a run left not run, grouped: the headline and the reports' "what to enable next". Every
 * not-run reason the suites give names what runs the check (an option, a higher cap, the in-process run) in a fixed
 * phrase of the capability catalogue (src/harness/target.ts) or the suites' libraries; a group is that phrase.
 */
export interface NotRunGroup {
  /** What would run them, in a few words: `--agent-url`, `the in-process run`, ... */
  readonly enable: string;
  readonly count: number;
  /** One of the reasons, whole, for the reader who wants the detail. */
  readonly example: string;
}

/** The option a reason asks for first, when it asks for one in words that mean "give this option". */
const ASKS_FOR_OPTION = /(?:^needs |^give |^the run names no |\brun with |\bname one with |\bwith )(--[a-z][a-z-]*)/;
/** Reasons that no option can answer: the check runs against the embedded reference only. */
const IN_PROCESS_ONLY = /\brun in-process\b|in-process only|only the embedded reference|tells it in-process|in-process the embedded reference/;

/** The group of one not-run reason. */
export function enablerOf(reason: string): string {
  if (reason.startsWith('skipped by --skip')) return 'leaving out --skip';
  if (reason.startsWith('needs a higher --spend-cap')) return 'a higher --spend-cap';
  if (/^needs spend\b/.test(reason)) return '--allow-spend --spend-cap N';
  if (/^needs https fixtures/.test(reason)) return 'https fixtures (--fixture-url https://...)';
  const first = ASKS_FOR_OPTION.exec(reason)?.[1];
  // A reason that first asks for an option names what runs the check, even when it also mentions the in-process run.
  if (first !== undefined && reason.indexOf(first) < (IN_PROCESS_ONLY.exec(reason)?.index ?? Number.POSITIVE_INFINITY)) return first;
  if (IN_PROCESS_ONLY.test(reason)) return 'the in-process run (no option runs them live)';
  if (/nothing a run can add/.test(reason)) return 'nothing a run can add';
  if (/chromium|browser/i.test(reason)) return 'a Chromium browser (--chromium PATH)';
  return 'other reasons (see each check)';
}

/** The not-run checks of `results` by what would run them, largest group first. */
export function notRunGroups(results: readonly CheckResult[]): NotRunGroup[] {
  const groups = new Map<string, { count: number; example: string }>();
  for (const r of results) {
    if (r.verdict !== 'not-run') continue;
    const reason = r.message ?? '';
    const enable = enablerOf(reason);
    const group = groups.get(enable);
    if (group) group.count += 1;
    else groups.set(enable, { count: 1, example: reason });
  }
  return [...groups].map(([enable, g]) => ({ enable, ...g })).sort((a, b) => b.count - a.count || a.enable.localeCompare(b.enable));
}

/** "44 need the in-process run, 38 need --agent-url, 1 needs --owner-key" (empty when every check ran). */
export function notRunWords(results: readonly CheckResult[]): string {
  return notRunGroups(results)
    .map((g) => `${g.count} ${g.count === 1 ? 'needs' : 'need'} ${g.enable}`)
    .join(', ');
}
