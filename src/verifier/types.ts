import type { Check } from './order.js';
import type { KeySetJudgeOptions } from './key-set.js';
import type { JSONWebKeySet } from 'jose';
import type { AuthErrorCode } from '../spec/auth-errors.js';
import type { ServiceNaming } from '../spec/naming.js';

/** A request as the platform received it. */
export interface VerifierRequest {
  readonly method: string;
  /** Absolute URL as the platform sees it (scheme, Host, path and query). */
  readonly url: string;
  /** Header fields in the order received; names in any case; repeated names allowed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Body bytes; null or empty for none. */
  readonly body: Uint8Array | null;
  /** Network address of the client. */
  readonly clientAddress: string;
  /** True when a platform route read the body before verification (7.3 request_body_consumed). */
  readonly bodyConsumed?: boolean;
}

export interface PlatformTokenConfig {
  /** The platform's key set for its bearer tokens. */
  readonly keys: JSONWebKeySet;
  readonly issuer?: string;
  readonly audience?: string;
  /** The scope a token needs to act as an agent (5.3 "agent-use scope"). */
  readonly agentScope: string;
}

export interface VerifierConfig {
  /** The platform's own host (lower case, default port dropped), e.g. "platform.example". */
  readonly authority: string;
  /** Operator platform keys accepted in X-Service-Owner-Key for key continuity. */
  readonly ownerKeys?: readonly string[];
  /** Agent URLs (exact) this platform refuses with credential_refused. */
  readonly blockedAgents?: readonly string[];
  readonly platformToken?: PlatformTokenConfig;
  /** Accept plain-http agent URLs (local fixtures only; never on by default). */
  readonly allowInsecureAgentUrls?: boolean;
  /**
   * The order of checks (src/verifier/order.ts). The spec gives none (READING-CHECK-ORDER); another order is a
   * conformant deployment, as the self-test's variants show. Default SIGNED_REQUEST_CHECKS.
   */
  readonly checks?: readonly Check[];
  /**
   * What a covered whole Signature-Agent field (`"signature-agent"` without key) counts for (READING-AGENT-FIELD-COVERED-WHOLE):
   * `field` (default) a plain header field, beside the member the label must cover; `member` also the member keyed by
   * the label, when the field holds one; `item` one signature-agent item, so beside the member it is covered twice.
   */
  readonly agentFieldCovered?: 'field' | 'member' | 'item';
  /**
   * How key sets are judged where the readings leave a choice (READING-KEY-SET-UNUSABLE-ENTRY, READING-KEY-SET-RSA):
   * by default an entry no verifier can use is passed over and 16 counts the usable Ed25519 keys.
   */
  readonly keySets?: KeySetJudgeOptions;
  /** How long a card refusal is remembered, in seconds: "about 10 minutes" (READING-CARD-MEMORY). Default 600. */
  readonly cardRefusalMemorySeconds?: number;
  /** The deployment's own names for Service (X-Service-Owner-Key, realm=service; src/spec/naming.ts); the spec's neutral ones by default. */
  readonly naming?: ServiceNaming;
}

export interface Refusal {
  readonly ok: false;
  readonly status: 401;
  readonly code: AuthErrorCode;
  readonly description: string;
  /** Lower-case header names: www-authenticate, content-type, and accept-signature where 7.3 asks. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly error: string; readonly error_code: AuthErrorCode; readonly error_description: string };
  /** The agent URL when the request got far enough to name one. */
  readonly agentUrl: string | null;
}

export interface SignatureAcceptance {
  readonly ok: true;
  readonly kind: 'signature';
  readonly agentUrl: string;
  /** The key set (or card, or directory) URL the Signature-Agent member names. */
  readonly identifier: string;
  readonly labels: readonly string[];
  readonly thumbprints: readonly string[];
  /** Header fields (lower case) a verified signature covers as plain fields: the ones a paid surface may trust (7.4). */
  readonly coveredFields: readonly string[];
  /** True when this request registered the agent (first sight). */
  readonly registered: boolean;
}

export interface BearerAcceptance {
  readonly ok: true;
  readonly kind: 'platform-token';
  readonly subject: string | null;
  readonly scopes: readonly string[];
}

export type Verdict = Refusal | SignatureAcceptance | BearerAcceptance;
