import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import type { BridgeErrorCode } from '../../spec/bridge-errors.js';
import type { BridgeHostInfo } from '../../widgets/bridge/operations.js';
import type { BridgeStep } from '../../widgets/bridge/retry-policy.js';

export interface RetryScenario {
  readonly id: string;
  readonly comment: string;
  readonly code: string;
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  readonly retryAfterSeconds?: number;
  readonly step: BridgeStep;
  readonly flags: readonly string[];
}

export interface DispatchScenario {
  readonly id: string;
  readonly comment: string;
  readonly host: BridgeHostInfo;
  readonly operation: string;
  /** null: the host dispatches it; otherwise the bridge code. */
  readonly error: string | null;
  readonly flags: readonly string[];
}

type Row = readonly [id: string, code: string, attempt: number, retryAfterSeconds: number | undefined, step: BridgeStep, comment: string];

// The default policy options: backoff 500 ms doubling up to 8 s, about 5 attempts in all (section 8).
/** A code of the 7.1 catalogue, checked against it at compile time. */
const c = (code: BridgeErrorCode): string => BRIDGE_ERRORS[code].code;
const surface = (code: string): BridgeStep => ({ action: 'surface', code });
const retry = (delayMs: number): BridgeStep => ({ action: 'retry', delayMs });

const ROWS: readonly Row[] = [
  ['timeout-first', c('timeout'), 1, undefined, retry(0), 'retry once at once'],
  ['timeout-persists', c('timeout'), 2, undefined, surface(c('timeout')), 'if it persists, surface'],
  ['internal-first', c('internal'), 1, undefined, retry(0), 'retry at most once'],
  ['internal-second', c('internal'), 2, undefined, surface(c('internal')), 'never a second retry'],
  ['rate-limited-retry-after', c('rate_limited'), 1, 3, retry(3000), 'wait the Retry-After window'],
  ['rate-limited-fraction', c('rate_limited'), 2, 0.5, retry(500), 'fractional seconds are kept'],
  ['rate-limited-no-window', c('rate_limited'), 1, undefined, surface(c('rate_limited')), 'no Retry-After: surface'],
  ['rate-limited-bounded', c('rate_limited'), 5, 1, surface(c('rate_limited')), 'bounded like service_unavailable: about 5 attempts'],
  ['unavailable-1', c('service_unavailable'), 1, undefined, retry(500), 'exponential backoff'],
  ['unavailable-2', c('service_unavailable'), 2, undefined, retry(1000), 'doubles'],
  ['unavailable-3', c('service_unavailable'), 3, undefined, retry(2000), 'doubles'],
  ['unavailable-4', c('service_unavailable'), 4, undefined, retry(4000), 'the last retry'],
  ['unavailable-5', c('service_unavailable'), 5, undefined, surface(c('service_unavailable')), 'about 5 attempts in all, then surface'],
  ['unavailable-retry-after-wins', c('service_unavailable'), 1, 2, retry(2000), 'a longer Retry-After wins over the backoff'],
  ['no-session', c('no_session'), 1, undefined, { action: 'offer-sign-in', code: c('no_session') }, 'surface and offer sign-in'],
  ['cap-exceeded', c('cap_exceeded'), 1, undefined, { action: 'surface', code: c('cap_exceeded'), hint: 'release-slot' }, 'surface; release a slot'],
  [c('permission'), c('permission'), 1, undefined, surface(c('permission')), 'surface'],
  ['not-found', c('not_found'), 1, undefined, surface(c('not_found')), 'surface'],
  ['quota', c('quota_exceeded'), 1, undefined, surface(c('quota_exceeded')), 'surface'],
  ['invalid-args', c('invalid_args'), 1, undefined, surface(c('invalid_args')), 'surface'],
  ['unknown-op', c('unknown_op'), 1, undefined, surface(c('unknown_op')), 'surface'],
  ['scope-unavailable', c('scope_unavailable'), 1, undefined, surface(c('scope_unavailable')), 'surface'],
  [c('expired'), c('expired'), 1, undefined, surface(c('expired')), 'surface'],
  ['unsupported-kind', c('unsupported_kind'), 1, undefined, surface(c('unsupported_kind')), 'surface'],
  ['unsupported-transport', c('unsupported_transport'), 1, undefined, surface(c('unsupported_transport')), 'surface'],
  ['code-too-large', c('CODE_TOO_LARGE'), 1, undefined, surface(c('CODE_TOO_LARGE')), 'host.fn: surface'],
  ['fn-not-found', c('FN_NOT_FOUND'), 1, undefined, surface(c('FN_NOT_FOUND')), 'host.fn: surface'],
  ['unknown-code', 'teapot', 1, 5, surface('teapot'), 'a code outside 7.1 is surfaced, never retried'],
];

export const RETRY_SCENARIOS: readonly RetryScenario[] = ROWS.map(([id, code, attempt, retryAfterSeconds, step, comment]) => ({
  id,
  comment,
  code,
  attempt,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  step,
  flags: [step.action === 'retry' ? 'Retry' : 'Surface'],
}));

// An illustrative operation table: the spec names the operations (4.6) but not the version of each.
const OPERATIONS = {
  'bridge.callTool': { since: 1 },
  'bridge.openLink': { since: 1 },
  'host.kv': { since: 1, serverMediated: true },
  'host.fn': { since: 1, serverMediated: true },
  'host.live': { since: 2, serverMediated: true },
  'host.collab': { since: 2, serverMediated: true },
} as const;

export const DISPATCH_SCENARIOS: readonly DispatchScenario[] = [
  {
    id: 'v1-op-on-v1-host',
    comment: 'a v1 operation on a v1 host runs',
    host: { version: 1, operations: OPERATIONS },
    operation: 'host.kv',
    error: null,
    flags: ['Valid'],
  },
  {
    id: 'v2-op-on-v1-host',
    comment: 'a v1 app calling a v2 operation on an old host gets unknown_op',
    host: { version: 1, operations: OPERATIONS },
    operation: 'host.live',
    error: c('unknown_op'),
    flags: ['UnknownOp'],
  },
  {
    id: 'v2-op-on-v2-host',
    comment: 'the same operation on a v2 host runs',
    host: { version: 2, operations: OPERATIONS },
    operation: 'host.live',
    error: null,
    flags: ['Valid'],
  },
  {
    id: 'unknown-name',
    comment: 'a name no host knows',
    host: { version: 2, operations: OPERATIONS },
    operation: 'host.teleport',
    error: c('unknown_op'),
    flags: ['UnknownOp'],
  },
  {
    id: 'prototype-name',
    comment: 'an inherited property name is no operation',
    host: { version: 2, operations: OPERATIONS },
    operation: 'constructor',
    error: c('unknown_op'),
    flags: ['UnknownOp'],
  },
  {
    id: 'detached-server-op',
    comment: 'a server-mediated operation in detached mode',
    host: { version: 2, operations: OPERATIONS, detached: true },
    operation: 'host.fn',
    error: c('unknown_op'),
    flags: ['UnknownOp'],
  },
  {
    id: 'detached-local-op',
    comment: 'an operation the iframe host serves alone still runs detached',
    host: { version: 2, operations: OPERATIONS, detached: true },
    operation: 'bridge.openLink',
    error: null,
    flags: ['Valid'],
  },
];
