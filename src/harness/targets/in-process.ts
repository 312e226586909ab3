import { CaughtErrors } from '../caught-errors.js';
import type { SignedRequestCase } from '../../cases/types.js';
import { DEFAULT_CLIENT_ADDRESS } from '../../cases/run-case.js';
import { createMemoryFetcher, type MemoryFetcher } from '../../fetch/index.js';
import { createReferencePlatform, type ReferencePlatform } from '../../reference/platform.js';
import { counterIds } from '../../widgets/publish/index.js';
import {
  REFERENCE_OTHER_PRICED_PATH,
  REFERENCE_PRICED_PATH,
  referenceProblemBases,
  referenceTermsUrl,
  type ReferencePurchases,
} from '../../reference/purchases.js';
import { ReferenceTestControl } from '../../reference/test-control.js';
import type { ControlRequest } from '../../contract/test-control.js';
import { agentRoute } from '../../reference/agent/mount.js';
import { createStandardAgent } from '../../reference/agent/standard-agent.js';
import type { PublicRoute } from '../../reference/routes.js';
import { AGENT_MOUNT_PREFIX } from '../../spec/agent-endpoints.js';
import type { Clock } from '../../verifier/ports.js';
import type { WidgetService } from '../../reference/widgets/index.js';
import { keyFromName } from '../../scenarios/identities.js';
import { VECTOR_ENV } from '../../scenarios/kit.js';
import { serviceNaming } from '../../spec/naming.js';
import { createMemoryPorts } from '../../verifier/index.js';
import type { Capability, DeploymentAddresses, PricedResources, SocketOpening, Target, TargetRequest, TargetResponse } from '../target.js';
import { openWebSocket } from '../socket-client.js';
import { startUpgradeListener, type UpgradeListener } from './loopback-upgrades.js';
import { activeDeviation, type Deviation, type PlatformFault } from '../../mutants/index.js';

/** The construction faults of the active mutant (its answer rewrite is applied per request in `send`, so it also reaches a deployment built before it was switched on). */
function constructionFaults(mutant: Deviation | undefined): { mutants?: PlatformFault[] } {
  if (!mutant?.platform) return {};
  const { answer: _perRequest, ...built } = mutant.platform;
  return { mutants: [built] };
}

/** Keys of the agents the in-process platform hosts, which its key directory lists. */
const HOSTED_AGENT_KEYS = [keyFromName('hosted-agent-1').publicJwk, keyFromName('hosted-agent-2').publicJwk];

/** The name of the agent the in-process platform hosts and relays to (the reference agent with its conformance probes). */
const HOSTED_AGENT = 'relayed';
/** Methods the hosted agent is reached with (as serve mounts its agent). */
const AGENT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The route of the agent the platform hosts at /agents/relayed, behind the platform's relay (7.4: no payment relayed).
 * The agent has no signing identity (no key is generated: the probes it serves need none) and is built on its first
 * request, once per target.
 */
function hostedAgentRoute(origin: string, clock: Clock, purchases: () => ReferencePurchases | undefined): PublicRoute {
  const prefix = `${AGENT_MOUNT_PREFIX}${HOSTED_AGENT}`;
  let route: Promise<PublicRoute> | undefined;
  const built = () =>
    (route ??= createStandardAgent({
      agentUrl: `${origin}${prefix}`,
      name: HOSTED_AGENT,
      keyStore: null,
      authSkill: {},
      fetchKeySet: async () => ({ keys: [] }),
      clock,
      random: { bytes: (n) => new Uint8Array(n).map((_, i) => i) },
    }).then((agent) => agentRoute(agent, () => purchases()?.config)));
  const handler: PublicRoute['methods'][string] = async (ctx) => {
    const inner = await built();
    return inner.methods[ctx.request.method]!(ctx);
  };
  return {
    name: `agent ${HOSTED_AGENT}`,
    path: (pathname) => (pathname === prefix || pathname.startsWith(`${prefix}/`) ? {} : null),
    access: 'public',
    methods: Object.fromEntries(AGENT_METHODS.map((m) => [m, handler])),
  };
}

