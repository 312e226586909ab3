import { randomBytes } from 'node:crypto';
import {
  saleRoute,
  type SaleCaller,
  type SalePorts,
  type SingleCallOffer,
  type StablecoinOffer,
  decidePurchase,
  type Funding,
  type PurchaseLock,
  type PurchaseStore,
  type SaleStore,
  type ChargeAmount,
  type ChargeOutcome,
  type ChargeReply,
  type Clock,
  type PurchaseConfig,
  type PurchasePorts,
  PACK_GUARDS,
  SALE_GUARDS,
  settleReported,
  type PackGuard,
  type SaleGuard,
  type SettlementResult,
  type CapCounters,
  type StablecoinNetwork,
  type TransferStore,
  type WalletDailyCaps,
} from '../purchase/index.js';
import {
  FakeCardInstruments,
  FakeCardProcessor,
  FakeStablecoinNetwork,
  FixedWalletLocations,
  MemoryAgentAccounts,
  MemoryCapCounters,
  MemoryFunding,
  MemorySaleStore,
  MemoryTransferStore,
  MemoryWalletCaps,
  ScriptedCallServer,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  type FakeChargeState,
} from '../purchase/testing/index.js';
import { testTokenOutcome, type TestTokenOutcome } from '../contract/test-tokens.js';
import { AUTH_CODES } from '../spec/auth-errors.js';
import { PAYMENT_METHODS, PURCHASE_KINDS } from '../spec/payments.js';
import { DEFAULT_PROBLEM_BASES, type ProblemBases } from '../spec/problem-types.js';
import { PLATFORM_ROUTES } from '../spec/wire.js';
import type { SignatureAcceptance, Verdict, VerifierConfig } from '../verifier/types.js';
import { verifyRequest } from '../verifier/verify-request.js';
import { render } from './render.js';
import type { PublicRoute, RouteContext, VerifiedRoute } from './routes.js';
import type { BalancePort } from './paid/balance-port.js';
import {
  PurchasedBalanceLedger,
  agentSocketRoute,
  createDelegate,
  llmChatCompletionsRoute,
  machineChallengeIssuer,
  type Delegate,
  type DelegateOptions,
} from './paid/index.js';
import type { SocketRoute } from './upgrade.js';
import type { ReferenceTestControl, ScopedPurchases } from './test-control.js';
import { AGENT_STATES } from '../contract/test-control.js';

/** What each test token outcome (src/contract/test-tokens.ts) makes the reference's card processor answer. */
const TEST_OUTCOMES: Readonly<Record<TestTokenOutcome, ChargeOutcome>> = {
  settled: 'settled',
  declined: 'declined',
  processing: 'processing',
  unknown: 'unknown',
  cancelled: 'cancelled-unsettled',
};

/** The reference deployment's card processor: in memory, charging test tokens with the outcome they name. */
class TestTokenCardProcessor extends FakeCardProcessor {
  override charge(token: string, amount: ChargeAmount, idempotencyKey: string): ChargeReply {
    const named = testTokenOutcome(token);
    if (named !== undefined && this.chargeFor(idempotencyKey) === undefined) this.enqueue(TEST_OUTCOMES[named]);
    return super.charge(token, amount, idempotencyKey);
  }

  /** The id of the charge a token paid, if the processor ever charged it. */
  chargeIdOf(token: string): string | undefined {
    for (const charge of this.charges.values()) if (charge.token === token) return charge.chargeId;
    return undefined;
  }
}

/**
 * How the reference's paid routes take a request from the platform's verifier (4.7, 7.4). The defaults are the
 * spec's: the platform's own verifier, and only the header fields a signature covers. The self-test's mutants
 * replace them (a paid surface verifying on its own terms, or trusting fields no signature covers).
 */
export interface PaidRoutePolicy {
  /** The verifier configuration the paid routes verify with (the platform's own by default). */
  readonly verifierConfig: (platform: VerifierConfig) => VerifierConfig;
  /** The header fields of a verified signed request the paid routes trust: the covered ones (7.4). */
  readonly trusted: (acceptance: SignatureAcceptance, request: Request) => readonly string[];
}

