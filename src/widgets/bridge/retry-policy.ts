import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import type { BridgeErrorCode } from '../../spec/bridge-errors.js';
import { LIMITS } from '../../spec/limits.js';

/** What a widget SDK does after a bridge call failed. */
export type BridgeStep =
  | { readonly action: 'retry'; readonly delayMs: number }
  | { readonly action: 'surface'; readonly code: string; readonly hint?: 'release-slot' }
  | { readonly action: 'offer-sign-in'; readonly code: string };

export interface RetryPolicyOptions {
  /** First service_unavailable backoff delay; doubles per attempt. The spec gives no number; default 500 ms. */
  readonly backoffBaseMs?: number;
  /** Ceiling of one backoff delay; default 8000 ms. */
  readonly backoffMaxMs?: number;
  /**
   * Attempts in all (the first call included) for service_unavailable, and also for rate_limited, for
   * which the spec sets no bound; default section 8's "about 5 attempts".
   */
  readonly maxAttempts?: number;
}

const DEFAULTS = { backoffBaseMs: 500, backoffMaxMs: 8000, maxAttempts: LIMITS.serviceUnavailableRetries.value } as const;

/**
 * The handling column of 7.1 as a pure retry policy. `attempt` is the number (from 1) of the attempt
 * that just failed; `retryAfterSeconds` the Retry-After the error carried, if any.
 * - timeout: retry once at once; if it persists, surface.   - internal: retry at most once.
 * - rate_limited: retry after the Retry-After window when there is one; without it, surface.
 * - service_unavailable: exponential backoff up to about 5 attempts (a longer Retry-After wins).
 * - no_session: surface and offer sign-in.   - cap_exceeded: surface with the hint to release a slot.
 * - every other code, known or not: surface.
 */
export function nextStep(error: string | { readonly code: string }, attempt: number, retryAfterSeconds?: number, options: RetryPolicyOptions = {}): BridgeStep {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number from 1, not ${attempt}`);
  const code = typeof error === 'string' ? error : error.code;
  const { backoffBaseMs, backoffMaxMs, maxAttempts } = { ...DEFAULTS, ...options };
  const record = Object.hasOwn(BRIDGE_ERRORS, code) ? BRIDGE_ERRORS[code as BridgeErrorCode] : undefined;
  const handling = record?.handling ?? { kind: 'surface' as const };
  const retryAfterMs = validSeconds(retryAfterSeconds) ? retryAfterSeconds * 1000 : undefined;
  const surface: BridgeStep = { action: 'surface', code };
  switch (handling.kind) {
    case 'retry-once-then-surface':
    case 'retry-at-most-once':
      return attempt === 1 ? { action: 'retry', delayMs: 0 } : surface;
    case 'retry-after-window':
      return retryAfterMs !== undefined && attempt < maxAttempts ? { action: 'retry', delayMs: retryAfterMs } : surface;
    case 'exponential-backoff': {
      if (attempt >= maxAttempts) return surface;
      const backoff = Math.min(backoffBaseMs * 2 ** (attempt - 1), backoffMaxMs);
      return { action: 'retry', delayMs: Math.max(backoff, retryAfterMs ?? 0) };
    }
    case 'surface':
      if (handling.offer === 'sign-in') return { action: 'offer-sign-in', code };
      return handling.offer === 'release-slot' ? { action: 'surface', code, hint: 'release-slot' } : surface;
  }
}

function validSeconds(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
