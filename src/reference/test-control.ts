import { AGENT_STATES, TOKEN_STATES, type AgentState, type ControlRequest } from '../contract/test-control.js';
import type { PurchaseConfig, PurchasePorts, SingleCallOffer, SalePorts } from '../purchase/index.js';

/**
 * The reference's side of the test control (src/contract/test-control.ts, `serve --test-control`): the states a run
 * puts it into, each scoped to one agent or one token. A state is never global: it changes only the view of the
 * purchase machine that one agent's requests see (its configuration and ports for that request), so checks running
 * side by side never meet each other's states.
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
function withMethod<T extends object>(object: T, method: string, answer: (...args: unknown[]) => unknown): T {
  return new Proxy(object, {
    get(target, property) {
      if (property === method) return answer;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A user-assigned ISO 3166 code: the market `market-closed` places an agent's card in. */
const CLOSED_MARKET = 'ZZ';

export class ReferenceTestControl {
  private readonly agents = new Map<string, Set<AgentState>>();
  /** The verifier's blocked list (5.2 agent_blocked): the deployment's own, then the agents a run asked to be blocked. */
  private readonly blockedAgents: string[] = [];

  /** The list the verifier reads on every request, starting from the deployment's own blocked agents. */
  blocking(own: readonly string[]): readonly string[] {
    this.blockedAgents.push(...own);
    return this.blockedAgents;
  }

  /** Puts the deployment into the state asked for. */
  async apply(request: ControlRequest, processor: ProcessorMoves | undefined): Promise<void> {
    if ('agent' in request) {
      const states = this.agents.get(request.agent) ?? new Set<AgentState>();
      states.add(request.state);
      this.agents.set(request.agent, states);
      if (request.state === AGENT_STATES.agentBlocked && !this.blockedAgents.includes(request.agent)) this.blockedAgents.push(request.agent);
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

  /** The purchase machine as `buyer`'s request sees it: `view` itself unless a state of the buyer changes it. */
  scoped(buyer: string | null, view: PurchaseView): ScopedPurchases {
    const states = buyer === null ? undefined : this.agents.get(buyer);
    if (!states?.size) return view;
    const has = (state: AgentState) => states.has(state);
    let config = view.config;
    let ports = view.ports;
    let saleOffer = view.saleOffer;
    let salePorts = view.salePorts;
    if (has(AGENT_STATES.mppDisabled)) config = { ...config, mppEnabled: false };
    if (has(AGENT_STATES.purchasesDisabled)) config = { ...config, purchasesOpen: false };
    if (has(AGENT_STATES.ownerlessAtCap)) {
      config = { ...config, ownerlessBalanceCapNano: '0' };
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
    if (has(AGENT_STATES.termsRecordFailed))
      ports = {
        ...ports,
        store: withMethod(ports.store, 'recordAssent', () => {
          throw new Error('terms store unavailable (test control)');
        }),
      };
    if (has(AGENT_STATES.cardCountryUnknown)) ports = { ...ports, processor: withMethod(ports.processor, 'instrumentCountry', () => undefined) };
    if (has(AGENT_STATES.marketClosed)) {
      // The agent's card is placed in a market of its own, which is closed.
      ports = { ...ports, processor: withMethod(ports.processor, 'instrumentCountry', () => CLOSED_MARKET) };
      config = { ...config, closedMarkets: [...(config.closedMarkets ?? []), CLOSED_MARKET] };
    }
    if (has(AGENT_STATES.buyerInactive)) salePorts = { ...salePorts, accounts: { isActiveAgent: (account) => account !== buyer } };
    if (has(AGENT_STATES.callCardClosed)) saleOffer = { ...saleOffer, cardOpen: false };
    if (has(AGENT_STATES.fundingFails))
      salePorts = {
        ...salePorts,
        funding: withMethod(salePorts.funding, 'hold', () => {
          throw new Error('funding step failed (test control)');
        }),
      };
    // The sale shares the purchase machine's ports: what changed there changes there too.
    salePorts = { ...salePorts, ...ports };
    return { config, ports, saleOffer, salePorts };
  }
}