const SPEC_ROUTE_POLICY: PaidRoutePolicy = Object.freeze({
  verifierConfig: (platform: VerifierConfig) => platform,
  trusted: (acceptance: SignatureAcceptance) => acceptance.coveredFields,
});

/** A settlement report of the card processor: the charge, and the token it was paid with when the processor names it. */
export interface SettlementReport {
  readonly chargeId: string;
  readonly token?: string;
}

/** The records a deployment keeps of its purchases: in memory by default, or in a database a fleet shares (src/stores/). */
export interface PurchaseStores {
  readonly store: PurchaseStore;
  readonly lock: PurchaseLock;
  readonly sales: SaleStore;
  /** The single-call funding step over `store`'s balances. */
  readonly funding: Funding;
  /** Stablecoin transfer records; kept in memory by the reference when absent. */
  readonly transfers?: TransferStore;
  /** The per-wallet daily totals (7.4 wallet_daily_cap); in memory when absent. */
  readonly walletCaps?: WalletDailyCaps;
  /** The single-call sales' daily counters (7.4 metered caps); in memory when absent. */
  readonly caps?: CapCounters;
  /** What the paid rails spend of `store`'s balances; kept in memory over `store` when absent. */
  readonly ledger?: BalancePort;
  /** The stand-in stablecoin network, one for every instance as a chain is; FakeStablecoinNetwork in memory when absent. */
  readonly network?: StablecoinNetwork;
}

/** The in-memory stores, with their fault switches. */
export interface MemoryPurchaseStores extends PurchaseStores {
  readonly store: MemoryPurchaseStore;
  readonly lock: MemoryPurchaseLock;
  readonly sales: MemorySaleStore;
  readonly funding: MemoryFunding;
}

/**
 * Makes the stores of a deployment. `referencedElsewhere` says whether a record the deployment keeps in memory (a
 * stablecoin transfer, when the stores keep none) refers to a challenge, which the purchase store must then not forget.
 */
export type PurchaseStoresFactory<T extends PurchaseStores> = (context: {
  readonly clock: Clock;
  readonly referencedElsewhere: (challengeId: string) => boolean;
}) => T;

function memoryPurchaseStores(context: Parameters<PurchaseStoresFactory<MemoryPurchaseStores>>[0]): MemoryPurchaseStores {
  const sales = new MemorySaleStore();
  const store = new MemoryPurchaseStore({ clock: context.clock, referencedElsewhere: (id) => context.referencedElsewhere(id) || sales.sale(id) !== undefined });
  return { store, lock: new MemoryPurchaseLock(), sales, funding: new MemoryFunding((payer) => store.balance(payer)) };
}

