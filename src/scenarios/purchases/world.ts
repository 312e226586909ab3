import type { PurchaseConfig, SaleConfig, SalePorts } from '../../purchase/index.js';
import {
  FakeCardInstruments,
  FakeCardProcessor,
  FakeStablecoinNetwork,
  FixedWalletLocations,
  ManualClock,
  MemoryAgentAccounts,
  MemoryBuyerDirectory,
  MemoryCapCounters,
  MemoryFunding,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  MemorySaleStore,
  MemoryTransferStore,
  MemoryWalletCaps,
  ScriptedCallServer,
  SeededRandom,
} from '../../purchase/testing/index.js';
import type { Hex } from '../../purchase/machine/tempo/index.js';
import type { Deployment, InitialState, Ledger } from './types.js';

/** A processor whose refunds may fault (a failed single call refunded onto the balance). */
class VectorProcessor extends FakeCardProcessor {
  refundFails = false;
  override refund(chargeId: string) {
    if (this.refundFails) throw new Error('card processor cannot refund');
    return super.refund(chargeId);
  }
}

/** Every port of the purchase machine and of a priced resource in memory, built from a case's deployment and starting state. */
export class VectorWorld {
  readonly clock: ManualClock;
  readonly store = new MemoryPurchaseStore();
  readonly lock = new MemoryPurchaseLock();
  readonly buyers = new MemoryBuyerDirectory();
  readonly processor = new VectorProcessor();
  readonly network = new FakeStablecoinNetwork();
  readonly transfers = new MemoryTransferStore();
  readonly walletCaps = new MemoryWalletCaps();
  readonly locations = new FixedWalletLocations();
  readonly sales = new MemorySaleStore();
  readonly funding = new MemoryFunding((payer) => this.store.balance(payer));
  readonly caps = new MemoryCapCounters();
  readonly cards = new FakeCardInstruments();
  readonly accounts = new MemoryAgentAccounts();
  readonly server = new ScriptedCallServer();
  readonly ports: SalePorts;
  deployment: Deployment;

  constructor(deployment: Deployment, initial: InitialState) {
    this.deployment = deployment;
    this.clock = new ManualClock(initial.clock);
    this.ports = {
      clock: this.clock,
      random: new SeededRandom(initial.randomSeed),
      processor: this.processor,
      store: this.store,
      lock: this.lock,
      buyers: this.buyers,
      stablecoin: { network: this.network, transfers: this.transfers, walletCaps: this.walletCaps, locations: this.locations },
      sales: this.sales,
      funding: this.funding,
      caps: this.caps,
      cards: this.cards,
      accounts: this.accounts,
      server: this.server,
    };
    for (const agent of initial.ownerless ?? []) this.buyers.ownerless.add(agent);
    for (const agent of initial.inactiveAgents ?? []) this.accounts.inactive.add(agent);
    for (const [token, country] of Object.entries(initial.cardCountries ?? {})) this.processor.countries.set(token, country ?? undefined);
    this.processor.defaultCountry = initial.defaultCardCountry ?? undefined;
    for (const [token, card] of Object.entries(initial.cardInstruments ?? {})) this.cards.cards.set(token, card ?? undefined);
    this.cards.unknownByDefault = initial.unknownCardsByDefault === true;
    for (const [address, country] of Object.entries(initial.walletLocations ?? {})) this.locations.place(address as Hex, country);
  }

  /** The machine's config for the deployment as it stands now. */
  config(): PurchaseConfig | SaleConfig {
    return configOf(this.deployment);
  }

  ledger(agents: readonly string[]): Ledger {
    return {
      charges: this.processor.charges.size,
      transfers: this.network.broadcastHashes().length,
      callsRun: this.server.ran.length,
      credited: Object.fromEntries(agents.map((agent) => [agent, this.store.balance(agent)])),
    };
  }
}

/** The machine's PurchaseConfig (and SaleConfig when the deployment sells single calls) for a JSON deployment. */
function configOf(d: Deployment): PurchaseConfig | SaleConfig {
  const base: PurchaseConfig = {
    realm: d.realm,
    problemBases: d.problemBases,
    terms: d.terms,
    mppEnabled: d.mppEnabled,
    purchasesOpen: d.purchasesOpen,
    pack: d.pack,
    challengeSecret: Buffer.from(d.challengeSecretHex, 'hex'),
    retryAfterSeconds: d.retryAfterSeconds,
    ...(d.closedMarkets === undefined ? {} : { closedMarkets: d.closedMarkets }),
    ...(d.ownerlessBalanceCapNano === undefined ? {} : { ownerlessBalanceCapNano: d.ownerlessBalanceCapNano }),
    ...(d.ownerKeys === undefined ? {} : { ownerKeys: d.ownerKeys }),
    ...(d.stablecoin === undefined
      ? {}
      : { stablecoin: { ...d.stablecoin, token: d.stablecoin.token as Hex, depositAddress: d.stablecoin.depositAddress as Hex } }),
  };
  return d.sale === undefined ? base : { ...base, sale: d.sale };
}

/** Members of `set` replace the deployment's; objects merge member by member; null removes a member. */
export function mergeDeployment(deployment: Deployment, set: Readonly<Record<string, unknown>>): Deployment {
  return merge(deployment as unknown as Record<string, unknown>, set) as unknown as Deployment;
}

function merge(target: Record<string, unknown>, set: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(set)) {
    const current = out[key];
    if (value === null) delete out[key];
    else if (isPlainObject(value) && isPlainObject(current)) out[key] = merge(current, value);
    else out[key] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
