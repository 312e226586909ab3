import {
  decodeBase64urlJson,
  isCallAnswer,
  isGranted,
  isJsonObject,
  singlePaymentChallenge,
  type JsonObject,
  type PaymentChallenge,
  type PurchaseOutcome,
  type SaleOutcome,
} from '../../purchase/index.js';
import { HEADERS } from '../../spec/headers.js';
import { PURCHASE_BODY_MEMBERS, RETRY_MEMBERS, type RefundState } from '../../spec/payments.js';
import { BALANCE_MEMBERS, GRANTED_BODY_MEMBERS, OPAQUE_MEMBERS, RECEIPT_MEMBERS } from '../../purchase/wire/wire.js';
import type { AnswerExpect, Ledger, PurchaseBlock, ReceiptRef } from './types.js';

/** An answer as a vector states it, and the challenge riding on it (for later credentials). */
export interface Observed {
  readonly expect: AnswerExpect;
  readonly challenge: PaymentChallenge | undefined;
}

const decoder = new TextDecoder();

/** Projects an answer of the machine (pack or single-call) onto the members a vector's expect states, in the file's member order. */
export function observeAnswer(outcome: PurchaseOutcome | SaleOutcome, after: Ledger): Observed {
  const { challenge, expect } = project(outcome, after);
  const { status, answer, code, problemType, challenge: riding, retry, retryAfter, terms, body, granted, call } = expect;
  return { challenge, expect: { status, answer, code, problemType, challenge: riding, retry, retryAfter, terms, body, granted, call, after } };
}

function project(outcome: PurchaseOutcome | SaleOutcome, after: Ledger): Observed {
  const headers = outcome.headers;
  const { challenge, expect: challengeExpect } = ridingChallenge(headers[HEADERS.wwwAuthenticate]);
  const link = headers[HEADERS.link];
  const version = headers[HEADERS.termsVersion];
  const terms = link === undefined && version === undefined ? null : { link: link ?? '', version: version ?? '' };
  const retryAfterText = headers[HEADERS.retryAfter];
  const retryAfter = retryAfterText === undefined ? null : Number(retryAfterText);
  const common = { challenge: challengeExpect, retryAfter, terms, after };

  if ('call' in outcome && isCallAnswer(outcome)) {
    const receipt = headers[HEADERS.paymentReceipt];
    return {
      challenge,
      expect: {
        status: outcome.status,
        answer: 'call',
        code: null,
        problemType: null,
        retry: null,
        body: {},
        granted: null,
        call: {
          status: outcome.status,
          body: outcome.body === null ? '' : decoder.decode(outcome.body),
          receipt: receipt === undefined ? null : receiptFromHeader(receipt),
        },
        ...common,
      },
    };
  }
  if (isGranted(outcome as PurchaseOutcome)) {
    const body = outcome.body as JsonObject;
    const intent = body[GRANTED_BODY_MEMBERS.paymentIntentId];
    return {
      challenge,
      expect: {
        status: outcome.status,
        answer: 'granted',
        code: null,
        problemType: null,
        retry: null,
        body: {},
        granted: {
          packId: String(body[GRANTED_BODY_MEMBERS.packId]),
          balanceNano: String((body[GRANTED_BODY_MEMBERS.balance] as JsonObject)[BALANCE_MEMBERS.nano]),
          paymentIntentId: typeof intent === 'string' ? intent : null,
          receipt: receiptRef(body[GRANTED_BODY_MEMBERS.receipt]),
        },
        call: null,
        ...common,
      },
    };
  }
  const answer = outcome as { readonly status: number; readonly code: string; readonly body: JsonObject };
  const body = answer.body;
  const type = body.type;
  const retry = body[PURCHASE_BODY_MEMBERS.retry];
  const members: { refund?: RefundState; purchase?: PurchaseBlock; receipt?: ReceiptRef } = {};
  if (body[PURCHASE_BODY_MEMBERS.refund] !== undefined) members.refund = body[PURCHASE_BODY_MEMBERS.refund] as RefundState;
  if (body[PURCHASE_BODY_MEMBERS.purchase] !== undefined) members.purchase = purchaseBlock(body[PURCHASE_BODY_MEMBERS.purchase]);
  if (body[PURCHASE_BODY_MEMBERS.receipt] !== undefined) members.receipt = receiptRef(body[PURCHASE_BODY_MEMBERS.receipt]);
  return {
    challenge,
    expect: {
      status: answer.status,
      answer: typeof type === 'string' ? 'problem' : 'error',
      code: typeof type === 'string' ? answer.code : String(body[PURCHASE_BODY_MEMBERS.errorCode]),
      problemType: typeof type === 'string' ? type : null,
      retry: isJsonObject(retry)
        ? {
            sameCredential: retry[RETRY_MEMBERS.sameCredential] === true,
            ...(retry[RETRY_MEMBERS.credentialHeader] === undefined ? {} : { credentialHeader: String(retry[RETRY_MEMBERS.credentialHeader]) }),
          }
        : null,
      body: members,
      granted: null,
      call: null,
      ...common,
    },
  };
}

/** The Payment challenge on a WWW-Authenticate value (a 401's Bearer challenge is not one). */
function ridingChallenge(value: string | undefined): { challenge: PaymentChallenge | undefined; expect: AnswerExpect['challenge'] } {
  if (value === undefined || !/^payment\s/i.test(value)) return { challenge: undefined, expect: null };
  const parsed = singlePaymentChallenge(value);
  if (!parsed.ok) throw new Error(`the answer's WWW-Authenticate is not exactly one Payment challenge: ${parsed.detail}`);
  const challenge = parsed.challenge;
  return { challenge, expect: { method: challenge.method, purchase: challenge.opaque?.[OPAQUE_MEMBERS.kind] ?? '', id: challenge.id } };
}

function receiptRef(value: unknown): ReceiptRef {
  if (!isJsonObject(value)) throw new Error('a receipt that is not a JSON object');
  return { method: String(value[RECEIPT_MEMBERS.method]), reference: String(value[RECEIPT_MEMBERS.reference]) };
}

function receiptFromHeader(value: string): ReceiptRef {
  const decoded = decodeBase64urlJson(value);
  if (!decoded.ok) throw new Error(`Payment-Receipt does not decode: ${decoded.detail}`);
  return receiptRef(decoded.value);
}

function purchaseBlock(value: unknown): PurchaseBlock {
  if (!isJsonObject(value)) throw new Error('a purchase block that is not a JSON object');
  return {
    packId: String(value[GRANTED_BODY_MEMBERS.packId]),
    balanceNano: String((value[GRANTED_BODY_MEMBERS.balance] as JsonObject)[BALANCE_MEMBERS.nano]),
    paymentIntentId: String(value[GRANTED_BODY_MEMBERS.paymentIntentId]),
    receipt: receiptRef(value[GRANTED_BODY_MEMBERS.receipt]),
  };
}
