import type { ErrorHook } from '../error-hook.js';
import { randomBytes } from 'node:crypto';
import { AGENT_MOUNT_PREFIX } from '../../spec/agent-endpoints.js';
import type { DocumentFetcher } from '../../verifier/ports.js';
import type { PaidSurface } from '../../purchase/machine/answers.js';
import { paymentLeakOf, relayedRequestHeaders, upstreamPaymentNotRelayedAnswer } from '../../purchase/machine/relay/relay.js';
import { HEADERS } from '../../spec/headers.js';
import { DEFAULT_PROBLEM_BASES } from '../../spec/problem-types.js';
import { REFERENCE_TERMS_PATH, REFERENCE_TERMS_VERSION } from '../purchases.js';
import { renderAnswer } from '../render.js';
import type { PublicRoute } from '../routes.js';
import { CALLER_ACCESS } from '../../contract/callers.js';
import type { AccessBlock } from './caller.js';
import { createFileKeyStore, createMemoryKeyStore } from './keys.js';
import { createStandardAgent, type StandardAgent } from './standard-agent.js';

/** What `serve` is asked to serve beside the platform. */
export interface ServedAgentOptions {
  /** The agent's name: it is reached at /agents/<name> (4.1). */
  readonly name: string;
  /** The keys directory (0700, key files 0600); without one the keys live in memory for the life of the process. */
  readonly keysDir?: string;
  /** Clients of POST /auth/token (client_id to client_secret). */
  readonly clients?: Readonly<Record<string, string>>;
  /** Called with every exception the agent catches while answering. */
  readonly onError?: ErrorHook;
  /**
   * Who owns the agent, its admins, groups and the callers it keeps out (5.4); by default the conformance callers'
   * block (src/contract/callers.ts), which an agent under test carries so a run can call it as each of them.
   */
  readonly access?: AccessBlock;
  /** Self-issued callers at plain-http loopback URLs are admitted too (serve --allow-insecure-fixtures: a local run's fixture host). */
  readonly allowInsecureIssuers?: boolean;
  /** The realm of its 401 challenges: the deployment's name for Service (serve --service-name), as the platform's. */
  readonly realm?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Methods a declared endpoint may be called with; anything else the platform's route table answers 405. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The reference agent mounted on the platform's origin at /agents/<name>, as 4.1 says the platform reaches it.
 * Its callers' key sets are read with the platform's fetcher, under the same fetch rules.
 */
export async function createMountedAgent(origin: string, options: ServedAgentOptions, fetcher: DocumentFetcher): Promise<StandardAgent> {
  if (!NAME.test(options.name)) throw new TypeError(`agent name ${JSON.stringify(options.name)} must be letters, digits, ".", "_" or "-"`);
  return createStandardAgent({
    agentUrl: `${origin}${AGENT_MOUNT_PREFIX}${options.name}`,
    name: options.name,
    keyStore: options.keysDir ? createFileKeyStore(options.keysDir) : createMemoryKeyStore(),
    authSkill: {},
    fetchKeySet: async (url) => {
      const outcome = await fetcher.fetch(url);
      if (!outcome.ok) throw new Error(outcome.detail);
      return JSON.parse(Buffer.from(outcome.body).toString('utf8')) as unknown;
    },
    clock: { now: () => Math.floor(Date.now() / 1000) },
    random: { bytes: (n) => new Uint8Array(randomBytes(n)) },
    // Signed requests to the agent are verified as the platform verifies them, reading documents under the same rules.
    signatures: { fetcher },
    ...(options.clients ? { clients: options.clients } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    access: options.access ?? CALLER_ACCESS,
    ...(options.allowInsecureIssuers ? { allowInsecureLoopbackIssuers: true } : {}),
    ...(options.realm ? { realm: options.realm } : {}),
  });
}

/** The reference deployment's paid surface on an origin (its default purchase config's problem bases and terms). */
function referenceSurface(origin: string): PaidSurface {
  return {
    problemBases: { ...DEFAULT_PROBLEM_BASES, problems: `${origin}/problems` },
    terms: { url: `${origin}${REFERENCE_TERMS_PATH}`, version: REFERENCE_TERMS_VERSION },
  };
}

/**
 * The platform route that hands every request under the agent's base path to the agent, relaying no payment
 * (7.4 upstream_payment_not_relayed, src/purchase/relay): the buyer's Payment-Authorization is stripped from the
 * request, and an answer carrying the agent's own Payment challenge or a Payment-Receipt is replaced by the 502.
 * `surface` is the platform's paid surface (its purchase config); the reference defaults on the request's origin.
 */
export function agentRoute(agent: StandardAgent, surface?: () => PaidSurface | undefined): PublicRoute {
  const handler = async (ctx: { readonly request: Request; readonly url: URL }) => {
    const { request } = ctx;
    const relayed = request.headers.has(HEADERS.paymentAuthorization)
      ? new Request(request, { headers: relayedRequestHeaders(request.headers), duplex: 'half' } as RequestInit)
      : request;
    const response = await agent.fetch(relayed);
    const leak = paymentLeakOf({ status: response.status, headers: Object.fromEntries(response.headers) });
    if (leak === undefined) return response;
    void response.body?.cancel().catch(() => undefined);
    return renderAnswer(upstreamPaymentNotRelayedAnswer(surface?.() ?? referenceSurface(ctx.url.origin), leak));
  };
  return {
    name: `agent ${agent.name}`,
    path: (pathname) => (agent.owns(pathname) ? {} : null),
    access: 'public',
    methods: Object.fromEntries(METHODS.map((m) => [m, handler])),
  };
}
