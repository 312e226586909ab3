import {
  ADDRESS_STATES,
  AGENT_STATES,
  ONCE_AGENT_STATES,
  TOKEN_STATES,
  type AddressState,
  type AgentState,
  type ControlRequest,
} from '../contract/test-control.js';
import type { Grant, PurchaseConfig, PurchasePorts, PurchaseStore, SingleCallOffer, SalePorts } from '../purchase/index.js';
import { CAP_COUNTERS } from '../purchase/index.js';
import { RecentMap, RecentSet } from '../memory/recent.js';

/**
 * The reference's side of the test control (src/contract/test-control.ts, `serve --test-control`): the states a run
 * puts it into, each scoped to one agent or one token. A state is never global: it changes only the view of the
 * purchase machine that one agent's requests (or one client address's) see (its configuration and ports for that
 * request), so checks running side by side never meet each other's states.
 */
export interface ScopedPurchases {
  readonly config: PurchaseConfig;
  readonly ports: PurchasePorts;
  readonly saleOffer: SingleCallOffer;
  readonly salePorts: SalePorts;
}

/** What a request of the paid routes sees unless a state of its buyer changes it. */
interface PurchaseView {
  readonly config: PurchaseConfig;
  readonly ports: PurchasePorts;
  readonly saleOffer: SingleCallOffer;
  readonly salePorts: SalePorts;
}

/** The card processor's moves a token state asks for (src/reference/purchases.ts processorFinishes). */
export interface ProcessorMoves {
  processorFinishes(token: string, state: 'settled' | 'declined' | 'cancelled-unsettled', report?: boolean): Promise<unknown>;
}

