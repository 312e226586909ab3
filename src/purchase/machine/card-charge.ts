import { PAYMENT_METHODS, PAYMENT_PROBLEMS, STRIPE_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { parseCredential, sameEcho, type CredentialParse, type PaymentCredential } from '../credential.js';
import { HEADERS } from '../../spec/headers.js';
import { chargeStep, resumeSend } from './charge-step.js';
import { grantedAnswer, receiptOf } from './granted.js';
import { withFreshChallenge } from './issue.js';
import { headerOf, surfaceOf, type PurchaseOutcome, type PurchaseRequest } from './outcome.js';
import type { ChargeRecord, ChargeReply, Grant, IssuedChallenge, PurchaseConfig, PurchasePorts } from './ports.js';
import { IDEMPOTENCY_KEY_PREFIX } from './wire.js';

/** The grant of a settled card charge (method stripe, the processor's charge id as the receipt reference). */
export function chargeGrant(record: ChargeRecord, chargeId: string, now: number): Grant {
  return {
    challengeId: record.challengeId,
    buyer: record.buyer,
    packId: record.packId,
    creditNano: record.creditNano,
    chargeId,
    method: PAYMENT_METHODS.stripe,
    termsVersion: record.termsVersion,
    grantedAt: now,
  };
}

/** Credits the pack once for a settled charge; a store fault is 503 grant_failed (the same credential completes it). */
export async function grantSettled(record: ChargeRecord, chargeId: string, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    const result = await ports.store.grant(chargeGrant(record, chargeId, now));
    // Granted here, or by a settlement report that landed while this presentation was in flight: either way
    // this presentation is the one that tells the buyer, so it answers 200 (409 is for a later presentation).
    return grantedAnswer(result.grant, result.balanceNano, config);
  } catch {
    return purchaseAnswer(PURCHASE_ERRORS.grant_failed, surfaceOf(config));
  }
}

/** Sends (or resumes) the charge (charge-step.ts) and turns the processor's word into the pack's answer. */
export async function runCharge(record: ChargeRecord, send: () => ChargeReply | Promise<ChargeReply>, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  const step = await chargeStep(record, send, ports);
  switch (step.kind) {
    case 'settled':
      return grantSettled(step.record, step.chargeId, ports, config, now);
    case 'failed':
      return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, now);
    case 'processing':
      return purchaseAnswer(PURCHASE_ERRORS.charge_processing, surfaceOf(config));
    case 'unknown':
      return purchaseAnswer(PURCHASE_ERRORS.charge_outcome_unknown, surfaceOf(config));
  }
}

/**
 * Section 3 row 1: a credential whose charge was already sent resumes the original charge; terms version,
 * switches, expiry and the other earlier checks are not asked again. Only the caller is: the credit goes to
 * the buyer the charge was sent for, so only that buyer may resume it.
 */
export async function resumeCharge(record: ChargeRecord, input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  if (input.buyer?.agentUrl !== record.buyer) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return purchaseAnswer(PURCHASE_ERRORS.purchase_already_granted, surfaceOf(config), { receipt: receiptOf(grant) });
  if (record.state === 'failed') return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, input.now);
  if (record.state === 'settled') return grantSettled(record, record.chargeId ?? record.idempotencyKey, ports, config, input.now);
  return runCharge(record, resumeSend(record, ports), ports, config, input.now);
}

export function tokenOf(credential: PaymentCredential): string | undefined {
  const token = credential.payload[STRIPE_PAYLOAD_MEMBERS.spt];
  return typeof token === 'string' && token !== '' ? token : undefined;
}


/** The record of a card charge, opened before the charge is sent (so every charge sent has one); keyed by its challenge. */
export function chargeRecordFor(issued: IssuedChallenge, buyer: string, token: string, now: number): ChargeRecord {
  return {
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
  };
}

/** What a request presents in Payment-Authorization: the parse, the readable credential, and its card token. */
export interface PresentedCredential {
  readonly parsed: CredentialParse | undefined;
  readonly credential: PaymentCredential | undefined;
  readonly token: string | undefined;
}

export function presentedCredential(input: PurchaseRequest): PresentedCredential {
  const raw = headerOf(input.headers, HEADERS.paymentAuthorization);
  const parsed = raw === undefined ? undefined : parseCredential(raw);
  const credential = parsed?.ok ? parsed.credential : undefined;
  return { parsed, credential, token: credential === undefined ? undefined : tokenOf(credential) };
}

/**
 * Section 3 row 1: the charge this very credential (same challenge, echoed byte for byte, same token) already
 * sent, with the challenge it answers; undefined when it sent none.
 */
export async function chargeOfSameCredential(presented: PresentedCredential, store: PurchasePorts['store']): Promise<{ readonly record: ChargeRecord; readonly issued: IssuedChallenge } | undefined> {
  const { credential, token } = presented;
  if (credential === undefined || token === undefined) return undefined;
  const record = await store.chargeOf(credential.challenge.id);
  if (record === undefined || record.token !== token) return undefined;
  const issued = await store.challenge(record.challengeId);
  return issued !== undefined && sameEcho(issued.echo, credential.challenge) ? { record, issued } : undefined;
}
