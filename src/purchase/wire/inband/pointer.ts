import { HEADERS } from '../../../spec/headers.js';
import {
  DELEGATE_MEMBERS,
  DELEGATE_STATUSES,
  NANO_PER_CURRENCY_UNIT,
  POINTER_BODY_MEMBERS,
  POINTER_BODY_TEXT,
  REQUIREMENTS_CURRENCY,
} from '../../../spec/inband.js';
import { MEDIA_TYPES } from '../../../spec/media-types.js';
import { PAYMENT_CACHE_CONTROL } from '../../../spec/payments.js';
import type { JsonValue } from '../json.js';
import { mppPointerEntry, paymentRequirements, type PaymentRequirements } from './frames.js';

/** A nano amount as the decimal string requirements carry: 142857000 nano is "0.142857". */
export function decimalAmount(nano: bigint): string {
  if (nano < 0n) throw new RangeError(`an amount cannot be negative (${nano} nano)`);
  const whole = nano / NANO_PER_CURRENCY_UNIT;
  const fraction = (nano % NANO_PER_CURRENCY_UNIT)
    .toString()
    .padStart(String(NANO_PER_CURRENCY_UNIT).length - 1, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/** The body of a rail's 402 pointer (docs/platform-sdk.md g): `{error, details, requirements}`. */
export interface PurchasePointerBody {
  readonly error: string;
  readonly details: string;
  readonly requirements: PaymentRequirements;
}

export interface PointerInput {
  /** The price of the call that did not run, in nano units. */
  readonly priceNano: bigint;
  /** Where usage is sold (the platform's /api/mpp/credits); null on a deployment that sells none (no mpp entry then). */
  readonly purchaseUrl: string | null;
  readonly reason?: string;
}

/** requirements of a pointer: the token entry at index 0 and, where usage is sold, `{scheme: "mpp", purchase_url}`. */
export function pointerRequirements(input: PointerInput): PaymentRequirements {
  return paymentRequirements({
    amount: decimalAmount(input.priceNano),
    currency: REQUIREMENTS_CURRENCY,
    mpp: input.purchaseUrl === null ? null : mppPointerEntry(input.purchaseUrl),
    ...(input.reason === undefined ? {} : { reason: input.reason }),
  });
}

export function purchasePointerBody(input: PointerInput): PurchasePointerBody {
  return Object.freeze({
    [POINTER_BODY_MEMBERS.error]: POINTER_BODY_TEXT.error,
    [POINTER_BODY_MEMBERS.details]: POINTER_BODY_TEXT.details,
    [POINTER_BODY_MEMBERS.requirements]: pointerRequirements(input),
  });
}

/** The rail's whole answer: 402, JSON, not stored, and no `WWW-Authenticate: Payment` (a pointer carries no challenge). */
export interface PointerAnswer {
  readonly status: 402;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: PurchasePointerBody;
}

export function purchasePointerAnswer(input: PointerInput): PointerAnswer {
  return Object.freeze({
    status: 402 as const,
    headers: Object.freeze({ [HEADERS.contentType]: MEDIA_TYPES.json, [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL }),
    body: purchasePointerBody(input),
  });
}

/** 4.7: what the MCP delegate answers when the balance does not cover the call (the call did not run). */
export interface BalanceRequiredResult {
  readonly status: typeof DELEGATE_STATUSES.balanceRequired;
}

/** What the reference delegate answers when the call ran (its own shape; the spec shows only balance_required). */
export interface DelegateCompletedResult {
  readonly status: typeof DELEGATE_STATUSES.completed;
  readonly result: JsonValue;
}

export type DelegateResult = BalanceRequiredResult | DelegateCompletedResult;

export function balanceRequiredResult(): BalanceRequiredResult {
  return Object.freeze({ [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.balanceRequired });
}

export function delegateCompletedResult(result: JsonValue): DelegateCompletedResult {
  return Object.freeze({ [DELEGATE_MEMBERS.status]: DELEGATE_STATUSES.completed, [DELEGATE_MEMBERS.result]: result });
}
