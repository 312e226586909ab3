import { randomBytes } from 'node:crypto';
import { createMemoryKeyStore, generateAgentKeys } from '../../reference/agent/keys.js';
import { createStandardAgent, type StandardAgent, type StandardAgentOptions } from '../../reference/agent/standard-agent.js';
import { activeMutant } from '../../mutants/index.js';
import { memoryKeySets } from '../../sdk-auth/index.js';
import type { TargetResponse } from '../target.js';
import { requestUrlOf, type AgentRequest, type AgentTarget, type UpgradeOutcome } from './agent-target.js';
import { CALLER_ACCESS, callerKeySets, callerToken, type CallerRole } from './callers.js';

export const IN_PROCESS_AGENT_URL = 'https://agents.example/agents/reference';

const random = { bytes: (n: number) => new Uint8Array(randomBytes(n)) };
const clock = { now: () => Math.floor(Date.now() / 1000) };

async function collect(response: Response): Promise<TargetResponse> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
}

/** The reference agent called as a fetch handler, standing alone on its origin (it serves the key directory there). */
export class InProcessAgentTarget implements AgentTarget {
  readonly kind = 'in-process' as const;
  readonly description = 'embedded reference agent';
  readonly agentUrl = IN_PROCESS_AGENT_URL;
  readonly servesOriginDirectory = true;
  /** The agent, and one per mutant whose fault is in how the agent is built (self-test). */
  private readonly agents = new Map<string, Promise<StandardAgent>>();

  private ready(): Promise<StandardAgent> {
    const built = activeMutant()?.agent?.options;
    const key = built ? activeMutant()!.id : '';
    let agent = this.agents.get(key);
    if (!agent) {
      agent = (async () => {
        const options: StandardAgentOptions = {
          agentUrl: IN_PROCESS_AGENT_URL,
          name: 'reference',
          keyStore: createMemoryKeyStore(await generateAgentKeys()),
          authSkill: {},
          access: CALLER_ACCESS,
          fetchKeySet: memoryKeySets(callerKeySets()),
          clock,
          random,
          serveKeyDirectory: true,
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
    const answerFault = activeMutant()?.agent?.answer;
    if (!answerFault) return collect(await agent.fetch(request));
    const seen = { method: r.method, url: request.url, headers: new Headers(request.headers), body: body instanceof Uint8Array ? body : null };
    return collect(await answerFault(seen, await agent.fetch(request)));
  }

  async upgrade(path: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<UpgradeOutcome> {
    const agent = await this.ready();
    const request = new Request(this.agentUrl + path, { headers: [['upgrade', 'websocket'], ['connection', 'Upgrade'], ...headers.map(([n, v]) => [n, v] as [string, string])] });
    const decision = await agent.upgrade(request);
    const fault = activeMutant()?.agent;
    let outcome: { opened: true } | { opened: false; response: Response } = 'refuse' in decision ? { opened: false, response: decision.refuse } : { opened: true };
    const seen = { method: 'GET', url: request.url, headers: request.headers, body: null };
    if (fault?.upgrade) outcome = await fault.upgrade(seen, outcome);
    if (!outcome.opened && fault?.answer) outcome = { opened: false, response: await fault.answer(seen, outcome.response) };
    return outcome.opened ? { opened: true } : { opened: false, response: await collect(outcome.response) };
  }

  async token(role: CallerRole): Promise<string> {
    return callerToken(role, this.agentUrl, { clock, random });
  }

  async close(): Promise<void> {}
}
