import { PAYMENT_METHODS } from '../../../spec/payments.js';
import { sameEcho } from '../../wire/credential.js';
import type { PresentedCredential } from '../presented.js';
import type { ChargeRecord, CredentialRecords, Grant, IssuedChallenge, PurchasePorts } from '../ports/purchase.js';
import { IDEMPOTENCY_KEY_PREFIX } from '../../wire/wire.js';

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

/** What the store holds for the credential presented (its challenge's charge, its token's unreconciled payment), in one read; nothing without a credential. */
export async function recordsOfPresented(presented: PresentedCredential, store: PurchasePorts['store']): Promise<CredentialRecords> {
  const { credential, token } = presented;
  return credential === undefined ? {} : store.credentialRecords(credential.challenge.id, token);
}

/**
 * Section 3 row 1: the charge this very credential (same challenge, echoed byte for byte, same token) already
 * sent, with the challenge it answers; undefined when it sent none.
 */
export async function chargeOfSameCredential(
  presented: PresentedCredential,
  store: PurchasePorts['store'],
): Promise<{ readonly record: ChargeRecord; readonly issued: IssuedChallenge } | undefined> {
  const { credential } = presented;
  if (credential === undefined) return undefined;
  return sameCredentialCharge(presented, await store.chargeOf(credential.challenge.id), store);
}

/** chargeOfSameCredential of `record`, the charge already read under the credential's challenge (so none without a credential). */
export async function sameCredentialCharge(
  presented: PresentedCredential,
  record: ChargeRecord | undefined,
  store: PurchasePorts['store'],
): Promise<{ readonly record: ChargeRecord; readonly issued: IssuedChallenge } | undefined> {
  const { credential, token } = presented;
  // A credential without a card token (a stablecoin one) matches no charge: every charge record holds its token.
  if (record === undefined || record.token !== token) return undefined;
  const issued = await store.challenge(record.challengeId);
  return issued !== undefined && sameEcho(issued.echo, credential!.challenge) ? { record, issued } : undefined;
}
