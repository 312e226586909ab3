import { describe, expect, it } from 'vitest';
import { progressLines } from '../../src/cli/run.js';
import type { CheckResult } from '../../src/harness/results.js';

const result = (id: string): CheckResult => ({ id, name: id, suite: 's.test.ts', requirements: [], level: 'MUST', verdict: 'pass', durationMs: 1 });

function sink(inPlace: boolean) {
  let text = '';
  let clock = 0;
  const progress = progressLines(
    {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    } as never,
    inPlace,
    () => clock,
  );
  return { progress, text: () => text, advance: (ms: number) => (clock += ms) };
}

describe('run progress', () => {
  it('says first how many checks are selected', () => {
    const s = sink(false);
    s.progress.selected?.(40);
    s.progress.stop();
    expect(s.text()).toBe('40 checks selected\n');
  });

  it('says one check in the singular', () => {
    const s = sink(false);
    s.progress.selected?.(1);
    s.progress.stop();
    expect(s.text()).toBe('1 check selected\n');
  });

  it('writes a CI log at most one line per 15 s between suites, with an estimate', () => {
    const s = sink(false);
    s.progress.selected?.(40);
    const done: CheckResult[] = [];
    for (let i = 0; i < 20; i++) {
      s.advance(1000);
      done.push(result(`c${i}`));
      s.progress.check?.('s.test.ts', done.at(-1)!, done);
    }
    s.progress.stop();
    // 20 checks in 20 s: one line at the 15th second, none per check.
    expect(s.text().split('\n').filter(Boolean)).toEqual(['40 checks selected', '  ... 15 of 40 checks done in 15 s; about 25 s left']);
  });

  it('rewrites one line per check on a terminal', () => {
    const s = sink(true);
    s.progress.selected?.(2);
    s.progress.check?.('s.test.ts', result('a'), [result('a')]);
    s.progress.stop();
    expect(s.text()).toBe('2 checks selected\n\r[1/2] s.test.ts: 1 passed\u001b[K');
  });
});
