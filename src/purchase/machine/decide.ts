import { encodeBase64url } from '../../httpsig/base64url.js';
import { HEADERS } from '../../spec/headers.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../spec/limits.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import {
  PAYMENT_CACHE_CONTROL,
  PAYMENT_METHODS,
  PAYMENT_PROBLEMS,
  PURCHASE_KINDS,
  STRIPE_PAYLOAD_MEMBERS,
  type PaymentProblemRecord,
} from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../spec/types.js';
import { paymentProblemAnswer, purchaseAnswer, termsHeaders, type PaidSurface, type PurchaseAnswer } from '../answers.js';
import { jcsBase64url } from '../canonical-json.js';
import { challengeEcho, createChallenge, instantOf, type PaymentChallenge } from '../challenge.js';
import { parseCredential, sameEcho, type PaymentCredential } from '../credential.js';
import type { JsonObject } from '../json.js';
import type { ChargeRecord, ChargeReply, Grant, PurchaseConfig, PurchasePorts } from './ports.js';
import {
  BALANCE_MEMBERS,
  CHALLENGE_NONCE_BYTES,
  GRANTED_BODY_MEMBERS,
  IDEMPOTENCY_KEY_PREFIX,
  OPAQUE_MEMBERS,
  RECEIPT_MEMBERS,
  RECEIPT_STATUS_SUCCESS,
  STRIPE_PAYMENT_METHOD_TYPE_CARD,
  STRIPE_REQUEST_MEMBERS,
} from './wire.js';

/** A request to POST /api/mpp/credits whose caller the verifier already decided. */
export interface PurchaseRequest {
  /** The authenticated buying agent; null for an unauthenticated request. */
  readonly buyer: { readonly agentUrl: string } | null;
  /** Whether the caller authenticated with a signature (then assent counts only when covered). */
  readonly signed: boolean;
  /** Covered components of the signature, lower-case. */
  readonly coveredHeaders: readonly string[];
  /** Request header fields (names in any case). */
  readonly headers: Readonly<Record<string, string>>;
  /** Clock seconds the request is decided at. */
  readonly now: number;
}

/** The paid answer: the pack is on the buyer's balance. */
export interface PurchaseGranted {
  readonly ok: true;
  readonly status: 200;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonObject;
}

export type PurchaseOutcome = PurchaseAnswer | PurchaseGranted;

