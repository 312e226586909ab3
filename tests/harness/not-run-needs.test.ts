import { describe, expect, it } from 'vitest';
import { CAPABILITY_REASONS } from '../../src/harness/target.js';
import { judgedWords, notRunNeed } from '../../src/harness/not-run-needs.js';
import type { CheckResult } from '../../src/harness/results.js';

const r = (verdict: CheckResult['verdict'], message?: string): CheckResult => ({
  id: 'x',
  name: 'x',
  suite: 's',
  requirements: [],
  level: 'MUST',
  verdict,
  durationMs: 0,
  ...(message === undefined ? {} : { message }),
});

describe('what would run a not-run check', () => {
  it('names the option, the cap or the in-process run a reason names', () => {
    expect(notRunNeed('needs --agent-url URL: this live run checks a platform').id).toBe('agent-url');
    expect(notRunNeed('needs to know an agent the server hosts: name one with --agent-url on the platform origin').id).toBe('agent-url');
    expect(notRunNeed('this check needs a run without --agent-url').id).toBe('in-process');
    expect(notRunNeed("paying 500 would pass the run's --spend-cap").id).toBe('spend-cap');
    expect(notRunNeed(CAPABILITY_REASONS.spend).id).toBe('allow-spend');
    expect(notRunNeed(CAPABILITY_REASONS['stablecoin-network']).id).toBe('in-process');
    expect(notRunNeed(CAPABILITY_REASONS['clock-control']).id).toBe('allow-waits');
    expect(notRunNeed('skipped by --skip').id).toBe('skip');
    expect(notRunNeed('not run: the run stopped before this check (SIGINT)').id).toBe('interrupted');
    expect(notRunNeed('something new').id).toBe('other');
  });

  it("groups client mode's reasons (src/harness/client/results.ts) by what would judge the rule", () => {
    expect(notRunNeed('no selected case judges it; the cases that do: signed-post, pack-charge-processing').id).toBe('client-case');
    expect(notRunNeed('no selected case judges it; no case judges it yet').id).toBe('client-no-case');
    const stopped =
      'no request the client sent in the 2 case(s) that judge it reached it (READING-CLIENT-STOPS): signed-get (0 request(s), the client exited with code 0), allow-spend-cap (1 request(s), the client timed out after --allow-spend)';
    expect(notRunNeed(stopped).id).toBe('client-reached');
    const results = [r('not-run', stopped), r('not-run', 'no selected case judges it; the cases that do: signed-post'), r('not-run', stopped)];
    expect(judgedWords({ counts: { total: 3, 'not-run': 3 }, results })).toBe(
      "0 of 3 checked; 3 not run: 2 were not reached by the client's requests, 1 need a client case the selection left out",
    );
  });

  it('heads the verdict with how much was judged, largest need first', () => {
    const results = [r('pass'), r('fail'), r('not-run', 'needs --agent-url URL'), r('not-run', 'needs --agent-url URL'), r('not-run', 'needs Chromium')];
    expect(judgedWords({ counts: { total: 5, 'not-run': 3 }, results })).toBe('2 of 5 checked; 3 not run: 2 need --agent-url, 1 need Chromium');
    expect(judgedWords({ counts: { total: 1, 'not-run': 0 }, results: [r('pass')] })).toBe('1 of 1 checked');
  });
});