/** The purchase machine of a reference deployment: its ports (in memory, faults switchable, unless stores were given) and its configuration. */
export interface ReferencePurchases<T extends PurchaseStores = MemoryPurchaseStores> {
  readonly ports: PurchasePorts;
  readonly processor: TestTokenCardProcessor;
  readonly store: T['store'];
  readonly lock: T['lock'];
  readonly buyers: MemoryBuyerDirectory;
  /** The stablecoin network and its records (the `tempo` method), faults switchable. */
  readonly stablecoin: ReferenceStablecoin;
  /** The priced single-call resource's own ports (sales, funding, caps, the resource itself). */
  readonly sale: ReferenceSale<T>;
  /** Read on every request: a test may replace members between requests (switches, terms version). */
  config: PurchaseConfig;
  /** The single-call offer of the priced resources, read on every call. */
  saleOffer: SingleCallOffer;
  /** The orders of guards the paid routes decide by (PACK_GUARDS, SALE_GUARDS), read on every request. */
  guards: { pack: readonly PackGuard[]; sale: readonly SaleGuard[] };
  /** How the paid routes take a request from the verifier, read on every request. */
  routes: PaidRoutePolicy;
  /** The deployment's intake of the card processor's settlement reports (its webhook; section 3 last row), read on every report. */
  settlementIntake: (report: SettlementReport) => Promise<SettlementResult>;
  /**
   * The card processor, on its own (the test control's token states): the charge a token paid reaches `state` at the processor. With
   * `report` the processor then tells the deployment, as its settlement webhook would (through `settlementIntake`);
   * a token it never charged for a purchase is reported as a capture matching nothing sold. The intake's word.
   */
  processorFinishes(token: string, state: FakeChargeState, report?: boolean): Promise<SettlementResult | undefined>;
  /** `serve --test-control`: the states a run put agents in, which change what their paid requests see. */
  testControl?: ReferenceTestControl;
  /** Agents whose funded turns on the agent socket fail while they run (the test control's turn-fails; a test adds them in process). */
  readonly failingTurns: Set<string>;
  /** The balance the paid rails spend (4.2, 6, 4.7): what the purchase machine credited, minus what the rails spent. */
  readonly ledger: BalancePort;
  /**
   * Whether the deployment sells usage to `buyer` now (section 6: the rails' pointer holds an mpp entry only "where
   * the deployment sells usage at all"): buying is open for it. Read on every pointer.
   */
  sellsUsage: (buyer: string | null) => boolean;
  /**
   * The MCP delegate operation (4.7): how it is composed from its balance, price and call (read when the rails are
   * built), and every call it ran, in order (in-process, a check reads that a call answered balance_required did not run).
   */
  readonly delegate: { compose: (options: DelegateOptions) => Delegate; readonly ran: unknown[] };
}

/** The purchase machine as `buyer`'s request sees it: the deployment's own, unless the test control scoped a state to the buyer. */
function scopedView(purchases: ReferencePurchases<PurchaseStores>, buyer: string | null, clientAddress?: string): ScopedPurchases {
  const view = { config: purchases.config, ports: purchases.ports, saleOffer: purchases.saleOffer, salePorts: purchases.sale.ports };
  return purchases.testControl ? purchases.testControl.scoped(buyer, view, clientAddress) : view;
}

export interface ReferenceStablecoin {
  /** A FakeStablecoinNetwork (faults switchable) unless the stores keep the network. */
  readonly network: StablecoinNetwork;
  readonly transfers: TransferStore;
  readonly walletCaps: WalletDailyCaps;
  readonly locations: FixedWalletLocations;
}

export interface ReferenceSale<T extends PurchaseStores = MemoryPurchaseStores> {
  readonly ports: SalePorts;
  readonly sales: T['sales'];
  readonly caps: CapCounters;
  readonly cards: FakeCardInstruments;
  readonly accounts: MemoryAgentAccounts;
  readonly server: ScriptedCallServer;
}

/**
 * The reference deployment's priced single-call resource (7.4 single-call sales). It is not a path of the
 * spec, which names no priced resource; it answers `{"served": n}` once bought.
 */
export const REFERENCE_PRICED_PATH = '/api/priced/echo';
/** A second priced resource selling the same call, so that a challenge one issued can be presented at the other (7.4 challenge_origin_mismatch). */
export const REFERENCE_OTHER_PRICED_PATH = '/api/priced/echo-again';

/**
 * The reference stablecoin offer: a Tempo testnet chain, a TIP-20 token and a deposit address of the
 * reference's own (test values, never a real wallet). The pack's price in base units (6 decimals: 5.00).
 */
const REFERENCE_STABLECOIN: StablecoinOffer = Object.freeze({
  chainId: 42431,
  token: '0x20c0000000000000000000000000000000000001',
  depositAddress: '0x7e57000000000000000000000000000000000001',
  amount: '5000000',
  sellsToUnplaceableBuyers: true,
});

export interface ReferencePurchasesOptions<T extends PurchaseStores = MemoryPurchaseStores> {
  /** The platform origin: the realm is its host, the terms live under it. */
  readonly origin: string;
  readonly clock: Clock;
  readonly config?: Partial<PurchaseConfig>;
  /** The stores; in memory when absent. */
  readonly stores?: PurchaseStoresFactory<T>;
}

