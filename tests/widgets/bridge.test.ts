import { describe, expect, test } from 'vitest';
import { BRIDGE_ERROR_LIST, BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { LIMITS } from '../../src/spec/limits.js';
import { BridgeError, bridgeErrorFrom, callWithRetry, checkDispatch, nextStep } from '../../src/widgets/bridge/index.js';

const E = BRIDGE_ERRORS;

describe('nextStep follows the handling column of 7.1', () => {
  test('every code whose handling is surface is surfaced on the first failure', () => {
    for (const r of BRIDGE_ERROR_LIST.filter((r) => r.handling.kind === 'surface')) {
      const step = nextStep(r.code, 1, 10);
      expect(step.action, r.code).not.toBe('retry');
      expect('code' in step && step.code).toBe(r.code);
    }
  });

  test('service_unavailable retries up to the limit of section 8, with growing delays', () => {
    const max = LIMITS.serviceUnavailableRetries.value;
    const delays: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const step = nextStep(E.service_unavailable.code, attempt);
      if (step.action !== 'retry') {
        expect(attempt).toBe(max);
        break;
      }
      delays.push(step.delayMs);
    }
    expect(delays).toHaveLength(max - 1);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
    expect(nextStep(E.service_unavailable.code, 10, undefined, { backoffBaseMs: 1000, backoffMaxMs: 3000, maxAttempts: 20 })).toEqual({
      action: 'retry',
      delayMs: 3000,
    });
  });

  test('a bad Retry-After is as good as none', () => {
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) expect(nextStep(E.rate_limited.code, 1, bad).action).toBe('surface');
  });

  test('attempts count from 1', () => {
    expect(() => nextStep(E.timeout.code, 0)).toThrow(RangeError);
  });
});

describe('callWithRetry', () => {
  test('retries a timeout once with the injected sleep, then rethrows the same error', async () => {
    const slept: number[] = [];
    let calls = 0;
    const error = new BridgeError(E.timeout.code);
    await expect(
      callWithRetry(
        async () => {
          calls++;
          throw error;
        },
        { sleep: async (ms) => void slept.push(ms) },
      ),
    ).rejects.toBe(error);
    expect(calls).toBe(2);
    expect(slept).toEqual([0]);
  });

  test('waits the Retry-After of rate_limited, then returns the answer', async () => {
    const slept: number[] = [];
    let calls = 0;
    const answer = await callWithRetry(
      async () => {
        if (++calls === 1) throw bridgeErrorFrom({ code: E.rate_limited.code, message: 'slow down', retryAfter: 2 });
        return 'ok';
      },
      { sleep: async (ms) => void slept.push(ms) },
    );
    expect(answer).toBe('ok');
    expect(slept).toEqual([2000]);
  });

  test('offers sign-in on no_session and rethrows; a non-bridge error is not retried', async () => {
    const offered: string[] = [];
    const ports = { sleep: async () => {}, offerSignIn: (e: BridgeError) => void offered.push(e.code) };
    await expect(callWithRetry(async () => Promise.reject(new BridgeError(E.no_session.code)), ports)).rejects.toMatchObject({ code: E.no_session.code });
    expect(offered).toEqual([E.no_session.code]);
    let calls = 0;
    await expect(callWithRetry(async () => Promise.reject(new TypeError(`call ${++calls}`)), ports)).rejects.toThrow('call 1');
  });

  test('an envelope without a code is internal', () => {
    expect(bridgeErrorFrom(null)).toMatchObject({ code: E.internal.code });
    expect(bridgeErrorFrom({ code: E.permission.code, message: 'no' })).toMatchObject({ code: E.permission.code, message: 'no' });
  });
});

describe('checkDispatch: the unknown_op rule of sections 7.1 and 9', () => {
  const operations = { 'host.kv': { since: 1, serverMediated: true }, 'host.live': { since: 2 } };
  test('an operation newer than the host has no handler there', () => {
    expect(checkDispatch('host.live', { version: 1, operations })).toEqual({
      ok: false,
      code: E.unknown_op.code,
      message: '"host.live" is a bridge v2 operation; this host implements v1',
    });
    expect(checkDispatch('host.live', { version: 2, operations })).toEqual({ ok: true });
    expect(checkDispatch('host.kv', { version: 2, operations, detached: true })).toMatchObject({ ok: false, code: E.unknown_op.code });
    expect(checkDispatch('toString', { version: 2, operations })).toMatchObject({ ok: false, code: E.unknown_op.code });
  });
});