export function isGranted(outcome: PurchaseOutcome): outcome is PurchaseGranted {
  return 'ok' in outcome && outcome.ok === true;
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

const surfaceOf = (config: PurchaseConfig): PaidSurface => ({ problemBases: config.problemBases, terms: config.terms });

/** A header counts on a signed request only when covered; on a bearer-authenticated or unauthenticated one, as sent. */
function trustedHeader(input: PurchaseRequest, name: string): string | undefined {
  const value = headerOf(input.headers, name);
  if (value === undefined) return undefined;
  if (input.signed && !input.coveredHeaders.some((c) => c.toLowerCase() === name)) return undefined;
  return value;
}

/** Issues and records one fresh card challenge for the pack, expiring the challenge lifetime (8: 300 s) after `now`. */
async function issueChallenge(ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PaymentChallenge> {
  const { pack } = config;
  const methodDetails: JsonObject = {
    ...(pack.networkId === undefined ? {} : { [STRIPE_REQUEST_MEMBERS.networkId]: pack.networkId }),
    [STRIPE_REQUEST_MEMBERS.paymentMethodTypes]: [STRIPE_PAYMENT_METHOD_TYPE_CARD],
  };
  const challenge = createChallenge(
    {
      realm: config.realm,
      method: PAYMENT_METHODS.stripe,
      request: {
        [STRIPE_REQUEST_MEMBERS.amount]: pack.price.amount,
        [STRIPE_REQUEST_MEMBERS.currency]: pack.price.currency,
        [STRIPE_REQUEST_MEMBERS.methodDetails]: methodDetails,
      },
      createdAt: now,
      opaque: {
        [OPAQUE_MEMBERS.packId]: pack.packId,
        [OPAQUE_MEMBERS.kind]: PURCHASE_KINDS.pack,
        [OPAQUE_MEMBERS.terms]: config.terms.version,
        [OPAQUE_MEMBERS.nonce]: encodeBase64url(ports.random.bytes(CHALLENGE_NONCE_BYTES)),
      },
    },
    config.challengeSecret === undefined ? {} : { secret: config.challengeSecret },
  );
  await ports.store.issue({
    id: challenge.id,
    echo: challengeEcho(challenge),
    issuedAt: now,
    expiresAt: now + PAYMENT_CHALLENGE_LIFETIME_S,
    termsVersion: config.terms.version,
    packId: pack.packId,
    price: pack.price,
    creditNano: pack.creditNano,
  });
  return challenge;
}

/** A 402 with exactly one fresh challenge: a Payment scheme problem, or a 7.4 problem row that carries one. */
async function withFreshChallenge(
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  ports: PurchasePorts,
  config: PurchaseConfig,
  now: number,
  description?: string,
): Promise<PurchaseAnswer> {
  const challenge = await issueChallenge(ports, config, now);
  const extra = description === undefined ? {} : { description };
  if ('slug' in refusal) return paymentProblemAnswer(refusal, surfaceOf(config), challenge, extra);
  return purchaseAnswer(refusal, surfaceOf(config), { challenge, ...extra });
}

function receiptOf(grant: Grant): JsonObject {
  return {
    [RECEIPT_MEMBERS.method]: PAYMENT_METHODS.stripe,
    [RECEIPT_MEMBERS.reference]: grant.chargeId,
    [RECEIPT_MEMBERS.status]: RECEIPT_STATUS_SUCCESS,
    [RECEIPT_MEMBERS.timestamp]: instantOf(grant.grantedAt),
  };
}

function grantedAnswer(grant: Grant, balanceNano: string, config: PurchaseConfig): PurchaseGranted {
  const receipt = receiptOf(grant);
  return Object.freeze({
    ok: true as const,
    status: 200 as const,
    headers: Object.freeze({
      [HEADERS.contentType]: MEDIA_TYPES.json,
      [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL,
      [HEADERS.paymentReceipt]: jcsBase64url(receipt),
      ...termsHeaders(config.terms.url, config.terms.version),
    }),
    body: Object.freeze({
      [GRANTED_BODY_MEMBERS.ok]: true,
      [GRANTED_BODY_MEMBERS.granted]: true,
      [GRANTED_BODY_MEMBERS.packId]: grant.packId,
      [GRANTED_BODY_MEMBERS.balance]: { [BALANCE_MEMBERS.nano]: balanceNano },
      [GRANTED_BODY_MEMBERS.paymentIntentId]: grant.chargeId,
      [GRANTED_BODY_MEMBERS.receipt]: receipt,
    }),
  });
}

/** Credits the pack once for a settled charge; a store fault is 503 grant_failed (the same credential completes it). */
async function grantSettled(record: ChargeRecord, chargeId: string, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  const grant: Grant = {
    challengeId: record.challengeId,
    buyer: record.buyer,
    packId: record.packId,
    creditNano: record.creditNano,
    chargeId,
    termsVersion: record.termsVersion,
    grantedAt: now,
  };
  try {
    const result = await ports.store.grant(grant);
    // Granted here, or by a settlement report that landed while this presentation was in flight: either way
    // this presentation is the one that tells the buyer, so it answers 200 (409 is for a later presentation).
    return grantedAnswer(result.grant, result.balanceNano, config);
  } catch {
    return purchaseAnswer(PURCHASE_ERRORS.grant_failed, surfaceOf(config));
  }
}

/** Sends (or resumes) the charge and turns the processor's word into the answer. */
async function runCharge(record: ChargeRecord, send: () => ChargeReply | Promise<ChargeReply>, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  let reply: ChargeReply;
  try {
    reply = await send();
  } catch {
    return purchaseAnswer(PURCHASE_ERRORS.charge_outcome_unknown, surfaceOf(config));
  }
  const chargeId = reply.chargeId ?? record.chargeId;
  const known = chargeId === undefined ? {} : { chargeId };
  switch (reply.outcome) {
    case 'settled': {
      const settled = await ports.store.updateCharge(record.challengeId, { state: 'settled', ...known });
      return grantSettled(settled, chargeId ?? record.idempotencyKey, ports, config, now);
    }
    case 'declined':
    case 'cancelled-unsettled':
      await ports.store.updateCharge(record.challengeId, { state: 'failed', ...known });
      return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, now);
    case 'processing':
      await ports.store.updateCharge(record.challengeId, { state: 'sent', ...known });
      return purchaseAnswer(PURCHASE_ERRORS.charge_processing, surfaceOf(config));
    case 'unknown':
      await ports.store.updateCharge(record.challengeId, { state: 'sent', ...known });
      return purchaseAnswer(PURCHASE_ERRORS.charge_outcome_unknown, surfaceOf(config));
  }
}

/**
 * Section 3 row 1: a credential whose charge was already sent resumes the original charge; terms version,
 * switches, expiry and the other earlier checks are not asked again. Only the caller is: the credit goes to
 * the buyer the charge was sent for, so only that buyer may resume it.
 */
async function resume(record: ChargeRecord, input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  if (input.buyer?.agentUrl !== record.buyer) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return purchaseAnswer(PURCHASE_ERRORS.purchase_already_granted, surfaceOf(config), { receipt: receiptOf(grant) });
  if (record.state === 'failed') return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, input.now);
  if (record.state === 'settled') return grantSettled(record, record.chargeId ?? record.idempotencyKey, ports, config, input.now);
  const { chargeId } = record;
  const send = chargeId !== undefined ? () => ports.processor.status(chargeId) : () => ports.processor.charge(record.token, record.price, record.idempotencyKey);
  return runCharge(record, send, ports, config, input.now);
}

function tokenOf(credential: PaymentCredential): string | undefined {
  const token = credential.payload[STRIPE_PAYLOAD_MEMBERS.spt];
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** Method ids of Service-Payment-Methods (`tempo, stripe`), or undefined when absent or not covered. */
function acceptedMethods(input: PurchaseRequest): string[] | undefined {
  const value = trustedHeader(input, HEADERS.paymentMethods);
  return value?.split(',').map((m) => m.trim().toLowerCase()).filter((m) => m !== '');
}

/**
 * Decides a request to POST /api/mpp/credits (a usage pack paid by card). The order of checks:
 *
 * 1. A readable credential whose challenge already has a charge for the same token resumes it (section 3
 *    row 1) before anything else, so no switch or terms change can strand a charge already sent.
 * 2. Switches: mpp_disabled, then purchases_disabled (403, nothing charged, no challenge).
 * 3. No credential: 503 mpp_not_configured if a trusted Service-Payment-Methods names no `stripe`, else
 *    402 payment-required with a fresh challenge.
 * 4. An unreadable credential: 402 malformed-credential.
 * 5. An unauthenticated caller: 401 terms_acceptance_unauthenticated (paying accepts the terms, and
 *    acceptance is taken only from the buying agent; nothing charged).
 * 6. A method other than `stripe`: 400 method-unsupported (no challenge).
 * 7. A challenge not issued here, or already redeemed with another token: 402 invalid-challenge.
 * 8. A challenge older than its 300 s (no charge record behind it, see 1): 402 payment-expired.
 * 9. A payload without a shared payment token: 402 invalid-payload.
 * 10. No assent, or assent not covered on a signed request: 402 terms-acceptance-required; assent or the
 *     challenge naming a version that is not the current one: 402 terms-version-stale.
 * 11. A token that already paid under another challenge: 403 foreign_token.
 * 12. The charge, recorded before it is sent: settled 200, declined or cancelled unsettled 402
 *     verification-failed, processing 503 charge_processing, unknown or a fault 503 charge_outcome_unknown.
 */
export async function decidePurchase(input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  const surface = surfaceOf(config);
  const { now } = input;
  const raw = headerOf(input.headers, HEADERS.paymentAuthorization);
  const parsed = raw === undefined ? undefined : parseCredential(raw);
  const credential = parsed?.ok ? parsed.credential : undefined;
  const token = credential === undefined ? undefined : tokenOf(credential);

  if (credential !== undefined && token !== undefined) {
    const record = await ports.store.chargeOf(credential.challenge.id);
    const issued = record === undefined ? undefined : await ports.store.challenge(record.challengeId);
    if (record !== undefined && record.token === token && issued !== undefined && sameEcho(issued.echo, credential.challenge)) return resume(record, input, ports, config);
  }

  if (!config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surface);
  if (!config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surface);

  if (parsed === undefined) {
    const methods = acceptedMethods(input);
    if (methods !== undefined && !methods.includes(PAYMENT_METHODS.stripe)) return purchaseAnswer(PURCHASE_ERRORS.mpp_not_configured, surface);
    return withFreshChallenge(PAYMENT_PROBLEMS.paymentRequired, ports, config, now);
  }
  if (!parsed.ok) return withFreshChallenge(PAYMENT_PROBLEMS.malformedCredential, ports, config, now, `${PAYMENT_PROBLEMS.malformedCredential.condition} (${parsed.detail})`);
  const echo = parsed.credential.challenge;

  if (input.buyer === null) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surface);
  const buyer = input.buyer.agentUrl;

  if (echo.method !== PAYMENT_METHODS.stripe) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surface);

  const issued = await ports.store.challenge(echo.id);
  if (issued === undefined || !sameEcho(issued.echo, echo)) return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, now);
  if ((await ports.store.chargeOf(issued.id)) !== undefined) return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, now, 'The challenge was already redeemed with another payment; pay the fresh challenge on this response.');

  if (now > issued.expiresAt) return withFreshChallenge(PAYMENT_PROBLEMS.paymentExpired, ports, config, now);

  if (token === undefined) return withFreshChallenge(PURCHASE_ERRORS['invalid-payload'], ports, config, now, `A card credential's payload carries the shared payment token in ${STRIPE_PAYLOAD_MEMBERS.spt}; pay the fresh challenge on this response.`);

  const assent = trustedHeader(input, HEADERS.termsAccepted);
  if (assent === undefined) return withFreshChallenge(PURCHASE_ERRORS['terms-acceptance-required'], ports, config, now);
  if (assent.trim() !== config.terms.version || issued.termsVersion !== config.terms.version) return withFreshChallenge(PURCHASE_ERRORS['terms-version-stale'], ports, config, now);

  const opened = await ports.store.openCharge({
    challengeId: issued.id,
    token,
    idempotencyKey: `${IDEMPOTENCY_KEY_PREFIX}${issued.id}`,
    buyer,
    termsVersion: issued.termsVersion,
    packId: issued.packId,
    price: issued.price,
    creditNano: issued.creditNano,
    state: 'sent',
    sentAt: now,
  });
  if (!opened.opened) {
    if (opened.clash === 'token') return purchaseAnswer(PURCHASE_ERRORS.foreign_token, surface);
    // Another presentation of this very credential opened the charge a moment ago: resume it.
    if (opened.existing.token === token) return resume(opened.existing, input, ports, config);
    return withFreshChallenge(PAYMENT_PROBLEMS.invalidChallenge, ports, config, now);
  }
  const record = opened.record;
  return runCharge(record, () => ports.processor.charge(record.token, record.price, record.idempotencyKey), ports, config, now);
}

