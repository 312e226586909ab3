import { randomBytes } from 'node:crypto';
import { AGENT_MOUNT_PREFIX } from '../../spec/agent-endpoints.js';
import type { DocumentFetcher } from '../../verifier/ports.js';
import type { PublicRoute } from '../routes.js';
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
}

export const DEFAULT_SERVED_AGENT_NAME = 'reference';
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
    ...(options.clients ? { clients: options.clients } : {}),
  });
}

/** The platform route that hands every request under the agent's base path to the agent. */
export function agentRoute(agent: StandardAgent): PublicRoute {
  const handler = (ctx: { readonly request: Request }) => agent.fetch(ctx.request);
  return {
    name: `agent ${agent.name}`,
    path: (pathname) => (agent.owns(pathname) ? {} : null),
    access: 'public',
    methods: Object.fromEntries(METHODS.map((m) => [m, handler])),
  };
}
