import { HEADERS } from '../../spec/headers.js';
import {
  LINK_RELS,
  PAYMENT_CREDENTIAL_HEADER,
  PAYMENT_METHODS,
  PURCHASE_KINDS,
  TEMPO_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_TYPES,
  type PaymentProblemRecord,
} from '../../spec/payments.js';
import { DEFAULT_PROBLEM_BASES, problemTypeUrl } from '../../spec/problem-types.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../../spec/wire.js';
import { quotedString } from '../../purchase/index.js';
import { VECTOR_WALLETS, walletSource } from './credentials.js';
import type { AnswerExpect, Caller, Deployment, InitialState, PurchaseBlock, PurchaseEvent, ReceiptRef, SettlementExpect, TransactionBuild } from './types.js';

/**
 * The words scenarios are written in. A scenario states what each answer must be from the spec's catalogue
 * (status, code, challenge, retry object, Retry-After) and the deployment; the generator runs the machine and
 * refuses to write a case the machine disagrees with.
 */

const T0 = 1_789_732_800;
export const BUYER = 'https://buyer.agent.example/';
export const OTHER_BUYER = 'https://other.agent.example/';
const TERMS_URL = 'https://platform.example/doc/terms-of-service';
export const VERSION = '2026-07-31';
export const NEXT_VERSION = '2026-10-01';
export const PACK_NANO = '5000000000';
export const RESOURCE = '/api/priced/echo';
export const OTHER_RESOURCE = '/api/priced/other';
export const CALL_NANO = '250000000';
const ADDRESS = '203.0.113.7';
export const OTHER_ADDRESS = '198.51.100.9';
export const CALL_BODY = '{"q":1}';
export const OWNER_KEY = 'rk_operator_1';
const CHAIN_ID = 4217;
const TOKEN = '0x20c0000000000000000000000000000000000000';
const DEPOSIT = '0x742d35cc6634c0532925a3b844bc9e7595f8fe00';
/** The pack's stablecoin price: 5 tokens of 6 decimals. */
export const TEMPO_AMOUNT = '5000000';
export const WALLET = VECTOR_WALLETS.wallet!.address;
export const RETRY_AFTER_S = 5;
export const FUNDING_RETRY_AFTER_S = 7;
const DAY_S = 86_400;
/** Seconds from T0 to the next UTC midnight (Retry-After of the daily caps). */
export const TO_NEXT_DAY = DAY_S - (T0 % DAY_S);
export const CREDITS = PLATFORM_ROUTES.mppCredits;
export const { stripe: STRIPE, tempo: TEMPO } = PAYMENT_METHODS;
export const { pack: PACK, exact: EXACT } = PURCHASE_KINDS;

export const BASE_DEPLOYMENT: Deployment = {
  realm: 'platform.example',
  problemBases: DEFAULT_PROBLEM_BASES,
  terms: { url: TERMS_URL, version: VERSION },
  mppEnabled: true,
  purchasesOpen: true,
  pack: { packId: 'mpp_5', price: { amount: '500', currency: 'usd' }, creditNano: PACK_NANO, networkId: 'profile_test' },
  challengeSecretHex: '7665637465722d6368616c6c656e67652d736563726574',
  retryAfterSeconds: RETRY_AFTER_S,
};

export const STABLECOIN = { chainId: CHAIN_ID, token: TOKEN, depositAddress: DEPOSIT, amount: TEMPO_AMOUNT, sellsToUnplaceableBuyers: false } as const;

export const SALE = {
  resource: RESOURCE,
  offerId: 'call_echo',
  price: { amount: '25', currency: 'usd' },
  priceNano: CALL_NANO,
  methods: [STRIPE],
  cardOpen: true,
  anonymous: true,
  defaultKind: EXACT,
  caps: { principalPerDay: 3, ipPerDay: 3, instrumentPerDay: 3, platformPerDay: 10 },
  fundingRetryAfterSeconds: FUNDING_RETRY_AFTER_S,
} as const;

export const BASE_INITIAL: InitialState = { clock: T0, randomSeed: 'purchases', defaultCardCountry: 'US', walletLocations: { [WALLET]: 'US' } };

