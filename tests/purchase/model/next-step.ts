import { expect } from 'vitest';
import {
  RECEIPT_STATUS_SUCCESS,
  decodeBase64urlJson,
  isGranted,
  type PaymentChallenge,
  type PurchaseOutcome,
  type PurchaseStore,
} from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../../src/spec/limits.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES, problemTypeUrl } from '../../../src/spec/problem-types.js';
import { PURCHASE_ERROR_LIST, PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../../src/spec/types.js';
import { TERMS_LINK, challengeCount, expectCode, oneChallenge } from '../machine/helpers.js';

/** The 503 rows 7.4 tells to re-present exactly the same credential (retry.sameCredential true), as the spec lists them. */
const SAME_CREDENTIAL_ROWS: readonly PurchaseErrorRecord[] = [
  PURCHASE_ERRORS.terms_record_failed,
  PURCHASE_ERRORS.purchase_in_flight,
  PURCHASE_ERRORS.purchase_lock_unavailable,
  PURCHASE_ERRORS.charge_outcome_unknown,
  PURCHASE_ERRORS.charge_processing,
  PURCHASE_ERRORS.grant_failed,
  PURCHASE_ERRORS.sale_serve_pending,
  PURCHASE_ERRORS.tempo_unavailable,
  PURCHASE_ERRORS.tempo_settlement_pending,
];

/** What the buyer does next, read from one answer. */
export type NextStep =
  | { readonly kind: 'granted'; readonly chargeId: string }
  /** Pay the one fresh challenge riding on the 402. */
  | { readonly kind: 'pay'; readonly challenge: PaymentChallenge; readonly code: string }
  /** Re-present exactly the same credential (a 503 with retry.sameCredential true). */
  | { readonly kind: 'same-credential'; readonly code: string }
  /** A 4xx or 503 row whose description says what to do instead (no credential again, a new token, sign, ...). */
  | { readonly kind: 'code'; readonly code: string };

const PAYMENT_PROBLEM_LIST = Object.values(PAYMENT_PROBLEMS);

/**
 * Asserts the answer leaves the buyer a correct next step and says which: 200 granted with its receipt; a 402
 * whose type is a Payment problem or a 7.4 problem row, with exactly one fresh challenge (recorded in the store,
 * issued now, expiring 300 s later, naming header="Payment-Authorization"); or a 7.4 code row with its status,
 * no challenge, and on a 503 or 409 the retry object, sameCredential true exactly for the rows 7.4 lists.
 */
export async function nextStep(answer: PurchaseOutcome, store: PurchaseStore, now: number, method: string = PAYMENT_METHODS.stripe): Promise<NextStep> {
  if (isGranted(answer)) {
    expect(challengeCount(answer)).toBe(0);
    expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
    const receipt = decodeBase64urlJson(answer.headers[HEADERS.paymentReceipt]!);
    if (!receipt.ok) throw new Error(`the 200 carries no readable receipt: ${receipt.detail}`);
    expect(receipt.value).toMatchObject({ method, status: RECEIPT_STATUS_SUCCESS });
    expect(answer.body.granted).toBe(true);
    expect(answer.body.paymentIntentId).toBe((receipt.value as { reference: unknown }).reference);
    return { kind: 'granted', chargeId: String(answer.body.paymentIntentId) };
  }
  if (answer.status === 402) {
    const problem = PAYMENT_PROBLEM_LIST.find((p) => p.slug === answer.code);
    const row = PURCHASE_ERROR_LIST.find((r) => r.code === answer.code && r.status === 402);
    expect(problem ?? row, `402 ${answer.code} is neither a Payment problem nor a 7.4 row`).toBeDefined();
    const type = problem
      ? problemTypeUrl(DEFAULT_PROBLEM_BASES, problem.base, problem.slug)
      : problemTypeUrl(DEFAULT_PROBLEM_BASES, row!.problemBase!, row!.code);
    expect(answer.body.type).toBe(type);
    expect(challengeCount(answer)).toBe(1);
    const challenge = oneChallenge(answer);
    expect(challenge.method).toBe(method);
    expect(challenge.header).toBe(PAYMENT_CREDENTIAL_HEADER);
    expect(answer.body.challengeId).toBe(challenge.id);
    expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
    const issued = await store.challenge(challenge.id);
    expect(issued, 'the fresh challenge is recorded').toBeDefined();
    expect(issued!.issuedAt).toBe(now);
    expect(issued!.expiresAt).toBe(now + PAYMENT_CHALLENGE_LIFETIME_S);
    return { kind: 'pay', challenge, code: answer.code };
  }
  const record = PURCHASE_ERROR_LIST.find((r) => r.code === answer.code);
  expect(record, `${answer.status} ${answer.code} is no row of 7.4`).toBeDefined();
  expect([400, 401, 403, 409, 503]).toContain(answer.status);
  if (record!.kind === 'problem') {
    // 400 method-unsupported: a problem type without a challenge.
    expect(answer.status).toBe(record!.status);
    expect(challengeCount(answer)).toBe(0);
    return { kind: 'code', code: record!.code };
  }
  expectCode(answer, record!);
  const same = SAME_CREDENTIAL_ROWS.includes(record!);
  if (answer.status === 503 || answer.status === 409) {
    expect(answer.body.retry, `${answer.code} carries the retry object`).toEqual(
      same ? { sameCredential: true, credentialHeader: PAYMENT_CREDENTIAL_HEADER } : { sameCredential: false },
    );
  }
  return same ? { kind: 'same-credential', code: record!.code } : { kind: 'code', code: record!.code };
}
