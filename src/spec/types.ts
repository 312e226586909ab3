/** Requirement level as the spec states it: a MUST failure fails a run, a SHOULD failure warns. */
export type Level = 'MUST' | 'SHOULD';

/** Every record of the catalogue carries a stable id (never a position), its section and level. */
export interface RequirementRecord {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  /** The condition or rule, in the spec's words or close to them. */
  readonly condition: string;
}

/** A row of 7.3: a refused signed request or platform bearer. */
export interface AuthErrorRecord extends RequirementRecord {
  readonly section: '7.3';
  readonly status: 401;
  readonly code: string;
  /** Whether the 401 carries Accept-Signature naming the expected covered components. */
  readonly acceptSignature: boolean;
  /** Whether 7.3 says the answer carries no Retry-After (too_many_failed_signatures); for the others it is silent. */
  readonly noRetryAfter: boolean;
}

/** A row of 7.2: an answer of an agent-declared endpoint. */
export interface EndpointErrorRecord extends RequirementRecord {
  readonly section: '7.2';
  /** null where the spec gives no status (RESPONSE_SIZE_CAP_EXCEEDED). */
  readonly status: number | null;
  /** null where the spec gives no code (405, 415, or the answer of another mechanism). */
  readonly code: string | null;
}

export type BridgeHandling =
  | { readonly kind: 'surface'; readonly offer?: 'sign-in' | 'release-slot' }
  | { readonly kind: 'retry-once-then-surface' }
  | { readonly kind: 'retry-after-window' }
  | { readonly kind: 'retry-at-most-once' }
  | { readonly kind: 'exponential-backoff'; readonly attemptsLimitId: string };

/** A row of 7.1, or one of the host.fn codes named beside it. */
export interface BridgeErrorRecord extends RequirementRecord {
  readonly section: '7.1';
  readonly code: string;
  readonly handling: BridgeHandling;
}

export interface RetryObjectRule {
  /** retry.sameCredential as 7.4 lists it. */
  readonly sameCredential: boolean;
}

/** A row of 7.4, keyed by its code or problem type. */
export interface PurchaseErrorRecord extends RequirementRecord {
  readonly section: '7.4';
  readonly status: 400 | 401 | 402 | 403 | 409 | 429 | 502 | 503;
  /** The error code, or for problem types the slug under the problems base. */
  readonly code: string;
  /** problem: an RFC 9457 type under {problems_url} or {payment_problems_url}; code: a stable error code in the body. */
  readonly kind: 'problem' | 'code';
  readonly problemBase?: 'problems' | 'payment-problems';
  /** Whether the answer carries a fresh Payment challenge. */
  readonly challenge: boolean;
  /** Retry semantics; present on every 503 and on the 409s (sameCredential false). */
  readonly retry?: RetryObjectRule;
  /** Whether the spec tells the client to wait for Retry-After. */
  readonly retryAfter: boolean;
}

export interface LimitRecord extends RequirementRecord {
  readonly section: '8';
  /** The section 8 row the number is read from. */
  readonly row: string;
  /** What the number measures. */
  readonly name: string;
  readonly value: number;
  readonly unit: 'bytes' | 'seconds' | 'milliseconds' | 'count' | 'characters' | 'attempts';
  readonly appliesTo: string;
}
