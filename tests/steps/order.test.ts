import { describe, expect, it } from 'vitest';
import { type InOrder, orderProblem, type Step } from '../../src/steps/order.js';

/** The order check both cores' tables share (the verifier's checks, the purchase machine's guards). */
const step = <N extends string, G extends string>(name: string, needs: readonly N[], gives: readonly G[]) => ({ name, needs, gives }) as const;
const PARSE = step('parse', [], ['labels']);
const KEYS = step('keys', ['labels'], ['keys']);
const VERIFY = step('verify', ['labels', 'keys'], []);

describe('an order of steps', () => {
  it('runs when each step finds what it needs given before it, and what reads the result finds its facts', () => {
    expect(orderProblem([PARSE, KEYS, VERIFY], 'check', { name: 'the acceptance', needs: ['labels'] })).toBeNull();
    expect(orderProblem([], 'guard')).toBeNull();
  });

  it('names the first step whose needs no earlier step gives, a fact given twice, and what the reader misses', () => {
    expect(orderProblem([KEYS, PARSE], 'check')).toBe('the check keys needs labels, which no check before it gives');
    expect(orderProblem([PARSE, VERIFY], 'guard')).toBe('the guard verify needs keys, which no guard before it gives');
    expect(orderProblem([PARSE, PARSE], 'guard')).toBe('the guards parse and parse both give labels');
    expect(orderProblem([PARSE], 'check', { name: 'the acceptance', needs: ['labels', 'keys', 'registered'] })).toBe(
      'no check gives keys, registered, which the acceptance reports',
    );
  });

  it('is proven by the compiler for a table written as a tuple', () => {
    const proven: InOrder<readonly [typeof PARSE, typeof KEYS, typeof VERIFY], 'keys'> = true;
    // @ts-expect-error keys needs the labels parse gives
    const misplaced: InOrder<readonly [typeof KEYS, typeof PARSE]> = true;
    // @ts-expect-error no step gives registered
    const neverGiven: InOrder<readonly [typeof PARSE, typeof KEYS], 'registered'> = true;
    const steps: readonly Step[] = [PARSE, KEYS, VERIFY];
    expect([proven, misplaced, neverGiven, steps.length]).toEqual([true, true, true, 3]);
  });
});