/** The covered components of a signed paid retry: the credential, the assent, the methods and purchase kind. */
export const PAID_COVERAGE = [HEADERS.paymentAuthorization, HEADERS.termsAccepted, HEADERS.paymentMethods, HEADERS.purchase] as const;

export function signed(agent: string = BUYER, covered: readonly string[] = PAID_COVERAGE): Caller {
  return { agent, auth: 'signature', covered: [...covered], identity: `${agent}.well-known/jwks.json`, clientAddress: ADDRESS };
}
export const bearer = (agent: string = BUYER): Caller => ({ agent, auth: 'bearer', covered: [], clientAddress: ADDRESS });
export const unidentified = (clientAddress: string = ADDRESS): Caller => ({ agent: null, auth: 'none', covered: [], clientAddress });

/** The expectation a scenario states: everything but the reference run's challenge id and ledger. */
export type StatedExpect = Omit<AnswerExpect, 'after' | 'challenge'> & { readonly challenge: { readonly method: string; readonly purchase: string } | null };

type CredentialSpec =
  | {
      readonly challengeOf: number;
      /** A card credential's shared payment token. */
      readonly spt?: string;
      /** A stablecoin credential: the transaction, signed for the challenge's quote (payload.type transaction). */
      readonly transaction?: TransactionBuild;
      /** Any other payload, as sent. */
      readonly payload?: Readonly<Record<string, string>>;
      readonly echoOverride?: Readonly<Record<string, string>>;
    }
  | { readonly literal: string };

export interface PresentSpec {
  readonly comment?: string;
  readonly path?: string;
  readonly caller?: Caller;
  /** Service-Terms-Accepted; null sends none. Defaults to the current version when a credential is sent. */
  readonly assent?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly credential?: CredentialSpec;
  readonly body?: string;
  readonly whileServing?: readonly PresentSpec[];
  readonly expect: StatedExpect;
}

export type ScenarioEvent =
  | ({ readonly type: 'present' } & PresentSpec)
  | Exclude<PurchaseEvent, { type: 'present' } | { type: 'report-settled' }>
  | ReportSpec;

interface ReportSpec {
  readonly type: 'report-settled';
  readonly comment?: string;
  readonly by: 'processor' | 'network';
  readonly chargeId?: string;
  readonly idempotencyKey?: string;
  readonly token?: string;
  readonly hashOfEvent?: number;
  readonly expect: Omit<SettlementExpect, 'after'>;
}

export interface Scenario {
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  readonly method: typeof STRIPE | typeof TEMPO;
  readonly covers: readonly string[];
  /** Members replacing BASE_DEPLOYMENT's (objects merged). */
  readonly deployment?: Readonly<Record<string, unknown>>;
  readonly initial?: Partial<InitialState>;
  readonly events: readonly ScenarioEvent[];
}

