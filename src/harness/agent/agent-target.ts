import type { TargetResponse } from '../target.js';
import type { CallerRole } from '../../contract/callers.js';
import type { SdkIssuerName, SdkTokenRequest } from './callers.js';
import type { SdkJwtAlgorithm } from '../../spec/sdk-auth.js';

/**
 * Agents configured otherwise than the reference (4.3, 5.1, 5.4): in Portal mode, with no auth skill and no access
 * block, and a server with no signing identity.
 */
export type AgentVariant = 'portal' | 'no-verifier' | 'no-identity';

/** A client of the agent's token endpoint (4.3 POST /auth/token) the run knows, and the @name it asks a token for. */
export interface TokenClient {
  readonly id: string;
  readonly secret: string;
  /** An agent name with a leading @. */
  readonly target: string;
  /** The URL of the agent `target` names (the aud of the tokens issued for it), when the run knows it; null otherwise. */
  readonly targetUrl: string | null;
}

/** A request to the agent; `path` is relative to the agent URL (query included), or an absolute URL on its origin. */
export interface AgentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  /** Bytes, or a stream sent without Content-Length (chunked), as a large body is sent. */
  readonly body?: Uint8Array | ReadableStream<Uint8Array> | null;
}

/** How an upgrade went: refused before the handshake with an HTTP answer, or opened (then closed at once). */
export type UpgradeOutcome = { readonly opened: true } | { readonly opened: false; readonly response: TargetResponse };

/** An agent of its own for one check, whose clock and issuers' published key sets the check moves and changes. */
export interface ControlledAgent {
  readonly target: AgentTarget;
  /** Moves the agent's clock, and the clock its tokens are minted by, forward. */
  advance(seconds: number): void;
  /** Takes the issuer's key out of the key set it publishes (a revoked key). */
  revokeKey(issuer: SdkIssuerName): void;
}

/**
 * The agent a suite checks (docs/architecture.md): the reference agent in-process, or any agent at a base URL.
 * Checks that need what a target lacks (callers the agent verifies) are reported not-run.
 */
export interface AgentTarget {
  readonly kind: 'in-process' | 'live';
  readonly description: string;
  /** The agent URL, no trailing slash. */
  readonly agentUrl: string;
  send(request: AgentRequest): Promise<TargetResponse>;
  /** A WebSocket upgrade to `path` (relative to the agent URL, query included). */
  upgrade(path: string, headers?: ReadonlyArray<readonly [string, string]>): Promise<UpgradeOutcome>;
  /**
   * A Bearer token of this caller, signed with its key of `algorithm` (EdDSA by default; RS256 for its RSA key, 5.5); null
   * when the target cannot make one (live, without a fixture host).
   */
  token(role: CallerRole, algorithm?: SdkJwtAlgorithm): Promise<string | null>;
  /** An SDK token (2.2) the check describes (other issuers, broken claims, other keys); null when the target cannot make one (live). */
  sdkToken(request: SdkTokenRequest): Promise<string | null>;
  /** The same kind of agent configured as `variant`; null when the target cannot have one (live). */
  variant(variant: AgentVariant): AgentTarget | null;
  /** A client the agent's token endpoint knows; null when the run knows none (a live agent without `--agent-client`). */
  tokenClient(): TokenClient | null;
  /** A fresh agent like this one with a clock and key sets the check controls; null when the target cannot have one (live). */
  controlled(): ControlledAgent | null;
  /** The token_ttl (2.1) the agent is configured with, when the run knows it (the embedded reference: the default); null live. */
  readonly knownTokenTtl: number | null;
  /**
   * Does once, outside any check's time limit, what the first check would otherwise pay for: the agent built, the
   * callers' keys imported, their key sets published. Never rejects; what failed fails the checks that need it.
   */
  warmUp(): Promise<void>;
  /** Whether the agent serves its own origin's key directory (a standalone agent; on a platform the platform serves it). */
  readonly servesOriginDirectory: boolean;
  close(): Promise<void>;
}

/** The absolute URL of a request's `path`. */
export function requestUrlOf(agentUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : agentUrl + path;
}
