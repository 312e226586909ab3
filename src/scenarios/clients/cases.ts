import type { ClientRuleKey } from '../../client-judge/rules.js';
import type { TestTokenOutcome } from '../../contract/test-tokens.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import type { PurchaseErrorCode } from '../../spec/purchase-errors.js';

/**
 * Where a case's request goes on the platform double: the CLI token route (4.7, a signed POST answered with a platform
 * token), the pack at /api/mpp/credits (4.7), the reference's priced single-call resource (7.4), the LLM rail (4.2, 6:
 * a purchase pointer when the balance runs out), the agent socket (4.2: a signed upgrade at /agents/<name>/uamp, its
 * URL ws://), or the double's own probe (a signed GET answered 200 once it verifies).
 */
export type ClientRoute = 'cli-token' | 'mpp-credits' | 'priced' | 'probe' | 'llm' | 'uamp';

/** The request a case asks the client to send, as the agent sends toward the platform (APC_REQUEST_*). */
export interface ClientCaseRequest {
  readonly method: 'GET' | 'POST';
  readonly route: ClientRoute;
  /** The query string, without `?`. */
  readonly query?: string;
  /** The body's text; none when absent (APC_REQUEST_BODY is then empty). */
  readonly body?: string;
  readonly contentType?: string;
}

/**
 * How the double answers a case beyond the reference platform's own answers. The first paid presentations (requests
 * carrying a credential) get `paid`'s answers of 7.4, rendered as the reference renders them, in order; later ones
 * get the platform's answer, or the last scripted one again (`afterwards: 'repeat'`). A request without a credential after
 * a scripted answer is served (200) when `unpaidAfter` says so: the usage on the balance pays for it.
 */
export interface ClientCaseScript {
  readonly paid?: readonly PurchaseErrorCode[];
  readonly afterwards?: 'platform' | 'repeat';
  readonly unpaidAfter?: 'served';
  /** After the platform answers a 503 charge_processing or charge_outcome_unknown, the processor settles the charge. */
  readonly settleAfter503?: boolean;
}

/**
 * How the buyer is configured for a case (APC_ALLOWED_HOSTS, APC_DAILY_CAP): the hosts its allow list holds (the
 * platform's own, or only a host elsewhere) and its daily spend cap in minor units (null: none configured). Section 6's
 * pointer rule reads them; every other case gives the platform's host and a cap.
 */
export interface ClientCaseBuyer {
  readonly allowedHosts: 'platform' | 'elsewhere';
  readonly dailyCap: number | null;
}

/** The buyer of every case that does not say otherwise: the platform's host allowed, a cap of 1,000.00. */
export const DEFAULT_CASE_BUYER: ClientCaseBuyer = Object.freeze({ allowedHosts: 'platform', dailyCap: 100_000 });
/**
 * The stablecoin buyer's wallet (APC_WALLET_KEY): a well-known development key, never funded anywhere that matters; the
 * double's stablecoin network is in memory and settles what it is given.
 */
export const CASE_WALLET_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** The one host an allow list holds in a case whose buyer allows only a host elsewhere. */
export const ELSEWHERE_HOST = 'agents.example';

export interface ClientCase {
  /** Stable id (`--only`, APC_CASE, the report). */
  readonly id: string;
  readonly title: string;
  /** What it asks of the client under test, for people (docs/client-mode.md). */
  readonly asks: string;
  readonly request: ClientCaseRequest;
  /** The outcome the case's test token (APC_CARD_TOKEN, spt_test_<outcome>_<n>) makes the card processor answer. */
  readonly token: TestTokenOutcome;
  readonly script: ClientCaseScript;
  /** The buyer's configuration; DEFAULT_CASE_BUYER when absent. */
  readonly buyer?: ClientCaseBuyer;
  /** The buyer pays by stablecoin with the wallet APC_WALLET_KEY names (CASE_WALLET_KEY); by card otherwise. */
  readonly wallet?: boolean;
  /** The rules this case gives the client occasion to meet or break. */
  readonly rules: readonly ClientRuleKey[];
}

/** Every signer rule a signed request without a body can meet or break (Content-Digest and the purchase headers aside). */
const SIGNER: readonly ClientRuleKey[] = [
  'signed',
  'syntax',
  'times',
  'keyid',
  'alg',
  'nonceLength',
  'window',
  'signatureSize',
  'components',
  'clock',
  'authority',
  'bodySize',
  'coverage',
  'agent',
  'keySet',
  'signatureValid',
  'keyContinuity',
  'nonceUnique',
  'card',
];
const BUYS: readonly ClientRuleKey[] = [...SIGNER, 'purchaseHeadersCovered', 'echo', 'termsAccepted'];
const RETRIES: readonly ClientRuleKey[] = [...BUYS, 'oneCredential', 'sameCredential', 'retryAfter'];