const ALL: ReadonlySet<Capability> = new Set([
  'clock-control',
  'client-address',
  'state-seeding',
  'platform-config',
  'fault-injection',
  'spend',
  'stablecoin-network',
  'dns-control',
]);

/**
 * The embedded reference platform, called as a fetch handler. Every case gets a fresh platform whose state,
 * clock and configuration the case sets, and whose agent documents come from the case (no network).
 */
/** The operator key the embedded reference holds (7.4: it lifts the ownerless cap), as `run --owner-key` names a live one's. */
const IN_PROCESS_OWNER_KEY = 'rk_conformance_operator';

export class InProcessTarget implements Target {
  readonly kind = 'in-process' as const;
  readonly description = 'embedded reference platform';
  readonly capabilities = ALL;
  readonly hostedAgentKeys = HOSTED_AGENT_KEYS;
  readonly environment: Target['environment'];
  /** Where the embedded reference publishes its problem types and terms. */
  readonly addresses: DeploymentAddresses;
  readonly pricedResources: PricedResources = { path: REFERENCE_PRICED_PATH, otherPath: REFERENCE_OTHER_PRICED_PATH };
  readonly hostedAgentUrl: string;
  readonly ownerKey = IN_PROCESS_OWNER_KEY;
  private now = VECTOR_ENV.now;
  private upgrades: Promise<UpgradeListener> | undefined;
  private fetcher: MemoryFetcher | undefined;
  private documents: SignedRequestCase['documents'] = {};
  private readonly caught = new CaughtErrors();
  /** The name the embedded reference writes for Service (`run --service-name`); the spec's own when absent. */
  private readonly named: { serviceName?: string };
  private platform: ReferencePlatform | undefined;
  /** The test control (docs/contracts.md section 5) the embedded reference answers, as `serve --test-control` does. */
  private testControl = new ReferenceTestControl();
  /** The hosted agent's route, over whichever platform the current case built. */
  private readonly hostedAgent = hostedAgentRoute(`https://${VECTOR_ENV.authority}`, { now: () => this.now }, () => this.platform?.purchases);

  constructor(options: { readonly serviceName?: string } = {}) {
    this.named = options.serviceName === undefined ? {} : { serviceName: options.serviceName };
    this.environment = {
      authority: VECTOR_ENV.authority,
      platformOrigin: `https://${VECTOR_ENV.authority}`,
      agentOrigin: () => VECTOR_ENV.agentOrigin,
      now: () => VECTOR_ENV.now,
      nonce: VECTOR_ENV.nonce,
      ...(options.serviceName === undefined ? {} : { naming: serviceNaming(options.serviceName) }),
    };
    const origin = this.environment.platformOrigin;
    this.addresses = { problemBases: referenceProblemBases(origin), termsUrl: referenceTermsUrl(origin) };
    this.hostedAgentUrl = `${origin}${AGENT_MOUNT_PREFIX}${HOSTED_AGENT}`;
    this.platform = createReferencePlatform({
      onError: this.caught.hook,
      blockedAgents: this.testControl.blocking([]),
      ownerKeys: [IN_PROCESS_OWNER_KEY],
      authority: VECTOR_ENV.authority,
      clock: { now: () => this.now },
      fetcher: createMemoryFetcher({}),
      hostedAgentKeys: HOSTED_AGENT_KEYS,
      widgets: { ids: counterIds() },
      routes: [this.hostedAgent],
      ...this.named,
    });
    if (this.platform.purchases) this.platform.purchases.testControl = this.testControl;
  }

