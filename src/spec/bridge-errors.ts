import { requirementId } from './ids.js';
import type { BridgeErrorRecord, BridgeHandling } from './types.js';

type Row = [code: string, condition: string, handling: BridgeHandling];
const surface: BridgeHandling = { kind: 'surface' };

// Section 7.1, in the spec's order; CODE_TOO_LARGE and FN_NOT_FOUND are named under the table.
const rows = [
  ['permission', 'Authorization denied (risk-tier check for host.shell or host.python; access check for live URL resolve and resource grants)', surface],
  ['not_found', 'A referenced key, app, function or liveId does not exist', surface],
  ['quota_exceeded', 'A KV size or count cap was hit', surface],
  ['invalid_args', 'Envelope or per-operation argument validation failed (includes reserved content scopes)', surface],
  ['timeout', 'A handler exceeded its time budget', { kind: 'retry-once-then-surface' }],
  ['rate_limited', 'Too many calls in a short window', { kind: 'retry-after-window' }],
  ['internal', 'A handler threw', { kind: 'retry-at-most-once' }],
  [
    'unknown_op',
    'No handler for the operation name (for example a v1 app calling a v2 operation on an old host, or a server-mediated operation in detached mode)',
    surface,
  ],
  ['no_session', 'No session at all, so nothing can own the write; distinct from permission', { kind: 'surface', offer: 'sign-in' }],
  ['scope_unavailable', "The requested store does not exist for this content (today: host.kv shared scope on an app's own catalog row)", surface],
  ['cap_exceeded', '(host.live) concurrent live-attach cap hit', { kind: 'surface', offer: 'release-slot' }],
  ['expired', '(host.live) live URL or session no longer valid', surface],
  [
    'service_unavailable',
    '(host.live, host.collab) cache store or collaboration server unavailable; fails closed in degraded mode',
    { kind: 'exponential-backoff', attemptsLimitId: 'LIMIT-SERVICE-UNAVAILABLE-RETRIES' },
  ],
  ['unsupported_kind', '(host.live) liveId kind has no registered dispatcher prefix', surface],
  ['unsupported_transport', '(host.live) attach requested a transport (relay or webrtc) the producer cannot serve', surface],
] as const satisfies readonly Row[];

const fnRows = [
  ['CODE_TOO_LARGE', 'host.fn: function source over 64 KB at publish', surface],
  ['FN_NOT_FOUND', 'host.fn: the function was not published (for example after CODE_TOO_LARGE) at call time', surface],
] as const satisfies readonly Row[];

export type BridgeErrorCode = (typeof rows)[number][0] | (typeof fnRows)[number][0];

const toRecord = ([code, condition, handling]: Row): BridgeErrorRecord =>
  Object.freeze({ id: requirementId('BRIDGE', code), section: '7.1', level: 'MUST', code, condition, handling });

/** The rows of the 7.1 table, in order. */
export const BRIDGE_TABLE_LIST: readonly BridgeErrorRecord[] = Object.freeze(rows.map((r) => toRecord(r as Row)));
/** Every bridge code: the 7.1 table plus the host.fn codes. */
export const BRIDGE_ERROR_LIST: readonly BridgeErrorRecord[] = Object.freeze([...BRIDGE_TABLE_LIST, ...fnRows.map((r) => toRecord(r as Row))]);
export const BRIDGE_ERRORS = Object.freeze(Object.fromEntries(BRIDGE_ERROR_LIST.map((r) => [r.code, r]))) as {
  readonly [C in BridgeErrorCode]: BridgeErrorRecord & { readonly code: C };
};
