import type { MemoryDocument } from '../fetch/index.js';
import type { StandardAgentOptions } from '../reference/agent/standard-agent.js';
import type { FaultRequest, PlatformFault } from '../reference/platform.js';
import type { DocumentFetcher } from '../verifier/ports.js';

export type { FaultRequest, PlatformFault };

/** Rewrites a deployment's answer to a request (the fault is on the wire). */
export type AnswerFault = (request: FaultRequest, response: Response) => Response | Promise<Response>;

/** How a WebSocket upgrade went at the deployment: accepted, or refused with this HTTP answer. */
export type UpgradeAnswer = { readonly opened: true } | { readonly opened: false; readonly response: Response };

/** Faults of the reference agent, applied where the in-process agent target composes it. */
interface AgentFault {
  /** Changes the options the agent is built with (access block, auth skill, clock...). */
  readonly options?: (options: StandardAgentOptions) => StandardAgentOptions;
  readonly answer?: AnswerFault;
  /** Changes how an upgrade is decided (open what should be refused, refuse what should open). */
  readonly upgrade?: (request: FaultRequest, decided: UpgradeAnswer) => UpgradeAnswer | Promise<UpgradeAnswer>;
}

/** The in-process platform's document fetcher (agents' key sets and cards), for faults of the fetch rules of 5.2. */
interface FetcherFault {
  /** Options for the in-memory fetcher (limits switched off). */
  readonly limits?: { readonly maxBytes?: number; readonly timeoutMs?: number };
  /** Wraps the fetcher; `documents` are what the case serves. */
  readonly wrap?: (fetcher: DocumentFetcher, documents: () => Readonly<Record<string, MemoryDocument>>) => DocumentFetcher;
}

/** A change to the reference deployments, applied where the in-process targets compose them. */
export interface Deviation {
  /** Stable slug, e.g. `auth-nonce-store-forgets`. */
  readonly id: string;
  /** What the changed deployment does, in one sentence. */
  readonly description: string;
  readonly platform?: PlatformFault;
  readonly fetcher?: FetcherFault;
  readonly agent?: AgentFault;
}

/**
 * A named fault of a reference deployment (docs/architecture.md) and the requirements it breaks. The self-test
 * (`run --self-test`) requires a check naming one of `requirements` to fail while it is switched on.
 */
export interface Mutant extends Deviation {
  /** Catalogue requirement ids it breaks (src/harness/coverage.ts CATALOGUE). */
  readonly requirements: readonly string[];
}

/**
 * Deep: the rule is broken where it is decided (the verifier's ports or configuration, the purchase machine,
 * the fetcher, the agent's options or upgrade decision). Answer: only a finished answer is rewritten, which a
 * check can catch by looking at the answer alone; such mutants stay, but do not guard a requirement alone.
 */
export type MutantDepth = 'deep' | 'answer';

export function mutantDepth(m: Deviation): MutantDepth {
  const { answer: platformAnswer, ...platformDeep } = m.platform ?? {};
  const { answer: agentAnswer, ...agentDeep } = m.agent ?? {};
  return Object.keys(platformDeep).length || Object.keys(agentDeep).length || m.fetcher ? 'deep' : 'answer';
}

/** A requirement no check of a conformance run can observe, and why. */
export interface UntestableRequirement {
  readonly id: string;
  readonly reason: string;
}