/** The reference terms version; a deployment moves it when its terms change. */
export const REFERENCE_TERMS_VERSION = '2026-07-31';
/** Where the reference deployment publishes its terms of service. */
export const REFERENCE_TERMS_PATH = '/doc/terms-of-service';

/** Where the reference deployment publishes its problem types: {problems_url} under its origin, {payment_problems_url} the Payment scheme's. */
export function referenceProblemBases(origin: string): ProblemBases {
  return { ...DEFAULT_PROBLEM_BASES, problems: `${new URL(origin).origin}/problems` };
}

/** The reference deployment's {terms_url}. */
export function referenceTermsUrl(origin: string): string {
  return `${new URL(origin).origin}${REFERENCE_TERMS_PATH}`;
}

export function createReferencePurchases<T extends PurchaseStores = MemoryPurchaseStores>(options: ReferencePurchasesOptions<T>): ReferencePurchases<T> {
  const origin = new URL(options.origin);
  const processor = new TestTokenCardProcessor();
  let memoryTransfers: MemoryTransferStore | undefined;
  // Without a factory T is its default, the memory stores (TypeScript cannot tie the two).
  const stores = (options.stores ?? (memoryPurchaseStores as PurchaseStoresFactory<PurchaseStores> as PurchaseStoresFactory<T>))({
    clock: options.clock,
    referencedElsewhere: (id) => memoryTransfers?.transferOf(id) !== undefined,
  });
  const { store, lock, sales, funding } = stores;
  // What the stores do not keep is kept here, in this process.
  const transfers = stores.transfers ?? (memoryTransfers = new MemoryTransferStore());
  const buyers = new MemoryBuyerDirectory();
  const stablecoin: ReferenceStablecoin = {
    network: stores.network ?? new FakeStablecoinNetwork(),
    transfers,
    walletCaps: stores.walletCaps ?? new MemoryWalletCaps(),
    locations: new FixedWalletLocations(),
  };
  const ports: PurchasePorts = { clock: options.clock, random: { bytes: (n) => new Uint8Array(randomBytes(n)) }, processor, store, lock, buyers, stablecoin };
  const config: PurchaseConfig = {
    realm: origin.host,
    problemBases: referenceProblemBases(origin.origin),
    terms: { url: referenceTermsUrl(origin.origin), version: REFERENCE_TERMS_VERSION },
    mppEnabled: true,
    purchasesOpen: true,
    pack: { packId: 'mpp_5', price: { amount: '500', currency: 'usd' }, creditNano: '5000000000', networkId: 'profile_reference' },
    challengeSecret: new Uint8Array(randomBytes(32)),
    stablecoin: REFERENCE_STABLECOIN,
    ...options.config,
  };
  const caps = stores.caps ?? new MemoryCapCounters();
  const cards = new FakeCardInstruments();
  const accounts = new MemoryAgentAccounts();
  const server = new ScriptedCallServer();
  const sale: ReferenceSale<T> = {
    ports: { ...ports, sales, funding, caps, cards, accounts, server },
    sales,
    caps,
    cards,
    accounts,
    server,
  };
  const saleOffer: SingleCallOffer = {
    resource: REFERENCE_PRICED_PATH,
    offerId: 'call_echo',
    price: { amount: '25', currency: 'usd' },
    priceNano: '250000000',
    // Card first: a caller naming no method gets a card challenge; one preferring tempo gets a stablecoin one.
    methods: [PAYMENT_METHODS.stripe, PAYMENT_METHODS.tempo],
    cardOpen: true,
    stablecoinAmount: '250000',
    anonymous: true,
    defaultKind: PURCHASE_KINDS.exact,
    caps: { principalPerDay: 20, ipPerDay: 20, instrumentPerDay: 20, platformPerDay: 1000 },
  };
  let strays = 0;
  const purchases: ReferencePurchases<T> = {
    ports,
    processor,
    store,
    lock,
    buyers,
    stablecoin,
    sale,
    config,
    saleOffer,
    guards: { pack: PACK_GUARDS, sale: SALE_GUARDS },
    routes: SPEC_ROUTE_POLICY,
    failingTurns: new Set<string>(),
    ledger: stores.ledger ?? new PurchasedBalanceLedger(store),
    sellsUsage: (buyer) => scopedView(purchases, buyer).config.mppEnabled,
    delegate: { compose: createDelegate, ran: [] },
    settlementIntake: (report) => settleReported(report, ports),
    async processorFinishes(token, state, report = false) {
      const chargeId = processor.chargeIdOf(token);
      if (chargeId !== undefined) processor.resolve(chargeId, state);
      if (!report) return undefined;
      return purchases.settlementIntake({ chargeId: chargeId ?? `pi_outside_${++strays}`, token });
    },
  };
  return purchases;
}

