import { describe, expect, it } from 'vitest';
import type { MutantTrial } from '../../src/harness/reporter.js';
import type { CheckResult } from '../../src/harness/results.js';
import { judgeSelfTest, type SelfTestInput } from '../../src/harness/self-test.js';
import type { RequirementRecord } from '../../src/spec/types.js';

const record = (id: string, section = '7.3'): RequirementRecord => ({ id, section, level: 'MUST', condition: id });
const result = (id: string, requirements: string[], verdict: CheckResult['verdict'] = 'pass'): CheckResult => ({
  id,
  name: id,
  suite: 's',
  requirements,
  level: 'MUST',
  verdict,
  durationMs: 1,
});
const trial = (mutant: string, checkId: string, outcome: MutantTrial['outcome'], requirements: string[]): MutantTrial => ({
  mutant,
  check: { id: checkId, requirements, level: 'MUST' },
  checkId,
  outcome,
  requirements,
  level: 'MUST',
  durationMs: 1,
});

function input(over: Partial<SelfTestInput>): SelfTestInput {
  return {
    results: [result('c1', ['A-ONE']), result('c2', ['A-TWO'])],
    trials: [trial('m1', 'c1', 'killed', ['A-ONE'])],
    mutants: [{ id: 'm1', description: 'breaks one', requirements: ['A-ONE'], depth: 'deep' as const }],
    variants: [],
    variantTrials: [],
    catalogue: [record('A-ONE'), record('A-TWO')],
    untestable: [],
    selection: [],
    wallTimeMs: 10,
    ...over,
  };
}

describe('judgeSelfTest', () => {
  it('passes when every mutant is caught and every requirement is checked', () => {
    const summary = judgeSelfTest(input({}));
    expect(summary.problems).toEqual([]);
    expect(summary.passed).toBe(true);
    expect(summary.mutants).toEqual({ total: 1, killed: 1, survived: 0, score: 1, deep: { total: 1, killed: 1 } });
    expect(summary.requirements.map((r) => [r.id, r.verdict])).toEqual([
      ['A-ONE', 'guarded'],
      ['A-TWO', 'no-mutant'],
    ]);
  });

  it('fails on a survivor and says which checks passed with it on', () => {
    const summary = judgeSelfTest(
      input({
        mutants: [
          { id: 'm1', description: 'x', requirements: ['A-ONE'], depth: 'deep' as const },
          { id: 'm2', description: 'y', requirements: ['A-TWO'], depth: 'deep' as const },
        ],
        trials: [trial('m1', 'c1', 'killed', ['A-ONE']), trial('m2', 'c2', 'survived', ['A-TWO'])],
      }),
    );
    expect(summary.passed).toBe(false);
    expect(summary.problems).toEqual(['mutant m2 survived: 1 check(s) naming A-TWO passed with it switched on']);
    expect(summary.mutants.score).toBe(0.5);
    expect(summary.requirements.find((r) => r.id === 'A-TWO')?.verdict).toBe('survivor');
  });

  it('does not count a kill by a check that fails against the clean reference', () => {
    const summary = judgeSelfTest(input({ results: [result('c1', ['A-ONE'], 'fail'), result('c2', ['A-TWO'])] }));
    expect(summary.passed).toBe(false);
    expect(summary.outcomes[0]?.verdict).toBe('survived');
    expect(summary.problems[0]).toBe('the clean reference fails c1');
  });

  it('fails on a requirement without a check unless it is marked untestable', () => {
    const catalogue = [record('A-ONE'), record('A-TWO'), record('A-THREE')];
    expect(judgeSelfTest(input({ catalogue })).problems).toEqual(['A-THREE has no check and is not marked untestable']);
    const marked = judgeSelfTest(input({ catalogue, untestable: [{ id: 'A-THREE', reason: 'nothing on the wire shows it' }] }));
    expect(marked.passed).toBe(true);
    expect(marked.requirements.find((r) => r.id === 'A-THREE')).toMatchObject({ verdict: 'untestable', note: 'nothing on the wire shows it' });
  });

  it('a mutant nothing checks survives with the reason', () => {
    const summary = judgeSelfTest(
      input({
        mutants: [{ id: 'm9', description: 'z', requirements: ['A-NINE'], depth: 'deep' as const }],
        catalogue: [record('A-ONE'), record('A-TWO'), record('A-NINE')],
        untestable: [{ id: 'A-NINE', reason: 'not observable by any request' }],
      }),
    );
    expect(summary.outcomes).toEqual([expect.objectContaining({ id: 'm9', verdict: 'survived', why: 'no check names A-NINE' })]);
  });

  it('judges only the selected sections', () => {
    const summary = judgeSelfTest(input({ catalogue: [record('A-ONE'), record('A-TWO'), record('B-ONE', '7.4')], selection: ['7.3'] }));
    expect(summary.requirementCounts.total).toBe(2);
    expect(summary.passed).toBe(true);
  });

  it('a requirement whose mutants only rewrite answers is answer-only, not guarded', () => {
    const summary = judgeSelfTest(
      input({ mutants: [{ id: 'm1', description: 'renames the code in the answer', requirements: ['A-ONE'], depth: 'answer' as const }] }),
    );
    expect(summary.requirements.find((r) => r.id === 'A-ONE')?.verdict).toBe('answer-only');
    expect(summary.mutants.deep).toEqual({ total: 0, killed: 0 });
    expect(summary.passed).toBe(true);
  });

  it('a conformant variant that a check fails is a false fail, and fails the self-test', () => {
    const variant = { id: 'v1', description: 'another order', readings: ['checkOrder'], requirements: ['A-ONE'] };
    const variantTrial = (check: string, outcome: 'passed' | 'failed' | 'not-run', message?: string) => ({
      variant: 'v1',
      check: { id: check, requirements: ['A-ONE'], level: 'MUST' as const },
      outcome,
      ...(message ? { message } : {}),
    });
    const passed = judgeSelfTest(input({ variants: [variant], variantTrials: [variantTrial('c1', 'passed')] }));
    expect(passed.variantOutcomes).toEqual([expect.objectContaining({ id: 'v1', verdict: 'conformant', tried: 1 })]);
    expect(passed.passed).toBe(true);
    const failed = judgeSelfTest(input({ variants: [variant], variantTrials: [variantTrial('c1', 'failed', 'expected error_code a, got b')] }));
    expect(failed.variants).toEqual({ total: 1, conformant: 0, falseFails: 1 });
    expect(failed.problems).toEqual(['variant v1 (another order) is conformant, yet c1 failed it: expected error_code a, got b']);
    const untried = judgeSelfTest(input({ variants: [variant], variantTrials: [variantTrial('c1', 'not-run')] }));
    expect(untried.problems).toEqual(['variant v1 was tried by no check: it proves nothing']);
    // A selection judges the variants its checks ran against: one whose checks there all reported not-run is outside it.
    const outside = judgeSelfTest(input({ variants: [variant], variantTrials: [variantTrial('c1', 'not-run')], selection: ['7.3'] }));
    expect(outside.variantOutcomes).toEqual([]);
    expect(outside.problems).toEqual([]);
  });
});
