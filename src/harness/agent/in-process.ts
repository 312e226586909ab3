import { randomBytes } from 'node:crypto';
import { createMemoryKeyStore, generateAgentKeys } from '../../reference/agent/keys.js';
import { createStandardAgent, type StandardAgent } from '../../reference/agent/standard-agent.js';
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
  private agent: Promise<StandardAgent> | undefined;

  private ready(): Promise<StandardAgent> {
    return (this.agent ??= (async () =>
      createStandardAgent({
        agentUrl: IN_PROCESS_AGENT_URL,
        name: 'reference',
        keyStore: createMemoryKeyStore(await generateAgentKeys()),
        authSkill: {},
        access: CALLER_ACCESS,
        fetchKeySet: memoryKeySets(callerKeySets()),
        clock,
        random,
        serveKeyDirectory: true,
      }))());
  }

  async send(r: AgentRequest): Promise<TargetResponse> {
    const agent = await this.ready();
    const body = r.body ?? null;
    const request = new Request(requestUrlOf(this.agentUrl, r.path), {
      method: r.method,
      headers: (r.headers ?? []).map(([n, v]) => [n, v] as [string, string]),
      ...(body ? { body, duplex: 'half' } : {}),
    } as RequestInit);
    return collect(await agent.fetch(request));
  }

  async upgrade(path: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<UpgradeOutcome> {
    const agent = await this.ready();
    const decision = await agent.upgrade(new Request(this.agentUrl + path, { headers: [['upgrade', 'websocket'], ['connection', 'Upgrade'], ...headers.map(([n, v]) => [n, v] as [string, string])] }));
    return 'refuse' in decision ? { opened: false, response: await collect(decision.refuse) } : { opened: true };
  }

  async token(role: CallerRole): Promise<string> {
    return callerToken(role, this.agentUrl, { clock, random });
  }

  async close(): Promise<void> {}
}
