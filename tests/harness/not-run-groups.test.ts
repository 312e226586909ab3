import { describe, expect, test } from 'vitest';
import { enablerOf, notRunGroups, notRunWords } from '../../src/harness/not-run-groups.js';
import { CAPABILITY_REASONS } from '../../src/harness/target.js';
import type { CheckResult } from '../../src/harness/results.js';

/** Reasons the suites give live (a run against serve), each with what would run its check. */
const REASONS: ReadonlyArray<readonly [string, string]> = [
  ['needs --agent-url URL: this live run checks a platform; the agent suites check an agent only when one is named', '--agent-url'],
  ["needs --widget-host-url URL: the deployment's widget host page, {postId} where the published widget goes", '--widget-host-url'],
  ['the run names no --control-url', '--control-url'],
  ['give --also-base-url: these checks need a second instance of the deployment at --base-url', '--also-base-url'],
  ["needs the operator's platform key: run with --owner-key KEY, the value the deployment accepts", '--owner-key'],
  ['needs to know an agent the server hosts: name one with --agent-url on the platform origin', '--agent-url'],
  ['needs --allow-waits: the agent registers with a key its case no longer carries', '--allow-waits'],
  ["needs a higher --spend-cap: paying 500 would pass the run's --spend-cap 5000 (4800 spent so far)", 'a higher --spend-cap'],
  ['needs https fixtures: the deployment reaches the fixture host over plain http (--allow-insecure-fixtures)', 'https fixtures (--fixture-url https://...)'],
  [
    "no public surface lists an agent's custom tools; checked in-process only (READING-WIDGET-PUBLISH-OBSERVED)",
    'the in-process run (no option runs them live)',
  ],
  ['what a delegated call did is not shown on the wire; the embedded reference tells it in-process', 'the in-process run (no option runs them live)'],
  ['needs payment-faults and platform-config: in-process the embedded reference sells a pack of two', 'the in-process run (no option runs them live)'],
  ['no presentation of 18 arrived while its call ran; nothing a run can add makes a call last longer', 'nothing a run can add'],
  ['skipped by --skip 4.6', 'leaving out --skip'],
];

const notRun = (message: string): CheckResult => ({ verdict: 'not-run', message }) as CheckResult;

describe('what would run the checks a run left not run', () => {
  for (const [reason, enable] of REASONS) test(`${enable} <- ${reason.slice(0, 60)}`, () => expect(enablerOf(reason)).toBe(enable));

  test('every capability of the catalogue names what runs its checks', () => {
    expect(enablerOf(CAPABILITY_REASONS['payment-faults'])).toBe('the in-process run (no option runs them live)');
    expect(enablerOf(CAPABILITY_REASONS['clock-control'])).toBe('--allow-waits');
    expect(enablerOf(CAPABILITY_REASONS['client-address'])).toBe('--client-address-header');
    expect(enablerOf(CAPABILITY_REASONS.spend)).toBe('--allow-spend --spend-cap N');
    for (const [capability, reason] of Object.entries(CAPABILITY_REASONS)) expect(enablerOf(reason), capability).not.toBe('other reasons (see each check)');
  });

  test('groups by what runs them, largest first, and words the headline', () => {
    const results = [
      notRun(REASONS[0]![0]),
      notRun(REASONS[5]![0]),
      notRun(REASONS[2]![0]),
      { verdict: 'pass' } as CheckResult,
      { verdict: 'fail', message: 'the run names no --control-url' } as CheckResult,
    ];
    expect(notRunGroups(results).map((g) => [g.enable, g.count])).toEqual([
      ['--agent-url', 2],
      ['--control-url', 1],
    ]);
    expect(notRunWords(results)).toBe('2 need --agent-url, 1 needs --control-url');
    expect(notRunWords([{ verdict: 'pass' } as CheckResult])).toBe('');
  });
});
