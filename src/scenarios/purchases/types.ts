import type { ChargeOutcome, PurchaseKind, TransferStatus } from '../../purchase/index.js';
import type { FakeChargeState, ScriptedServe } from '../../purchase/testing/index.js';
import type { PaymentMethodId, RefundState } from '../../spec/payments.js';
import type { ProblemBases } from '../../spec/problem-types.js';

/**
 * The layout of vectors/purchases.json (schema: vectors/schema/purchases.schema.json). A case is a deployment,
 * its starting state and events in order; every presentation and settlement report says what must come back.
 * Everything is plain JSON so an implementation in another language replays it without this code.
 */

export interface PurchaseVectors {
  readonly algorithm: string;
  readonly schema: string;
  readonly generatorVersion: string;
  readonly numberOfTests: number;
  readonly notes: Readonly<Record<string, string>>;
  readonly environment: VectorEnvironment;
  /** 7.4 rows and requirements no sequence reaches, with the reason. */
  readonly unreachable: readonly UnreachableRow[];
  readonly testGroups: readonly PurchaseVectorGroup[];
}

/** What every case shares: how the reference run made its challenge ids and transactions reproducible. */
interface VectorEnvironment {
  readonly randomness: string;
  readonly challengeIds: string;
  readonly wallets: Readonly<Record<string, { readonly privateKey: string; readonly address: string }>>;
  readonly credentialSource: string;
}

export interface UnreachableRow {
  readonly id: string;
  readonly code?: string;
  readonly reason: string;
}

export interface PurchaseVectorGroup {
  readonly comment: string;
  readonly cases: readonly PurchaseCase[];
}

export interface PurchaseCase {
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  /** The method the sequence pays with (the one its rows are counted for). */
  readonly method: PaymentMethodId;
  /** Requirement ids (7.4 rows, section 3 moves) the sequence shows. */
  readonly covers: readonly string[];
  readonly deployment: Deployment;
  readonly initial: InitialState;
  readonly events: readonly PurchaseEvent[];
}

export interface Deployment {
  readonly realm: string;
  readonly problemBases: ProblemBases;
  readonly terms: { readonly url: string; readonly version: string };
  readonly mppEnabled: boolean;
  readonly purchasesOpen: boolean;
  readonly pack: { readonly packId: string; readonly price: Amount; readonly creditNano: string; readonly networkId?: string };
  /** Hex of the HMAC key challenge ids are made with. */
  readonly challengeSecretHex: string;
  readonly retryAfterSeconds: number;
  readonly closedMarkets?: readonly string[];
  readonly ownerlessBalanceCapNano?: string;
  readonly ownerKeys?: readonly string[];
  readonly stablecoin?: StablecoinDeployment;
  readonly sale?: SaleDeployment;
}

interface Amount {
  readonly amount: string;
  readonly currency: string;
}

interface StablecoinDeployment {
  readonly chainId: number;
  readonly token: string;
  readonly depositAddress: string;
  readonly amount: string;
  readonly sellsToUnplaceableBuyers: boolean;
  readonly walletDailyCap?: string;
}

export interface SaleDeployment {
  readonly resource: string;
  readonly offerId: string;
  readonly price: Amount;
  readonly priceNano: string;
  readonly methods: readonly PaymentMethodId[];
  readonly cardOpen: boolean;
  readonly cardCountries?: readonly string[];
  readonly anonymous: boolean;
  readonly defaultKind: PurchaseKind;
  readonly caps: { readonly principalPerDay: number; readonly ipPerDay: number; readonly instrumentPerDay: number; readonly platformPerDay: number };
  readonly fundingRetryAfterSeconds?: number;
}

