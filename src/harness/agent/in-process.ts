import { CaughtErrors } from '../caught-errors.js';
import { randomBytes } from 'node:crypto';
import { createMemoryKeyStore, type AgentKeys } from '../../reference/agent/keys.js';
import { jwkThumbprint } from '../../httpsig/index.js';
import { keyFromName } from '../../scenarios/identities.js';
import { FIXED_RSA_KEYS } from '../../scenarios/agents/fixed-rsa-keys.js';
import type { SdkJwtAlgorithm } from '../../spec/sdk-auth.js';
import { LIMITS } from '../../spec/limits.js';
import { AGENT_MOUNT_PREFIX, AGENT_NAME_SIGIL } from '../../spec/agent-endpoints.js';
import { createStandardAgent, type StandardAgent, type StandardAgentOptions } from '../../reference/agent/standard-agent.js';
import { activeDeviation } from '../../mutants/index.js';
import { memoryKeySets, type Clock, type JsonWebKeySet } from '../../sdk-auth/index.js';
import type { TargetResponse } from '../target.js';
import {
  requestUrlOf,
  type AgentRequest,
  type AgentTarget,
  type AgentVariant,
  type ControlledAgent,
  type TokenClient,
  type UpgradeOutcome,
} from './agent-target.js';
import {
  CALLER_ACCESS,
  CALLER_AUTH_SKILL,
  PORTAL_AUTH_SKILL,
  callerKeySets,
  callerToken,
  issuerKeySetUrl,
  sdkToken,
  warmCallerKeys,
  type SdkTokenRequest,
} from './callers.js';
import type { CallerRole } from '../../contract/callers.js';

export const IN_PROCESS_AGENT_URL = 'https://agents.example/agents/reference';

/** Each variant stands on its own agent URL, with the auth skill, access block and identity it is named for. */
const VARIANTS: Readonly<
  Record<
    AgentVariant,
    {
      readonly name: string;
      readonly authSkill: StandardAgentOptions['authSkill'];
      readonly access?: StandardAgentOptions['access'];
      readonly identity?: false;
    }
  >
> = Object.freeze({
  portal: { name: 'portal-reference', authSkill: PORTAL_AUTH_SKILL, access: CALLER_ACCESS },
  'no-verifier': { name: 'unverified-reference', authSkill: null },
  'no-identity': { name: 'no-identity-reference', authSkill: CALLER_AUTH_SKILL, access: CALLER_ACCESS, identity: false },
});

/** The client the embedded reference agent's token endpoint knows (4.3), and the agent it asks a token for. */
const TOKEN_CLIENT = Object.freeze({ id: 'conformance-client', secret: 'conformance-client-secret' });
const TOKEN_TARGET = 'conformance-peer';

const random = { bytes: (n: number) => new Uint8Array(randomBytes(n)) };

/**
 * The embedded agent's keys (5.5: the Ed25519 identity and the RSA key), fixed by its name: no key is generated while
 * a check runs, since making an RSA key takes a random while (seconds on a loaded machine, past a check's time limit).
 */
function fixedAgentKeys(name: string): AgentKeys {
  const ed25519 = keyFromName(`agent/${name}`);
  const rsa = FIXED_RSA_KEYS['agent/reference']!;
  return { ed25519: { ...ed25519.privateJwk, kid: ed25519.thumbprint }, rsa: { ...rsa, kid: jwkThumbprint(rsa as { kty: string }) } };
}

/** The callers' key sets (each an Ed25519 and an RSA key), made once per process. */
let callerSets: Promise<Record<string, JsonWebKeySet>> | undefined;

/**
 * The wall clock moved forward by `offset` seconds, or, frozen, a clock that stands still at the second it was made
 * and moves only when moved: a check that moves it then never sees a second of the wall clock go by besides.
 */
class MovableClock implements Clock {
  offset = 0;
  private readonly frozenAt: number | undefined;
  constructor(frozen = false) {
    this.frozenAt = frozen ? Math.floor(Date.now() / 1000) : undefined;
  }
  now(): number {
    return (this.frozenAt ?? Math.floor(Date.now() / 1000)) + this.offset;
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
  /** Its auth skill names no token_ttl: the default of 5.5. */
  readonly knownTokenTtl = LIMITS.sdkTokenLifetime.value;
  /** The agent, and one per mutant whose fault is in how the agent is built (self-test). */
  private readonly agents = new Map<string, Promise<StandardAgent>>();
  private readonly variants = new Map<AgentVariant, InProcessAgentTarget>();
  private readonly clock: MovableClock;
  private readonly caught = new CaughtErrors();
  /** The key sets the issuers publish, read by the agent at each fetch (filled before the agent answers). */
  private readonly keySets: Record<string, JsonWebKeySet> = {};

  constructor(
    private readonly configuredAs?: AgentVariant,
    frozenClock = false,
  ) {
    this.clock = new MovableClock(frozenClock);
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
        // A key set a check already changed (a revoked key) stays as the check left it.
        for (const [url, set] of Object.entries(await (callerSets ??= callerKeySets()))) if (!Object.hasOwn(this.keySets, url)) this.keySets[url] = set;
        const name = variant ? variant.name : 'reference';
        const options: StandardAgentOptions = {
          agentUrl: this.agentUrl,
          name,
          keyStore: variant?.identity === false ? null : createMemoryKeyStore(fixedAgentKeys(name)),
          authSkill: variant ? variant.authSkill : CALLER_AUTH_SKILL,
          ...(access ? { access } : {}),
          fetchKeySet: memoryKeySets(this.keySets),
          clock: this.clock,
          random,
          serveKeyDirectory: true,
          clients: { [TOKEN_CLIENT.id]: TOKEN_CLIENT.secret },
          onError: this.caught.hook,
        };
        return createStandardAgent(built ? built(options) : options);
      })();
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Builds the agent and its variants and imports the callers' keys. */
  async warmUp(): Promise<void> {
    const variants = this.configuredAs ? [] : (Object.keys(VARIANTS) as AgentVariant[]).map((v) => this.variant(v).ready());
    await Promise.all([this.ready(), warmCallerKeys(), ...variants]).catch(() => undefined);
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

  async token(role: CallerRole, algorithm?: SdkJwtAlgorithm): Promise<string> {
    return callerToken(role, this.agentUrl, { clock: this.clock, random }, undefined, algorithm);
  }

  async sdkToken(request: SdkTokenRequest): Promise<string> {
    return sdkToken(request, this.agentUrl, { clock: this.clock, random });
  }

  variant(variant: AgentVariant): InProcessAgentTarget {
    let target = this.variants.get(variant);
    if (!target) this.variants.set(variant, (target = new InProcessAgentTarget(variant)));
    return target;
  }

  /** A token asked for a sibling agent on the same origin (the reference resolves @name to <origin>/agents/<name>), not itself. */
  tokenClient(): TokenClient {
    return { ...TOKEN_CLIENT, target: `${AGENT_NAME_SIGIL}${TOKEN_TARGET}`, targetUrl: `${new URL(this.agentUrl).origin}${AGENT_MOUNT_PREFIX}${TOKEN_TARGET}` };
  }

  controlled(): ControlledAgent {
    // Its clock stands still but when the check moves it, so a cache's age is exactly what the check made it.
    const target = new InProcessAgentTarget(this.configuredAs, true);
    return {
      target,
      advance: (seconds) => void (target.clock.offset += seconds),
      revokeKey: (issuer) => void (target.keySets[issuerKeySetUrl(issuer)] = { keys: [] }),
    };
  }

  async close(): Promise<void> {}
}