  async prepare(c: SignedRequestCase): Promise<void> {
    this.now = c.now;
    this.documents = { ...c.documents };
    const clock = { now: () => this.now };
    const mutant = activeDeviation();
    this.fetcher = createMemoryFetcher(this.documents, { ...(mutant?.fetcher?.limits ?? {}), ...(c.dns ? { addresses: c.dns } : {}) });
    const fetcher = mutant?.fetcher?.wrap ? mutant.fetcher.wrap(this.fetcher, () => this.documents) : this.fetcher;
    const registrations = Object.entries(c.registrations ?? {}).map(([agentUrl, r]) => ({ agentUrl, thumbprints: [...r.thumbprints], registeredAt: c.now }));
    const ports = createMemoryPorts(clock, fetcher, registrations);
    for (const jti of c.platform.revoked_token_ids ?? []) ports.revocations.revoke(jti);
    this.testControl = new ReferenceTestControl();
    this.platform = createReferencePlatform({
      onError: this.caught.hook,
      authority: c.platform.authority,
      clock,
      fetcher,
      ports,
      ownerKeys: [...(c.platform.owner_keys ?? []), IN_PROCESS_OWNER_KEY],
      blockedAgents: this.testControl.blocking(c.platform.blocked_agents ?? []),
      ...(c.platform.token_keys ? { acceptedTokenKeys: c.platform.token_keys } : {}),
      ...(c.platform.token_issuer ? { tokenIssuer: c.platform.token_issuer } : {}),
      ...(c.platform.agent_scope ? { agentScope: c.platform.agent_scope } : {}),
      hostedAgentKeys: HOSTED_AGENT_KEYS,
      widgets: { ids: counterIds() },
      routes: [this.hostedAgent],
      ...this.named,
      ...constructionFaults(mutant),
    });
    if (this.platform.purchases) this.platform.purchases.testControl = this.testControl;
  }

  async step(at: number, documents: SignedRequestCase['documents'] | undefined): Promise<void> {
    this.now = at;
    if (documents) {
      this.documents = { ...this.documents, ...documents };
      this.fetcher!.replace(this.documents);
    }
  }

  async send(r: TargetRequest): Promise<TargetResponse> {
    const request = new Request(r.url, {
      method: r.method,
      headers: r.headers.map(([n, v]) => [n, v] as [string, string]),
      ...(r.body?.length ? { body: r.body } : {}),
    });
    let response = await this.caught.around(() =>
      this.platform!.fetch(request, {
        clientAddress: r.clientAddress ?? DEFAULT_CLIENT_ADDRESS,
        ...(r.bodyConsumed ? { bodyConsumed: true } : {}),
      }),
    );
    const answerFault = activeDeviation()?.platform?.answer;
    if (answerFault)
      response = await answerFault(
        { method: r.method, url: r.url, headers: new Headers(r.headers.map(([n, v]) => [n, v] as [string, string])), body: r.body },
        response,
      );
    return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
  }

  /** Puts the embedded reference in a named state, exactly as its test control does under `serve --test-control`. */
  async control(request: ControlRequest): Promise<{ readonly ok: true } | { readonly notRun: string }> {
    await this.testControl.apply(request, this.platform?.purchases);
    return { ok: true };
  }

  /**
   * The purchase machine behind the embedded reference's paid routes, for the unit tests that hold one of its ports
   * (tests/reference-paid/held-races.test.ts); not part of Target: no suite reaches it.
   */
  get purchases(): ReferencePurchases | undefined {
    return this.platform?.purchases;
  }

  get widgets(): WidgetService | undefined {
    return this.platform?.widgets;
  }

  /** Upgrades are served on a loopback port (started on first use) by whichever platform the current case built. */
  async openSocket(url: string, headers: ReadonlyArray<readonly [string, string]>): Promise<SocketOpening> {
    this.upgrades ??= startUpgradeListener(async (path, received) => {
      const target = `${this.environment.platformOrigin}${path}`;
      const decision = await this.platform!.upgrade(new Request(target, { headers: received }), { clientAddress: DEFAULT_CLIENT_ADDRESS });
      const answerFault = activeDeviation()?.platform?.answer;
      if (!('refuse' in decision) || !answerFault) return decision;
      return { refuse: await answerFault({ method: 'GET', url: target, headers: received, body: null }, decision.refuse) };
    });
    const listener = await this.upgrades;
    const { pathname, search } = new URL(url);
    return openWebSocket(`${listener.url}${pathname}${search}`, headers);
  }

  async close(): Promise<void> {
    const upgrades = this.upgrades;
    this.upgrades = undefined;
    if (upgrades) await (await upgrades).close();
  }
}
