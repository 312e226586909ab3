import type { DocumentFetcher } from '../../verifier/ports.js';
import { createMemoryPorts } from '../../verifier/memory-ports.js';
import type { Refusal, VerifierConfig } from '../../verifier/types.js';
import { verifyRequest } from '../../verifier/verify-request.js';
import { HEADERS } from '../../spec/headers.js';
import { readVerifierRequest } from '../render.js';

/** What the agent learns from a request's Web Bot Auth signature: none sent, the signing agent, or the verifier's refusal. */
export type SignatureVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'verified'; readonly agentUrl: string }
  | { readonly kind: 'refused'; readonly refusal: Refusal };

export type SignatureCheck = (request: Request) => Promise<SignatureVerdict>;

export interface SignatureCheckOptions {
  /** The agent URL: its host is the authority a signature must be made for (5.2). */
  readonly agentUrl: string;
  readonly clock: { now(): number };
  /** Reads the signing agents' key sets and cards under the fetch rules of 5.2. */
  readonly fetcher: DocumentFetcher;
  /** Accept plain-http agent URLs (local fixtures only). */
  readonly allowInsecureAgentUrls?: boolean;
}

/** A fetcher for an agent that reaches no one: every key set is unreachable, so no signature verifies. */
export const UNREACHABLE_DOCUMENTS: DocumentFetcher = Object.freeze({
  fetch: async (url: string) => ({ ok: false as const, url, reason: 'network' as const, detail: 'this agent reads no documents over the network' }),
});

/**
 * 7.2 "A Web Bot Auth signature that does not verify is the answer itself": a signed request is run through the
 * reference verifier (5.2) with the agent's host as the authority, and a refusal is the verifier's 401 as it stands.
 * The platform's failed-signature throttle (section 8) is a rule of the platform, not of an agent, so nothing is counted.
 * The body is read from a clone, so the handler still reads it.
 */
export function webBotAuthCheck(options: SignatureCheckOptions): SignatureCheck {
  const ports = { ...createMemoryPorts(options.clock, options.fetcher), failures: { count: () => 0, record: () => undefined } };
  const config: VerifierConfig = {
    authority: new URL(options.agentUrl).host,
    ...(options.allowInsecureAgentUrls ? { allowInsecureAgentUrls: true } : {}),
  };
  return async (request) => {
    if (!request.headers.has(HEADERS.signatureInput) && !request.headers.has(HEADERS.signature)) return { kind: 'none' };
    const { request: read } = await readVerifierRequest(request.body ? request.clone() : request, '');
    const verdict = await verifyRequest(read, ports, config);
    if (!verdict.ok) return { kind: 'refused', refusal: verdict };
    return verdict.kind === 'signature' ? { kind: 'verified', agentUrl: verdict.agentUrl } : { kind: 'none' };
  };
}