/**
 * The priced single-call resource (7.4): public, because an unsigned caller may buy a single call (a 402 sized
 * to the call instead of a 401). A credential that fails to verify is answered as the verifier says.
 */
export function pricedResourceRoute(purchases: ReferencePurchases<PurchaseStores>): PublicRoute {
  const handlers = new Map(
    [REFERENCE_PRICED_PATH, REFERENCE_OTHER_PRICED_PATH].map((resource) => [
      resource,
      saleRoute({
        ports: purchases.sale.ports,
        config: () => ({ ...purchases.config, sale: { ...purchases.saleOffer, resource } }),
        guards: () => purchases.guards.sale,
      }),
    ]),
  );
  return {
    name: REFERENCE_PRICED_PATH,
    path: (pathname) => (handlers.has(pathname) ? {} : null),
    access: 'public',
    methods: {
      POST: async (ctx) => {
        const verdict = await paidVerdict(ctx, purchases);
        const read = await ctx.read();
        const caller: SaleCaller = !verdict.ok
          ? verdict.code === AUTH_CODES.missing_credential
            ? { kind: 'unidentified' }
            : { kind: 'refused', status: verdict.status, headers: verdict.headers, body: verdict.body }
          : verdict.kind === 'signature'
            ? {
                kind: 'agent',
                agentUrl: verdict.agentUrl,
                signed: true,
                coveredHeaders: purchases.routes.trusted(verdict, ctx.request),
                identity: verdict.identifier,
              }
            : verdict.subject === null
              ? { kind: 'unidentified' }
              : { kind: 'agent', agentUrl: verdict.subject, signed: false, coveredHeaders: [] };
        const resource = ctx.url.pathname;
        const scoped = scopedView(purchases, caller.kind === 'agent' ? caller.agentUrl : null, ctx.clientAddress);
        const handle =
          scoped.salePorts === purchases.sale.ports && scoped.config === purchases.config && scoped.saleOffer === purchases.saleOffer
            ? handlers.get(resource)!
            : saleRoute({
                ports: scoped.salePorts,
                config: () => ({ ...scoped.config, sale: { ...scoped.saleOffer, resource } }),
                guards: () => purchases.guards.sale,
              });
        return handle({ request: ctx.request, caller, clientAddress: ctx.clientAddress, body: read.request.body });
      },
    },
  };
}

/**
 * The verifier's verdict on a request to a paid route: the platform's own (7.4: a 401 on a paid surface carries the
 * verifier's error_code and error_description), unless the route policy verifies on other terms.
 */
async function paidVerdict(ctx: RouteContext, purchases: ReferencePurchases<PurchaseStores>): Promise<Verdict> {
  const config = purchases.routes.verifierConfig(ctx.config);
  if (config === ctx.config) return ctx.verify();
  return verifyRequest((await ctx.read()).request, ctx.ports, config);
}

function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers);
}