export type SettlementResult =
  | { readonly credited: true; readonly grant: Grant; readonly balanceNano: string }
  | { readonly credited: false; readonly reason: 'already-credited' | 'unmatched' | 'grant-failed'; readonly grant?: Grant };

/**
 * Section 3 last row: the card processor reports a charge settled (a verified webhook). The charge is found
 * by its id, or by the idempotency key when the machine never learned the id (the charge call faulted). Its
 * pack is credited once, whether or not the credential is ever presented again; a later presentation answers
 * 409 purchase_already_granted. A charge that matches no record is left to reconciliation (payment_unreconciled).
 */
export async function settleReported(
  report: { readonly chargeId: string; readonly idempotencyKey?: string },
  ports: Pick<PurchasePorts, 'clock' | 'store'>,
): Promise<SettlementResult> {
  const { store } = ports;
  const record = (await store.chargeById(report.chargeId)) ?? (report.idempotencyKey === undefined ? undefined : await store.chargeByKey(report.idempotencyKey));
  if (record === undefined) return { credited: false, reason: 'unmatched' };
  const settled = await store.updateCharge(record.challengeId, { state: 'settled', chargeId: report.chargeId });
  try {
    const result = await store.grant({
      challengeId: settled.challengeId,
      buyer: settled.buyer,
      packId: settled.packId,
      creditNano: settled.creditNano,
      chargeId: report.chargeId,
      termsVersion: settled.termsVersion,
      grantedAt: ports.clock.now(),
    });
    return result.granted ? { credited: true, grant: result.grant, balanceNano: result.balanceNano } : { credited: false, reason: 'already-credited', grant: result.grant };
  } catch {
    return { credited: false, reason: 'grant-failed' };
  }
}