export const present = (spec: PresentSpec): ScenarioEvent => ({ type: 'present', ...spec });
/** A Payment credential header whose token is the base64url of `value`'s JSON, whatever shape it has. */
export const paymentLiteral = (value: unknown): string => `${AUTH_SCHEMES.payment} ${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
/** A request for a challenge (no credential). */
export const ask = (expect: StatedExpect, spec: Omit<PresentSpec, 'expect'> = {}): ScenarioEvent => present({ ...spec, expect });
/** A card credential for the challenge carried by event `challengeOf`. */
export const payCard = (challengeOf: number, spt: string, expect: StatedExpect, spec: Omit<PresentSpec, 'expect' | 'credential'> = {}): ScenarioEvent =>
  present({ ...spec, credential: { challengeOf, spt }, expect });
/** A stablecoin credential: a transaction signed by the test wallet for the challenge carried by event `challengeOf`. */
export const payTempo = (
  challengeOf: number,
  expect: StatedExpect,
  spec: Omit<PresentSpec, 'expect' | 'credential'> & { readonly transaction?: Partial<TransactionBuild> } = {},
): ScenarioEvent => {
  const { transaction, ...rest } = spec;
  return present({ ...rest, credential: { challengeOf, transaction: { signer: 'wallet', ...transaction } }, expect });
};
export const advance = (seconds: number): ScenarioEvent => ({ type: 'advance', seconds });
export const configure = (set: Readonly<Record<string, unknown>>, comment?: string): ScenarioEvent => ({
  type: 'configure',
  set,
  ...(comment === undefined ? {} : { comment }),
});

/** The payload of a stablecoin credential carrying a transaction (its signature filled in when signed). */
export const TRANSACTION_PAYLOAD = { [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction } as const;
export const tempoSource = (): string => walletSource(CHAIN_ID, WALLET);

const termsOf = (version: string) => ({ link: `<${TERMS_URL}>; rel=${quotedString(LINK_RELS.termsOfService)}`, version });

const NONE = { retry: null, retryAfter: null, body: {}, granted: null, call: null } as const;

/** A 7.4 row as the catalogue states it: a code row (no challenge, retry and Retry-After as listed) or a problem row. */
export function row(
  record: PurchaseErrorRecord,
  options: {
    readonly retryAfter?: number;
    readonly body?: StatedExpect['body'];
    readonly method?: string;
    readonly purchase?: string;
    readonly version?: string;
  } = {},
): StatedExpect {
  if (record.retryAfter !== (options.retryAfter !== undefined))
    throw new Error(`${record.code}: ${record.retryAfter ? 'give the Retry-After seconds' : 'carries no Retry-After'}`);
  if (record.kind === 'problem') {
    return {
      ...NONE,
      status: record.status,
      answer: 'problem',
      code: record.code,
      problemType: problemTypeUrl(DEFAULT_PROBLEM_BASES, record.problemBase!, record.code),
      challenge: record.challenge ? { method: options.method ?? STRIPE, purchase: options.purchase ?? PACK } : null,
      terms: record.challenge ? termsOf(options.version ?? VERSION) : null,
      body: options.body ?? {},
    };
  }
  return {
    ...NONE,
    status: record.status,
    answer: 'error',
    code: record.code,
    problemType: null,
    challenge: null,
    terms: null,
    retry:
      record.retry === undefined
        ? null
        : { sameCredential: record.retry.sameCredential, ...(record.retry.sameCredential ? { credentialHeader: PAYMENT_CREDENTIAL_HEADER } : {}) },
    retryAfter: options.retryAfter ?? null,
    body: options.body ?? {},
  };
}

/** A 402 of the Payment scheme itself, with one fresh challenge. */
export function problem(
  record: PaymentProblemRecord,
  options: { readonly method?: string; readonly purchase?: string; readonly version?: string } = {},
): StatedExpect {
  return {
    ...NONE,
    status: record.status,
    answer: 'problem',
    code: record.slug,
    problemType: problemTypeUrl(DEFAULT_PROBLEM_BASES, record.base, record.slug),
    challenge: { method: options.method ?? STRIPE, purchase: options.purchase ?? PACK },
    terms: termsOf(options.version ?? VERSION),
  };
}

/** The pack's 200: credited to `balanceNano`, the receipt naming the charge or the transaction hash. */
export function granted(balanceNano: string, receipt: ReceiptRef, options: { readonly version?: string } = {}): StatedExpect {
  return {
    ...NONE,
    status: 200,
    answer: 'granted',
    code: null,
    problemType: null,
    challenge: null,
    terms: termsOf(options.version ?? VERSION),
    granted: { packId: BASE_DEPLOYMENT.pack.packId, balanceNano, paymentIntentId: receipt.method === STRIPE ? receipt.reference : null, receipt },
  };
}

/** The resource's own response to a funded call; a call bought with a credential carries the receipt on a 2xx. */
export function call(status: number, body: string, receipt: ReceiptRef | null, options: { readonly version?: string } = {}): StatedExpect {
  return {
    ...NONE,
    status,
    answer: 'call',
    code: null,
    problemType: null,
    challenge: null,
    terms: termsOf(options.version ?? VERSION),
    call: { status, body, receipt },
  };
}

export const cardReceipt = (chargeId: string): ReceiptRef => ({ method: STRIPE, reference: chargeId });
export const purchaseBlock = (balanceNano: string, chargeId: string, packId: string = SALE.offerId): PurchaseBlock => ({
  packId,
  balanceNano,
  paymentIntentId: chargeId,
  receipt: cardReceipt(chargeId),
});