export interface InitialState {
  /** Clock seconds at the first event. */
  readonly clock: number;
  /** Seed of the randomness (challenge nonces, stablecoin memos, hold keys). */
  readonly randomSeed: string;
  /** Agents without an owner (7.4 ownerless_balance_cap); every other agent has one. */
  readonly ownerless?: readonly string[];
  /** Accounts that are not active agents (7.4 buyer_inactive). */
  readonly inactiveAgents?: readonly string[];
  /** Card country (ISO 3166-1 alpha-2) per shared payment token; null: cannot be established. */
  readonly cardCountries?: Readonly<Record<string, string | null>>;
  /** Country of a token not listed; null: cannot be established. */
  readonly defaultCardCountry: string | null;
  /** Card fingerprint per token (null: unknown); a token not listed is its own card unless unknownCardsByDefault. */
  readonly cardInstruments?: Readonly<Record<string, string | null>>;
  readonly unknownCardsByDefault?: boolean;
  /** Country per paying wallet address; a wallet not listed cannot be placed. */
  readonly walletLocations?: Readonly<Record<string, string>>;
}

export type PurchaseEvent = PresentEvent | AdvanceEvent | ConfigureEvent | ProcessorEvent | NetworkEvent | FaultEvent | ServerEvent | ReportSettledEvent;

export interface Caller {
  /** The authenticated agent URL; null for an unauthenticated caller. */
  readonly agent: string | null;
  /** signature: only covered header fields count; bearer: a platform token, fields count as sent; none. */
  readonly auth: 'signature' | 'bearer' | 'none';
  /** Covered components of the signature (lower-case header names); empty unless signed. */
  readonly covered: readonly string[];
  /** The signing identity (key set URL), counted by 7.4 metered_principal_cap. */
  readonly identity?: string;
  readonly clientAddress: string;
}

/** How a Payment-Authorization value was built, so another implementation builds its own from its own challenge. */
export interface CredentialBuild {
  /** Index of the earlier event whose answer carried the challenge echoed. */
  readonly challengeOf: number;
  /** Members of the echo replaced after echoing (a forged id, another method). */
  readonly echoOverride?: Readonly<Record<string, string>>;
  /** The payload as sent; for a built stablecoin transaction its `signature` is the transaction below. */
  readonly payload: Readonly<Record<string, string>>;
  /** A Tempo transaction signed for the challenge's quote, and how it departs from the quote. */
  readonly transaction?: TransactionBuild;
  /** The credential's source (did:pkh of the paying wallet). */
  readonly source?: string;
}

export interface TransactionBuild {
  /** A wallet of environment.wallets. */
  readonly signer: string;
  readonly amount?: string;
  readonly to?: string;
  readonly memo?: string;
  readonly token?: string;
  /** Seconds; absent: the challenge's expiry. */
  readonly validBefore?: number;
  readonly nonceKey?: string;
}

export interface PresentEvent {
  readonly type: 'present';
  readonly comment?: string;
  /** /api/mpp/credits or the priced resource of deployment.sale. */
  readonly path: string;
  readonly caller: Caller;
  /** Header fields other than Payment-Authorization (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Payment-Authorization: the literal value, and how it was built (absent for a hand-written value). */
  readonly paymentAuthorization?: { readonly value: string; readonly built?: CredentialBuild };
  /** UTF-8 request body of a call to the priced resource. */
  readonly body?: string;
  /** Presentations made while the resource serves this presentation's call (concurrent presentations). */
  readonly whileServing?: readonly PresentEvent[];
  readonly expect: AnswerExpect;
}

export interface AnswerExpect {
  readonly status: number;
  /** problem: RFC 9457 body with a type; error: a 7.4 code body; granted: the pack's 200; call: the resource's own response. */
  readonly answer: 'problem' | 'error' | 'granted' | 'call';
  /** The problem slug or the error code; null for granted and call answers. */
  readonly code: string | null;
  readonly problemType: string | null;
  /** The one Payment challenge riding on the answer (its id is the reference run's, informative), or null. */
  readonly challenge: { readonly method: string; readonly purchase: string; readonly id: string } | null;
  readonly retry: { readonly sameCredential: boolean; readonly credentialHeader?: string } | null;
  /** Retry-After seconds, or null when absent. */
  readonly retryAfter: number | null;
  /** Link and Service-Terms-Version, or null when the answer carries neither. */
  readonly terms: { readonly link: string; readonly version: string } | null;
  /** Body members the row requires: refund (payment_unreconciled), purchase (funding_failed), receipt (409s). */
  readonly body: { readonly refund?: RefundState; readonly purchase?: PurchaseBlock; readonly receipt?: ReceiptRef };
  /** A 200 of the pack: what was credited. */
  readonly granted: { readonly packId: string; readonly balanceNano: string; readonly paymentIntentId: string | null; readonly receipt: ReceiptRef } | null;
  /** The resource's own response to a funded call. */
  readonly call: { readonly status: number; readonly body: string; readonly receipt: ReceiptRef | null } | null;
  /** The reference world after the event: charges the processor created, transfers the network accepted, calls run, balances credited per agent. */
  readonly after: Ledger;
}