const JSON_BODY = (text: string) => ({ body: text, contentType: MEDIA_TYPES.json });
const CHAT = JSON_BODY('{"model":"reference","messages":[{"role":"user","content":"hello"}]}');

/** The client cases, in the order a run takes them: the signer's first, then the buyer's. */
export const CLIENT_CASES: readonly ClientCase[] = Object.freeze([
  {
    id: 'signed-get',
    title: 'A signed GET with a query string',
    asks: 'Send GET APC_REQUEST_URL (a query string, no body), signed; the double answers 200 once it verifies.',
    request: { method: 'GET', route: 'probe', query: 'case=signed-get&page=2' },
    token: 'settled',
    script: {},
    rules: SIGNER,
  },
  {
    id: 'signed-post',
    title: 'A signed POST with a JSON body to the CLI token route',
    asks: 'Send POST APC_REQUEST_URL with the bytes of APC_REQUEST_BODY exactly, signed with Content-Digest covered; the platform answers a platform token.',
    request: { method: 'POST', route: 'cli-token', ...JSON_BODY('{"purpose":"client-mode conformance","n":1}') },
    token: 'settled',
    script: {},
    rules: [...SIGNER, 'contentDigest'],
  },
  {
    id: 'pack-card',
    title: 'Buy a usage pack with a card token',
    asks: 'POST APC_REQUEST_URL (/api/mpp/credits), signed; answer the 402 with one credential paying APC_CARD_TOKEN, echoing the challenge, with Service-Terms-Accepted; the platform grants the pack (200).',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'settled',
    script: {},
    rules: BUYS,
  },
  {
    id: 'pack-charge-processing',
    title: 'A 503 charge_processing: the same credential after Retry-After',
    asks: 'As pack-card; the paid retry is answered 503 charge_processing (retry.sameCredential true, Retry-After: 1): re-present exactly the same credential after a second; it is granted.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'processing',
    script: { settleAfter503: true },
    rules: RETRIES,
  },
  {
    id: 'pack-charge-unknown',
    title: 'A 503 charge_outcome_unknown: the same credential after Retry-After',
    asks: 'As pack-card; the paid retry is answered 503 charge_outcome_unknown: re-present exactly the same credential after Retry-After; it is granted.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'unknown',
    script: { settleAfter503: true },
    rules: RETRIES,
  },
  {
    id: 'pack-retry-twice',
    title: 'Two 503s in a row (purchase_lock_unavailable, then grant_failed): the same credential each time',
    asks: 'As pack-card; the paid retry is answered 503 purchase_lock_unavailable, its re-presentation 503 grant_failed: re-present the same credential after each Retry-After; the third presentation is granted.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'settled',
    script: { paid: ['purchase_lock_unavailable', 'grant_failed'], afterwards: 'platform' },
    rules: RETRIES,
  },
  {
    id: 'terms-unauthenticated',
    title: 'A 401 terms_acceptance_unauthenticated: re-present only signed',
    asks: 'As pack-card; the paid retry is answered 401 terms_acceptance_unauthenticated: re-present the credential on a signed request (or stop); it is granted.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'settled',
    script: { paid: ['terms_acceptance_unauthenticated'], afterwards: 'platform' },
    rules: [...BUYS, 'oneCredential', 'termsSigned'],
  },
  {
    id: 'sale-already-granted',
    title: 'A 409 purchase_already_granted: resend without the credential',
    asks: 'POST APC_REQUEST_URL (a priced resource), signed; pay the 402; the paid retry is answered 409 purchase_already_granted: resend the request without the credential; it is served from the balance (200).',
    request: { method: 'POST', route: 'priced', ...JSON_BODY('{"say":"hello"}') },
    token: 'settled',
    script: { paid: ['purchase_already_granted'], afterwards: 'repeat', unpaidAfter: 'served' },
    rules: [...BUYS, 'contentDigest', 'resendUnpaid'],
  },
  {
    id: 'sale-funding-failed',
    title: 'A 503 funding_failed: resend without the credential',
    asks: 'As sale-already-granted; the paid retry is answered 503 funding_failed (retry.sameCredential false, the purchase block in the body): resend the request without a credential; it is served (200).',
    request: { method: 'POST', route: 'priced', ...JSON_BODY('{"say":"hello again"}') },
    token: 'settled',
    script: { paid: ['funding_failed'], afterwards: 'repeat', unpaidAfter: 'served' },
    rules: [...BUYS, 'contentDigest', 'resendUnpaid'],
  },
  {
    id: 'upstream-not-relayed',
    title: 'A 502 upstream_payment_not_relayed ends the purchase',
    asks: 'POST APC_REQUEST_URL (a priced resource), signed; pay the 402; the paid retry is answered 502 upstream_payment_not_relayed (an agent answered with its own challenge): stop, presenting no credential again.',
    request: { method: 'POST', route: 'priced', ...JSON_BODY('{"say":"relay me"}') },
    token: 'settled',
    script: { paid: ['upstream_payment_not_relayed'], afterwards: 'repeat' },
    rules: [...BUYS, 'contentDigest', 'upstream'],
  },
  {
    id: 'pack-stablecoin',
    title: 'Buy a usage pack with a stablecoin transfer',
    asks: 'POST APC_REQUEST_URL (/api/mpp/credits), signed, naming tempo first in Service-Payment-Methods (covered); pay the stablecoin 402 with one credential carrying an unbroadcast transaction signed by the wallet APC_WALLET_KEY: exactly one transferWithMemo of the quoted amount to the quoted recipient with the quoted memo, paying its own fee, valid until the challenge expiry; the platform grants the pack.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'settled',
    script: {},
    wallet: true,
    rules: [...BUYS, 'transfer'],
  },
  {
    id: 'pack-tempo-settlement-pending',
    title: 'A 503 tempo_settlement_pending: the same transfer again, never another',
    asks: 'As pack-stablecoin; the paid retry is answered 503 tempo_settlement_pending (retry.sameCredential true): re-present exactly the same credential after Retry-After and never sign another transfer; it is granted.',
    request: { method: 'POST', route: 'mpp-credits' },
    token: 'settled',
    script: { paid: ['tempo_settlement_pending'], afterwards: 'platform' },
    wallet: true,
    rules: [...RETRIES, 'transfer'],
  },
  {
    id: 'pointer-no-cap',
    title: 'A purchase pointer, and no daily cap configured: nothing is sent to it',
    asks: "POST APC_REQUEST_URL (the LLM rail), signed, as a buyer whose allow list holds the platform's host (APC_ALLOWED_HOSTS) and that has no daily cap (APC_DAILY_CAP empty); the 402 is a pointer to /api/mpp/credits: refuse it (pointer_needs_daily_cap) and send nothing there.",
    request: { method: 'POST', route: 'llm', ...CHAT },
    token: 'settled',
    script: {},
    buyer: { allowedHosts: 'platform', dailyCap: null },
    rules: [...SIGNER, 'contentDigest', 'pointer'],
  },
  {
    id: 'pointer-host-not-allowed',
    title: "A purchase pointer on a host the buyer's allow list does not hold: nothing is sent to it",
    asks: "As pointer-no-cap, with a daily cap (APC_DAILY_CAP 5000) but an allow list holding only agents.example, not the platform's host: refuse the pointer and send nothing there.",
    request: { method: 'POST', route: 'llm', ...CHAT },
    token: 'settled',
    script: {},
    buyer: { allowedHosts: 'elsewhere', dailyCap: 5000 },
    rules: [...SIGNER, 'contentDigest', 'pointer'],
  },
  {
    id: 'pointer-followed',
    title: 'A purchase pointer the buyer may follow: the pack, then the call again',
    asks: "As pointer-no-cap, with the platform's host allowed and a daily cap (APC_DAILY_CAP 100000): the buyer may follow the pointer, a signed POST to its purchase_url paid as pack-card; the call sent again is then served (200).",
    request: { method: 'POST', route: 'llm', ...CHAT },
    token: 'settled',
    script: {},
    rules: [...BUYS, 'contentDigest', 'pointer'],
  },
  {
    id: 'signed-upgrade',
    title: 'The agent socket: a signed upgrade, then the in-band purchase',
    asks: "Open the agent socket at APC_REQUEST_URL (ws://.../agents/client-mode/uamp) with a signed upgrade and ask for a turn (response.create); pay the payment.required frame's challenge at its purchase_url (a signed POST with APC_CARD_TOKEN, accepting its terms), and only then send payment.submit with payment.scheme balance; the turn runs (payment.accepted, response.done).",
    request: { method: 'GET', route: 'uamp' },
    token: 'settled',
    script: {},
    rules: [...BUYS, 'submit'],
  },
]);
