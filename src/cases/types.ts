import type { JSONWebKeySet } from 'jose';
import type { AuthErrorCode } from '../spec/auth-errors.js';

/**
 * A signed-request case (docs/contracts.md section 2): the input of `verify` and the unit of
 * `vectors/signed-requests.json`. Member names are the JSON's, so a parsed case is used as is.
 * The JSON Schema is vectors/schema/signed-request-case.schema.json.
 */
export interface SignedRequestCase {
  readonly id: string;
  readonly description: string;
  readonly platform: CasePlatform;
  /** Seconds since the epoch; the time of every step without its own `at`. */
  readonly now: number;
  /** What the agent's host serves, by absolute URL; a URL not listed refuses the connection. */
  readonly documents: CaseDocuments;
  /** Prior registrations by agent URL. */
  readonly registrations?: Readonly<Record<string, CaseRegistration>>;
  /**
   * What host names of the documents resolve to (lower-case names to IP addresses, the first one connected to);
   * a name not listed resolves to a public address. For the fetch rules' public-address rule by name.
   */
  readonly dns?: Readonly<Record<string, readonly string[]>>;
  /** Run in order against one verifier state. */
  readonly steps: readonly CaseStep[];
}

export interface CasePlatform {
  /** The platform's own host, e.g. "platform.example". */
  readonly authority: string;
  readonly owner_keys?: readonly string[];
  readonly blocked_agents?: readonly string[];
  /** Bearer-token cases (5.3): the platform's token key set, the iss it requires, the agent-use scope, revoked jti values. */
  readonly token_keys?: JSONWebKeySet;
  readonly token_issuer?: string;
  readonly agent_scope?: string;
  readonly revoked_token_ids?: readonly string[];
}

export type CaseDocuments = Readonly<Record<string, CaseDocument>>;

/** One served document. `body` is text; `body_base64` carries bytes instead (never both). */
export interface CaseDocument {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly body_base64?: string;
  readonly delay_ms?: number;
}

export interface CaseRegistration {
  /** RFC 7638 thumbprints the registration holds. */
  readonly thumbprints: readonly string[];
}

export interface CaseStep {
  /** Defaults to the case's `now`. */
  readonly at?: number;
  /** Defaults to 192.0.2.1. */
  readonly client_address?: string;
  /** Replaces these documents from this step on. */
  readonly documents?: CaseDocuments;
  readonly request: CaseRequest;
  readonly expect?: CaseExpect;
}

/** The body is `body` (text), `body_base64` or `body_fill`, at most one of them; none means no body. */
export interface CaseRequest {
  readonly method: string;
  readonly url: string;
  /** [name, value] pairs in the order sent; repeated names allowed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
  readonly body_base64?: string;
  /** A large body written small: `length` bytes, each of value `byte` (instead of body or body_base64). */
  readonly body_fill?: { readonly length: number; readonly byte: number };
  /** A platform route read the body before verification (7.3 request_body_consumed). */
  readonly body_consumed?: boolean;
}

/** Only the members present are compared with the verdict. */
export interface CaseExpect {
  readonly ok?: boolean;
  readonly status?: number;
  readonly error_code?: AuthErrorCode | null;
  readonly agent_url?: string | null;
  /**
   * Other outcomes the spec allows for this step (error codes; null for acceptance), where it leaves a point
   * open: `error_code` is the reference's choice, and any of these conforms too. `reading` names the reading.
   */
  readonly also_allowed?: readonly (AuthErrorCode | null)[];
  readonly reading?: string;
}

/** A case as it sits in a vectors file: Wycheproof-style flags (described in the file's `notes`) and a comment. */
export interface VectorCase extends SignedRequestCase {
  readonly flags: readonly string[];
  readonly comment?: string;
}

export interface VectorTestGroup {
  readonly comment: string;
  readonly cases: readonly VectorCase[];
}

/** The layout of vectors/signed-requests.json (schema: vectors/schema/signed-requests.schema.json). */
export interface SignedRequestVectors {
  readonly algorithm?: string;
  readonly schema: string;
  readonly generatorVersion: string;
  readonly numberOfTests: number;
  readonly notes: Readonly<Record<string, string>>;
  readonly testGroups: readonly VectorTestGroup[];
}