export interface ReceiptRef {
  readonly method: string;
  readonly reference: string;
}

export interface PurchaseBlock {
  readonly packId: string;
  readonly balanceNano: string;
  readonly paymentIntentId: string;
  readonly receipt: ReceiptRef;
}

export interface Ledger {
  readonly charges: number;
  readonly transfers: number;
  readonly callsRun: number;
  readonly credited: Readonly<Record<string, string>>;
}

interface AdvanceEvent {
  readonly type: 'advance';
  readonly seconds: number;
}

/** Deployment members replaced from now on (objects merged member by member; null removes a member). */
interface ConfigureEvent {
  readonly type: 'configure';
  readonly comment?: string;
  readonly set: Readonly<Record<string, unknown>>;
}

/** A charge's scripted reply: the processor's answer to the next new charge (`throw`: the call faults). */
type ScriptedChargeJson = ChargeOutcome | 'throw' | { readonly reply: ChargeOutcome | 'throw'; readonly actual?: FakeChargeState; readonly created?: boolean };

interface ProcessorEvent {
  readonly type: 'processor';
  readonly comment?: string;
  /** Replies to the next new charges, in order (default settled). */
  readonly enqueue?: readonly ScriptedChargeJson[];
  /** A charge moves to its final state at the processor. */
  readonly resolve?: { readonly chargeId: string; readonly state: FakeChargeState };
  /** What refunds come to; `fails`: the refund call faults. */
  readonly refunds?: RefundState | 'fails';
}

interface NetworkEvent {
  readonly type: 'network';
  readonly comment?: string;
  readonly unreachable?: boolean;
  /** The next N broadcasts reach nothing. */
  readonly unreachableBroadcasts?: number;
  /** A transfer broadcast from now on reads pending this many times before its final outcome. */
  readonly pendingReads?: number;
  readonly finalOutcome?: Exclude<TransferStatus, 'pending'>;
  /** The transfer ends now; hashOfEvent names the presentation whose transaction it is (informative). */
  readonly resolve?: { readonly hash: string; readonly hashOfEvent?: number; readonly outcome: Exclude<TransferStatus, 'pending'> };
}

interface FaultEvent {
  readonly type: 'fault';
  readonly comment?: string;
  /** The per-buyer purchase lock service is down (true) or back (false). */
  readonly lockUnavailable?: boolean;
  /** Another presentation holds this buyer's lock. */
  readonly holdLock?: string;
  /** Recording terms assent fails (true) or works again (false). */
  readonly assentFails?: boolean;
  /** The next N grants (crediting a balance) fail. */
  readonly grantFailures?: number;
  /** The funding step of a call fails (true) or works again (false). */
  readonly fundingFails?: boolean;
  /** The wallet screening that places wallets is down. */
  readonly walletLocationsUnavailable?: boolean;
}

interface ServerEvent {
  readonly type: 'server';
  /** What the priced resource does with the next calls, in order (default served). */
  readonly enqueue: readonly ScriptedServe[];
}

interface ReportSettledEvent {
  readonly type: 'report-settled';
  readonly comment?: string;
  /** processor: a verified card webhook; network: a watcher of the deposit address. */
  readonly by: 'processor' | 'network';
  readonly chargeId?: string;
  readonly idempotencyKey?: string;
  readonly token?: string;
  readonly hash?: string;
  /** The presentation whose transaction `hash` is (informative). */
  readonly hashOfEvent?: number;
  readonly expect: SettlementExpect;
}

export interface SettlementExpect {
  readonly credited: boolean;
  readonly reason: 'already-credited' | 'unmatched' | 'grant-failed' | null;
  readonly balanceNano: string | null;
  readonly refund: RefundState | null;
  readonly after: Ledger;
}