/**
 * POST /api/mpp/credits (4.7): buys a usage pack. A credential that fails to verify is refused as the
 * verifier says (7.4: a 401 on a paid surface carries the verifier's error_code); a request with no
 * credential at all reaches the machine as unauthenticated (402 with a challenge, or 401
 * terms_acceptance_unauthenticated when it presents a payment credential).
 */
export function mppCreditsRoute(purchases: ReferencePurchases<PurchaseStores>): PublicRoute {
  return {
    name: PLATFORM_ROUTES.mppCredits,
    path: PLATFORM_ROUTES.mppCredits,
    access: 'public',
    methods: {
      POST: async (ctx) => {
        const verdict = await paidVerdict(ctx, purchases);
        if (!verdict.ok && verdict.code !== AUTH_CODES.missing_credential) return render(verdict);
        const buyer = !verdict.ok ? null : verdict.kind === 'signature' ? verdict.agentUrl : verdict.subject;
        const scoped = scopedView(purchases, buyer, ctx.clientAddress);
        const outcome = await decidePurchase(
          {
            buyer: buyer === null ? null : { agentUrl: buyer },
            signed: verdict.ok && verdict.kind === 'signature',
            coveredHeaders: verdict.ok && verdict.kind === 'signature' ? purchases.routes.trusted(verdict, ctx.request) : [],
            headers: headerRecord(ctx.request.headers),
            now: purchases.ports.clock.now(),
          },
          scoped.ports,
          scoped.config,
          purchases.guards.pack,
        );
        return render({ status: outcome.status, headers: outcome.headers, body: outcome.body });
      },
    },
  };
}

/** What the reference deployment charges on its rails, in nano units (the spec shows no prices). */
const REFERENCE_RAIL_PRICES: RailPrices = Object.freeze({ completionNano: 1_000_000n, turnNano: 1_000_000n, delegateCallNano: 1_000_000n });

export interface RailPrices {
  readonly completionNano: bigint;
  readonly turnNano: bigint;
  readonly delegateCallNano: bigint;
}

/**
 * The platform's LLM rails that spend the purchased balance (4.2, 6): POST /api/llm/chat/completions (a
 * pointer to /api/mpp/credits when the balance runs out) and the agent socket at /agents/<name>/uamp
 * (payment.required in band), both over one ledger, plus the MCP delegate that answers balance_required.
 */
export function paidRails(
  purchases: ReferencePurchases<PurchaseStores>,
  origin: string,
  prices: Partial<RailPrices> = {},
): { readonly llm: VerifiedRoute; readonly socket: SocketRoute; readonly delegate: Delegate; readonly ledger: BalancePort } {
  const ledger = purchases.ledger;
  const purchaseUrl = `${origin}${PLATFORM_ROUTES.mppCredits}`;
  const terms = () => purchases.config.terms;
  const price = { ...REFERENCE_RAIL_PRICES, ...prices };
  return {
    ledger,
    llm: llmChatCompletionsRoute({
      balances: ledger,
      priceNano: (payer) => purchases.testControl?.completionPriceNano(payer, price.completionNano, purchases.config.pack.creditNano) ?? price.completionNano,
      purchaseUrl: (payer) => (purchases.sellsUsage(payer) ? purchaseUrl : null),
      terms,
      ...(purchases.config.naming ? { naming: purchases.config.naming } : {}),
    }),
    socket: agentSocketRoute({
      balances: ledger,
      turnPriceNano: price.turnNano,
      purchaseUrl,
      terms,
      issueChallenge: machineChallengeIssuer(
        purchases.ports,
        () => purchases.config,
        () => purchases.guards.pack,
      ),
      runTurn: ({ payer, input }) => {
        if (purchases.failingTurns.has(payer) || purchases.testControl?.holds(payer, AGENT_STATES.turnFails)) throw new Error('the turn failed (turn-fails)');
        return `echo: ${input}`;
      },
    }),
    delegate: purchases.delegate.compose({
      balances: ledger,
      callPriceNano: price.delegateCallNano,
      run: async (call) => {
        purchases.delegate.ran.push(call);
        return { ran: call };
      },
    }),
  };
}