/** `object` with `method` answering `answer` instead; every other member is the object's own (bound to it). */
export function withMethod<T extends object>(object: T, method: keyof T & string, answer: (...args: never[]) => unknown): T {
  return new Proxy(object, {
    get(target, property) {
      if (property === method) return answer;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `object` whose `method` throws `problem` whenever `fails()` says so, and otherwise answers as the object's own. */
function failingWhen<T extends object>(object: T, method: keyof T & string, fails: () => boolean, problem: string): T {
  const own = (object[method] as (...a: unknown[]) => unknown).bind(object);
  return withMethod(object, method, (...args: unknown[]) => {
    if (fails()) throw new Error(`${problem} (test control)`);
    return own(...args);
  });
}

/** `store` whose settleAndGrant settles and, whenever `fails()` says so, answers its grant failed (the grant store unavailable). */
function failingGrants(store: PurchaseStore, fails: () => boolean): PurchaseStore {
  return withMethod(store, 'settleAndGrant', async (challengeId: string, chargeId: string | undefined, grant: Grant) => {
    if (!fails()) return store.settleAndGrant(challengeId, chargeId, grant);
    return { record: await store.updateCharge(challengeId, { state: 'settled', chargeId }) };
  });
}

/** A user-assigned ISO 3166 code: the market `market-closed` places an agent's card in. */
const CLOSED_MARKET = 'ZZ';
/** The longest a call under call-slow waits for a later request of its agent. */
const SLOW_CALL_MS = 500;
/** Another user-assigned code, never closed: the market `wallet-placed` places a wallet in. */
const OPEN_MARKET = 'XA';

/** A user-assigned code no test card is placed in: the only market `call-card-market-elsewhere` sells per-call card offers to. */
const ELSEWHERE_MARKET = 'XB';

/** What a call that ran and failed at the resource answers (call-fails): the resource's own error. */
const FAILED_CALL = { status: 502, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"error":"resource_failed"}') };

/**
 * What the control keeps of each kind (agents, addresses, tokens, transfers), the newest first: a run puts a few dozen
 * agents in states, so a serve process that outlives thousands of runs stays bounded and only runs long finished lose
 * their states.
 */
const KEPT_PER_KIND = 10_000;
/** Agents a run asked to be blocked kept in the verifier's list, which it reads on every request. */
const KEPT_BLOCKED = 1_000;

export class ReferenceTestControl {
  private readonly agents = new RecentMap<string, Set<AgentState>>(KEPT_PER_KIND);
  private readonly addresses = new RecentMap<string, Set<AddressState>>(KEPT_PER_KIND);
  /** Once-states armed for each agent: how many times each is still to happen. */
  private readonly armed = new RecentMap<string, Map<AgentState, number>>(KEPT_PER_KIND);
  /** Tokens whose next charge answer is lost on the way back from the processor (charge-answer-lost). */
  private readonly lostAnswers = new RecentSet<string>(KEPT_PER_KIND);
  /** Transfers broadcast under transfer-fails: the network reports each failed from then on. */
  private readonly failingTransfers = new RecentSet<string>(KEPT_PER_KIND);
  /** The transfer each agent under wallet-cap-one paid today: any other is over the wallet's cap. */
  private readonly walletPaid = new RecentMap<string, string>(KEPT_PER_KIND);
  /** How many requests of each agent arrived, and the slow calls waiting for the next (call-slow). */
  private readonly arrivals = new RecentMap<string, number>(KEPT_PER_KIND);
  private readonly slowCalls = new RecentMap<string, (() => void)[]>(KEPT_PER_KIND);
  /** The verifier's blocked list (5.2 agent_blocked): the deployment's own, then the agents a run asked to be blocked. */
  private readonly blockedAgents: string[] = [];
  private ownBlocked = 0;

  /** The list the verifier reads on every request, starting from the deployment's own blocked agents. */
  blocking(own: readonly string[]): readonly string[] {
    this.blockedAgents.push(...own);
    this.ownBlocked = this.blockedAgents.length;
    return this.blockedAgents;
  }

  /** Puts the deployment into the state asked for. */
  async apply(request: ControlRequest, processor: ProcessorMoves | undefined): Promise<void> {
    if ('agent' in request && ONCE_AGENT_STATES.has(request.state)) {
      const armed = this.armed.get(request.agent) ?? new Map<AgentState, number>();
      armed.set(request.state, (armed.get(request.state) ?? 0) + 1);
      this.armed.set(request.agent, armed);
      return;
    }
    if ('address' in request) {
      const states = this.addresses.get(request.address) ?? new Set<AddressState>();
      this.addresses.set(request.address, states.add(request.state));
      return;
    }
    if ('agent' in request) {
      const states = this.agents.get(request.agent) ?? new Set<AgentState>();
      states.add(request.state);
      this.agents.set(request.agent, states);
      if (request.state === AGENT_STATES.agentBlocked && !this.blockedAgents.includes(request.agent)) {
        // The verifier reads the list on every request: the oldest agents a run blocked go first, never the deployment's own.
        if (this.blockedAgents.length - this.ownBlocked >= KEPT_BLOCKED) this.blockedAgents.splice(this.ownBlocked, 1);
        this.blockedAgents.push(request.agent);
      }
      return;
    }
    if (request.state === TOKEN_STATES.chargeAnswerLost) {
      this.lostAnswers.add(request.token);
      return;
    }
    if (!processor) throw new Error('this deployment has no card processor');
    if (request.state === TOKEN_STATES.settlementReported) await processor.processorFinishes(request.token, 'settled', true);
    else await processor.processorFinishes(request.token, request.outcome);
  }

  /** Whether `agent` was put in `state` (for a state no purchase view holds: a socket turn that fails). */
  holds(agent: string, state: AgentState): boolean {
    return this.agents.get(agent)?.has(state) ?? false;
  }

  /**
   * What a completion on the LLM rail costs `payer`: `own` (the deployment's price) unless the payer was put in
   * completion-costs-two-fifths-credit, where it is two fifths of what one pack credits (`packCreditNano`).
   */
  completionPriceNano(payer: string | null, own: bigint, packCreditNano: string): bigint {
    if (payer === null || !this.holds(payer, AGENT_STATES.completionCostsTwoFifthsCredit)) return own;
    const price = (2n * BigInt(packCreditNano)) / 5n;
    return price > 0n ? price : own;
  }

  /** What the agent's states make of the stablecoin offer and ports (the network, the wallet's place and cap). */
  private stablecoinScoped(
    buyer: string | null,
    config: PurchaseConfig,
    ports: PurchasePorts,
    has: (state: AgentState) => boolean,
    happens: (state: AgentState) => boolean,
  ): { config: PurchaseConfig; ports: PurchasePorts } {
    const stablecoin = ports.stablecoin;
    if (has(AGENT_STATES.stablecoinNotSold)) {
      const { stablecoin: _unsold, ...unsold } = config;
      return { config: unsold, ports };
    }
    if (buyer === null || stablecoin === undefined || config.stablecoin === undefined) return { config, ports };
    let offer = config.stablecoin;
    if (has(AGENT_STATES.stablecoinTokenChanged)) offer = { ...offer, token: `0x${'ff'.repeat(20)}` };
    if (has(AGENT_STATES.unplacedWalletsRefused)) offer = { ...offer, sellsToUnplaceableBuyers: false };
    // Any cap at all makes the deployment count; the counting below lets one transfer of the agent through a day.
    if (has(AGENT_STATES.walletCapOne)) offer = { ...offer, walletDailyCap: offer.walletDailyCap ?? String(10n ** 30n) };
    const unreachable = happens(AGENT_STATES.networkUnreachable);
    const network = stablecoin.network;
    const failing = this.failingTransfers;
    const scopedNetwork = {
      broadcast: async (serialized: Parameters<typeof network.broadcast>[0]) => {
        if (unreachable || happens(AGENT_STATES.broadcastUnreachable)) throw new Error('stablecoin network unreachable (test control)');
        const sent = await network.broadcast(serialized);
        if (happens(AGENT_STATES.transferFails)) failing.add(sent.hash.toLowerCase());
        return sent;
      },
      status: async (hash: Parameters<typeof network.status>[0]) => {
        if (unreachable || happens(AGENT_STATES.statusReadFails)) throw new Error('stablecoin network unreachable (test control)');
        if (happens(AGENT_STATES.transferPending)) return 'pending' as const;
        const status = await network.status(hash);
        return failing.has(hash.toLowerCase()) && status !== 'pending' ? ('failed' as const) : status;
      },
    };
    const locations = stablecoin.locations;
    const walletCaps = stablecoin.walletCaps;
    const paid = this.walletPaid;
    return {
      config: { ...config, stablecoin: offer },
      ports: {
        ...ports,
        stablecoin: {
          ...stablecoin,
          network: scopedNetwork,
          locations: {
            locate: (wallet) => {
              if (happens(AGENT_STATES.walletUnplaced)) return undefined;
              return has(AGENT_STATES.walletPlaced) ? OPEN_MARKET : locations.locate(wallet);
            },
          },
          walletCaps: has(AGENT_STATES.walletCapOne)
            ? {
                count: (wallet, day, hash, amount, cap) => {
                  const first = paid.get(buyer) ?? hash;
                  paid.set(buyer, first);
                  return first === hash ? walletCaps.count(wallet, day, hash, amount, cap) : 'over-cap';
                },
                release: (hash) => walletCaps.release(hash),
              }
            : walletCaps,
        },
      },
    };
  }

  /** Counts the agent's requests as they arrive, and lets a slow call waiting for the next one go on. */
  private arrived(agent: string): number {
    const arrival = (this.arrivals.get(agent) ?? 0) + 1;
    this.arrivals.set(agent, arrival);
    for (const go of this.slowCalls.get(agent)?.splice(0) ?? []) go();
    return arrival;
  }

  /**
   * A call under call-slow runs until a later request of its agent is in flight: at once (a turn of the event loop)
   * when one arrived already, else until the next arrives or SLOW_CALL_MS pass. In-process two requests at once are in
   * flight together; over HTTP the second may still be on its way.
   */
  private async slowCall(agent: string, arrival: number): Promise<void> {
    if ((this.arrivals.get(agent) ?? 0) > arrival) return new Promise((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SLOW_CALL_MS);
      const waiting = this.slowCalls.get(agent) ?? [];
      waiting.push(() => {
        clearTimeout(timer);
        setImmediate(resolve);
      });
      this.slowCalls.set(agent, waiting);
    });
  }

  /** What the states of the client's address make of the single-call offer (the address is the deployment's view of the client). */
  private addressScoped(clientAddress: string | undefined, saleOffer: SingleCallOffer): SingleCallOffer {
    const states = clientAddress === undefined ? undefined : this.addresses.get(clientAddress);
    if (!states?.size) return saleOffer;
    let offer = saleOffer;
    if (states.has(ADDRESS_STATES.unidentifiedCallsClosed)) offer = { ...offer, anonymous: false };
    if (states.has(ADDRESS_STATES.addressCapOne)) offer = { ...offer, caps: { ...offer.caps, ipPerDay: 1 } };
    return offer;
  }

  /**
   * The purchase machine as the request of `buyer` from `clientAddress` sees it: `view` itself unless a state of the
   * buyer or of the address changes it.
   */
  scoped(buyer: string | null, view: PurchaseView, clientAddress?: string): ScopedPurchases {
    const states = buyer === null ? undefined : this.agents.get(buyer);
    const armed = buyer === null ? undefined : this.armed.get(buyer);
    const saleOfferOfAddress = this.addressScoped(clientAddress, view.saleOffer);
    if (!states?.size && !armed?.size && this.lostAnswers.size === 0 && saleOfferOfAddress === view.saleOffer) return view;
    const has = (state: AgentState) => states?.has(state) ?? false;
    /** Whether an armed once-state happens now (and is spent). */
    const happens = (state: AgentState): boolean => {
      const left = armed?.get(state) ?? 0;
      if (left > 0) armed!.set(state, left - 1);
      return left > 0;
    };
    let config = view.config;
    let ports = view.ports;
    let saleOffer = saleOfferOfAddress;
    let salePorts = view.salePorts;
    const arrival = buyer === null ? 0 : this.arrived(buyer);
    if (this.lostAnswers.size) {
      const processor = ports.processor;
      const lost = this.lostAnswers;
      ports = {
        ...ports,
        processor: withMethod(processor, 'charge', async (...args: unknown[]) => {
          const [token] = args as [string];
          const reply = await (processor.charge as (...a: unknown[]) => unknown)(...args);
          if (lost.delete(token)) throw new Error("the processor's answer was lost (test control)");
          return reply;
        }),
      };
    }
    if (has(AGENT_STATES.termsChanged)) config = { ...config, terms: { ...config.terms, version: `${config.terms.version}-next` } };
    if (has(AGENT_STATES.callCapsOne)) saleOffer = { ...saleOffer, caps: { ...saleOffer.caps, principalPerDay: 1, instrumentPerDay: 1 } };
    if (has(AGENT_STATES.principalCapOne)) saleOffer = { ...saleOffer, caps: { ...saleOffer.caps, principalPerDay: 1 } };
    if (has(AGENT_STATES.cardCapOne)) {
      saleOffer = { ...saleOffer, caps: { ...saleOffer.caps, instrumentPerDay: 1 } };
      salePorts = { ...salePorts, cards: { instrumentOf: () => `card-of:${buyer}` } };
    }
    if (has(AGENT_STATES.platformCeilingOne)) {
      saleOffer = { ...saleOffer, caps: { ...saleOffer.caps, platformPerDay: 1 } };
      // The agent's purchases count on a platform counter of their own: other checks' purchases never fill it.
      const caps = salePorts.caps;
      const own = (name: string) => (name === CAP_COUNTERS.platform ? `${name}:${buyer}` : name);
      salePorts = {
        ...salePorts,
        caps: {
          take: (counters, day) =>
            caps.take(
              counters.map((c) => ({ ...c, name: own(c.name) })),
              day,
            ),
          release: (names, day) => caps.release(names.map(own), day),
        },
      };
    }
    if (has(AGENT_STATES.callCardMarketElsewhere)) saleOffer = { ...saleOffer, cardCountries: [ELSEWHERE_MARKET] };
    if (has(AGENT_STATES.callCurrencyChanged))
      saleOffer = { ...saleOffer, price: { ...saleOffer.price, currency: saleOffer.price.currency.toLowerCase() === 'eur' ? 'usd' : 'eur' } };
    if (has(AGENT_STATES.callBalanceCostChanged)) saleOffer = { ...saleOffer, priceNano: String(BigInt(saleOffer.priceNano) + 1n) };
    if (has(AGENT_STATES.callCostsOneCredit)) saleOffer = { ...saleOffer, priceNano: config.pack.creditNano };
    if (has(AGENT_STATES.callRepriced))
      saleOffer = {
        ...saleOffer,
        price: { ...saleOffer.price, amount: String(Number(saleOffer.price.amount) + 1) },
        priceNano: String(BigInt(saleOffer.priceNano) + 1n),
        ...(saleOffer.stablecoinAmount === undefined ? {} : { stablecoinAmount: String(BigInt(saleOffer.stablecoinAmount) + 1n) }),
      };
    ({ config, ports } = this.stablecoinScoped(buyer, config, ports, has, happens));
    if (armed?.size) {
      const grantFails = () => happens(AGENT_STATES.grantFails);
      ports = { ...ports, store: failingGrants(failingWhen(ports.store, 'grant', grantFails, 'grant store unavailable'), grantFails) };
    }
    if (armed?.size || has(AGENT_STATES.callSlow) || has(AGENT_STATES.callEchoes)) {
      const server = salePorts.server;
      salePorts = {
        ...salePorts,
        server: {
          serve: async (call) => {
            if (happens(AGENT_STATES.callNotStarted)) return { outcome: 'not-started' };
            if (happens(AGENT_STATES.callCrashes)) throw new Error('the resource crashed (test control)');
            if (happens(AGENT_STATES.callFails)) return { outcome: 'failed', response: FAILED_CALL };
            if (has(AGENT_STATES.callSlow)) await this.slowCall(buyer!, arrival);
            const served = await server.serve(call);
            if (served.outcome !== 'served') return served;
            if (happens(AGENT_STATES.callAnswersMultipleChoices)) return { outcome: 'served', response: { ...served.response, status: 300 } };
            if (has(AGENT_STATES.callEchoes))
              return {
                outcome: 'served',
                response: { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: call.body ?? new Uint8Array() },
              };
            return served;
          },
        },
      };
    }
    if (has(AGENT_STATES.mppDisabled)) config = { ...config, mppEnabled: false };
    if (has(AGENT_STATES.purchasesDisabled)) config = { ...config, purchasesOpen: false };
    if (has(AGENT_STATES.ownerlessAtCap)) {
      config = { ...config, ownerlessBalanceCapNano: '0' };
      ports = { ...ports, buyers: { hasOwner: () => false } };
    }
    if (has(AGENT_STATES.ownedAtZeroCap)) {
      config = { ...config, ownerlessBalanceCapNano: '0' };
      ports = { ...ports, buyers: { hasOwner: () => true } };
    }
    if (has(AGENT_STATES.ownerlessBelowCap)) {
      config = { ...config, ownerlessBalanceCapNano: String(10n ** 30n) };
      ports = { ...ports, buyers: { hasOwner: () => false } };
    }
    if (has(AGENT_STATES.lockUnavailable))
      ports = {
        ...ports,
        lock: {
          acquire: () => {
            throw new Error('lock service unavailable (test control)');
          },
        },
      };
    if (has(AGENT_STATES.purchaseInFlight)) ports = { ...ports, lock: { acquire: () => null } };
    if (has(AGENT_STATES.termsRecordFailed)) ports = { ...ports, store: failingWhen(ports.store, 'recordAssent', () => true, 'terms store unavailable') };
    if (has(AGENT_STATES.cardCountryUnknown)) ports = { ...ports, processor: withMethod(ports.processor, 'instrumentCountry', () => undefined) };
    if (has(AGENT_STATES.marketClosed)) {
      // The agent's card is placed in a market of its own, which is closed.
      ports = { ...ports, processor: withMethod(ports.processor, 'instrumentCountry', () => CLOSED_MARKET) };
      if (ports.stablecoin) ports = { ...ports, stablecoin: { ...ports.stablecoin, locations: { locate: () => CLOSED_MARKET } } };
      config = { ...config, closedMarkets: [...(config.closedMarkets ?? []), CLOSED_MARKET] };
    }
    if (has(AGENT_STATES.buyerInactive)) salePorts = { ...salePorts, accounts: { isActiveAgent: (account) => account !== buyer } };
    if (has(AGENT_STATES.callCardClosed)) saleOffer = { ...saleOffer, cardOpen: false };
    if (has(AGENT_STATES.fundingFails) || armed?.get(AGENT_STATES.fundingFailsOnce)) {
      const fails = () => has(AGENT_STATES.fundingFails) || happens(AGENT_STATES.fundingFailsOnce);
      salePorts = { ...salePorts, funding: failingWhen(salePorts.funding, 'hold', fails, 'funding step failed') };
    }
    // The sale shares the purchase machine's ports: what changed there changes there too.
    salePorts = { ...salePorts, ...ports };
    return { config, ports, saleOffer, salePorts };
  }
}
