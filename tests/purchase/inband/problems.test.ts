import { describe as group, expect, it } from 'vitest';
import { at, checkType, describe, describeProblems, frameObject, Problems } from '../../../src/purchase/wire/inband/problems.js';
import { INBAND_FRAME_TYPES } from '../../../src/spec/inband.js';

/** The judge's problem helpers (src/purchase/wire/inband/problems.ts), held by these tests. */

group('at: a JSON pointer (RFC 6901) below a base', () => {
  it('appends each member as an escaped reference token', () => {
    expect(at('/requirements', 'schemes', 0, 'a~b/c')).toBe('/requirements/schemes/0/a~0b~1c');
    expect(at('', 'type')).toBe('/type');
    expect(at('/x')).toBe('/x');
    expect(at('')).toBe('');
  });
});

group('Problems', () => {
  it('is ok while nothing was added', () => {
    expect(new Problems().result()).toEqual({ ok: true });
  });

  it('lists what was added, in order, frozen apart from the list', () => {
    const problems = new Problems();
    problems.add('/a', 'first');
    problems.add('', 'second');
    const result = problems.result();
    expect(result).toEqual({
      ok: false,
      problems: [
        { pointer: '/a', message: 'first' },
        { pointer: '', message: 'second' },
      ],
    });
    problems.add('/b', 'later');
    expect(result.ok === false && result.problems).toHaveLength(2);
    expect(Object.isFrozen(result.ok === false && result.problems)).toBe(true);
  });
});

group('describe: a value in words', () => {
  it.each([
    [undefined, 'missing'],
    [null, 'null'],
    [[1], 'an array'],
    [{}, 'an object'],
    ['ab', 'the string "ab"'],
    [3, 'number 3'],
    [false, 'boolean false'],
  ])('%j is %s', (value, words) => {
    expect(describe(value)).toBe(words);
  });

  it('cuts a string longer than 80 characters to 77 and an ellipsis', () => {
    expect(describe('x'.repeat(80))).toBe(`the string "${'x'.repeat(80)}"`);
    expect(describe(`${'y'.repeat(77)}zzzz`)).toBe(`the string "${'y'.repeat(77)}..."`);
  });
});

group('checkType and frameObject', () => {
  it('accepts a frame of an expected type', () => {
    const problems = new Problems();
    expect(checkType({ type: INBAND_FRAME_TYPES.responseDone }, [INBAND_FRAME_TYPES.paymentAccepted, INBAND_FRAME_TYPES.responseDone], problems)).toBe(true);
    expect(frameObject({}, problems)).toBe(true);
    expect(problems.result()).toEqual({ ok: true });
  });

  it('names the expected types and what the frame holds', () => {
    const problems = new Problems();
    expect(checkType({ type: INBAND_FRAME_TYPES.paymentRequired }, [INBAND_FRAME_TYPES.paymentAccepted, INBAND_FRAME_TYPES.responseDone], problems)).toBe(
      false,
    );
    expect(checkType({ type: 7 }, [INBAND_FRAME_TYPES.responseDone], problems)).toBe(false);
    expect(checkType({}, [INBAND_FRAME_TYPES.responseDone], problems)).toBe(false);
    expect(frameObject([], problems)).toBe(false);
    expect(describeProblems(problems.result())).toEqual([
      '/type: must be "payment.accepted" or "response.done", is the string "payment.required"',
      '/type: must be "response.done", is number 7',
      '/type: must be "response.done", is missing',
      '(frame): a frame must be a JSON object, is an array',
    ]);
  });

  it('a string type is compared whole, not as a substring', () => {
    expect(checkType({ type: 'response' }, [INBAND_FRAME_TYPES.responseDone], new Problems())).toBe(false);
  });
});

group('describeProblems', () => {
  it('is empty for a check that passed', () => {
    expect(describeProblems({ ok: true })).toEqual([]);
  });

  it('writes one line per problem, the whole frame as (frame)', () => {
    expect(
      describeProblems({
        ok: false,
        problems: [
          { pointer: '', message: 'm1' },
          { pointer: '/p', message: 'm2' },
        ],
      }),
    ).toEqual(['(frame): m1', '/p: m2']);
  });
});
