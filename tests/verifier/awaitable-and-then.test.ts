import { describe, expect, it } from 'vitest';
import { andThen, isPromiseLike } from '../../src/verifier/awaitable.js';

/** A thenable that is not a promise: what a port backed by another promise library might answer. */
function thenable<T>(value: T): PromiseLike<T> {
  // biome-ignore lint/suspicious/noThenProperty: a thenable is exactly what is tested here
  return { then: (resolve) => Promise.resolve(resolve?.(value)) } as PromiseLike<T>;
}

/** Ports answer synchronously or with a promise; andThen awaits only what is really a promise (or thenable). */
describe('isPromiseLike', () => {
  it.each([
    ['a promise', Promise.resolve(1), true],
    ['a thenable', thenable(1), true],
    ['a number', 1, false],
    ['null', null, false],
    ['undefined', undefined, false],
    // biome-ignore lint/suspicious/noThenProperty: an object whose then is no function is not a thenable
    ['an object whose then is no function', { then: 'later' }, false],
  ] as ReadonlyArray<readonly [string, unknown, boolean]>)('%s', (_name, value, expected) => {
    expect(isPromiseLike(value)).toBe(expected);
  });
});

describe('andThen', () => {
  it('calls next at once with a value that is already there, and returns its answer as it is', () => {
    const seen: number[] = [];
    const answer = andThen(2, (v) => {
      seen.push(v);
      return v * 3;
    });
    expect(answer).toBe(6);
    expect(seen).toStrictEqual([2]);
  });

  it('awaits a promise before calling next', async () => {
    const answer = andThen(Promise.resolve(2), (v) => v * 3);
    expect(isPromiseLike(answer)).toBe(true);
    expect(await answer).toBe(6);
  });

  it('awaits a thenable before calling next', async () => {
    const seen: unknown[] = [];
    const answer = andThen(thenable(4), (v) => {
      seen.push(v);
      return v + 1;
    });
    expect(await answer).toBe(5);
    expect(seen).toStrictEqual([4]);
  });

  it('awaits what next answers when it answers a promise', async () => {
    expect(await andThen(Promise.resolve(2), (v) => Promise.resolve(v + 10))).toBe(12);
  });
});
