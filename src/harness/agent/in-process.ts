import { CaughtErrors } from '../caught-errors.js';
import { randomBytes } from 'node:crypto';
import { createMemoryKeyStore, generateAgentKeys } from '../../reference/agent/keys.js';
import { createStandardAgent, type StandardAgent, type StandardAgentOptions } from '../../reference/agent/standard-agent.js';
import { activeDeviation } from '../../mutants/index.js';
import { memoryKeySets, type Clock, type JsonWebKeySet } from '../../sdk-auth/index.js';
import type { TargetResponse } from '../target.js';
import { requestUrlOf, type AgentRequest, type AgentTarget, type AgentVariant, type ControlledAgent, type UpgradeOutcome } from './agent-target.js';
import { CALLER_ACCESS, CALLER_AUTH_SKILL, PORTAL_AUTH_SKILL, callerKeySets, callerToken, issuerKeySetUrl, sdkToken, type SdkTokenRequest } from './callers.js';
import type { CallerRole } from '../../contract/callers.js';

export const IN_PROCESS_AGENT_URL = 'https://agents.example/agents/reference';

/** Each variant stands on its own agent URL, with the auth skill and access block it is named for. */
const VARIANTS: Readonly<
  Record<AgentVariant, { readonly name: string; readonly authSkill: StandardAgentOptions['authSkill']; readonly access?: StandardAgentOptions['access'] }>
> = Object.freeze({
  portal: { name: 'portal-reference', authSkill: PORTAL_AUTH_SKILL, access: CALLER_ACCESS },
  'no-verifier': { name: 'unverified-reference', authSkill: null },
});

const random = { bytes: (n: number) => new Uint8Array(randomBytes(n)) };

/** The wall clock, moved forward by `offset` seconds. */
class MovableClock implements Clock {
  offset = 0;
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offset;
  }
}

async function collect(response: Response): Promise<TargetResponse> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
}

/** The reference agent called as a fetch handler, standing alone on its origin (it serves the key directory there). */
export class InProcessAgentTarget implements AgentTarget {
  readonly kind = 'in-process' as const;
  readonly description: string;
  readonly agentUrl: string;
  readonly servesOriginDirectory = true;
  /** The agent, and one per mutant whose fault is in how the agent is built (self-test). */
  private readonly agents = new Map<string, Promise<StandardAgent>>();
  private readonly variants = new Map<AgentVariant, InProcessAgentTarget>();
  private readonly clock = new MovableClock();
  private readonly caught = new CaughtErrors();
  /** The key sets the issuers publish, read by the agent at each fetch. */
  private readonly keySets: Record<string, JsonWebKeySet> = callerKeySets();

  constructor(private readonly configuredAs?: AgentVariant) {
    this.agentUrl = configuredAs ? IN_PROCESS_AGENT_URL.replace(/[^/]+$/, VARIANTS[configuredAs].name) : IN_PROCESS_AGENT_URL;
    this.description = configuredAs ? `embedded reference agent (${configuredAs})` : 'embedded reference agent';
  }

  private ready(): Promise<StandardAgent> {
    const built = activeDeviation()?.agent?.options;
    const key = built ? activeDeviation()!.id : '';
    let agent = this.agents.get(key);
    if (!agent) {
      const variant = this.configuredAs ? VARIANTS[this.configuredAs] : undefined;
      const access = variant ? variant.access : CALLER_ACCESS;
      agent = (async () => {
        const options: StandardAgentOptions = {
          agentUrl: this.agentUrl,
          name: variant ? variant.name : 'reference',
          keyStore: createMemoryKeyStore(await generateAgentKeys()),
          authSkill: variant ? variant.authSkill : CALLER_AUTH_SKILL,
          ...(access ? { access } : {}),
          fetchKeySet: memoryKeySets(this.keySets),
          clock: this.clock,
          random,
          serveKeyDirectory: true,
          onError: this.caught.hook,
        };
        return createStandardAgent(built ? built(options) : options);
      })();
      this.agents.set(key, agent);
    }
    return agent;
  }

  async send(r: AgentRequest): Promise<TargetResponse> {
    const agent = await this.ready();
    const body = r.body ?? null;
    const request = new Request(requestUrlOf(this.agentUrl, r.path), {
      method: r.method,
      headers: (r.headers ?? []).map(([n, v]) => [n, v] as [string, string]),
      ...(body ? { body, duplex: 'half' } : {}),
    } as RequestInit);
    const answerFault = activeDeviation()?.agent?.answer;
    const answered = await this.caught.around(() => agent.fetch(request));
    if (!answerFault) return collect(answered);
    const seen = { method: r.method, url: request.url, headers: new Headers(request.headers), body: body instanceof Uint8Array ? body : null };
    return collect(await answerFault(seen, answered));
  }

  async upgrade(path: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<UpgradeOutcome> {
    const agent = await this.ready();
    const request = new Request(this.agentUrl + path, {
      headers: [['upgrade', 'websocket'], ['connection', 'Upgrade'], ...headers.map(([n, v]) => [n, v] as [string, string])],
    });
    const decision = await agent.upgrade(request);
    const fault = activeDeviation()?.agent;
    let outcome: { opened: true } | { opened: false; response: Response } =
      'refuse' in decision ? { opened: false, response: decision.refuse } : { opened: true };
    const seen = { method: 'GET', url: request.url, headers: request.headers, body: null };
    if (fault?.upgrade) outcome = await fault.upgrade(seen, outcome);
    if (!outcome.opened && fault?.answer) outcome = { opened: false, response: await fault.answer(seen, outcome.response) };
    return outcome.opened ? { opened: true } : { opened: false, response: await collect(outcome.response) };
  }

  async token(role: CallerRole): Promise<string> {
    return callerToken(role, this.agentUrl, { clock: this.clock, random });
  }

  async sdkToken(request: SdkTokenRequest): Promise<string> {
    return sdkToken(request, this.agentUrl, { clock: this.clock, random });
  }

  variant(variant: AgentVariant): InProcessAgentTarget {
    let target = this.variants.get(variant);
    if (!target) this.variants.set(variant, (target = new InProcessAgentTarget(variant)));
    return target;
  }

  controlled(): ControlledAgent {
    const target = new InProcessAgentTarget(this.configuredAs);
    return {
      target,
      advance: (seconds) => void (target.clock.offset += seconds),
      revokeKey: (issuer) => void (target.keySets[issuerKeySetUrl(issuer)] = { keys: [] }),
    };
  }

  async close(): Promise<void> {}
}
