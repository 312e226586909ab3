import { decodeBase64urlJson } from '../purchase/wire/base64url-json.js';
import { parseCredential } from '../purchase/wire/credential.js';
import { isJsonObject } from '../purchase/wire/json.js';
import { readTempoPayload } from '../purchase/machine/tempo/payload.js';
import { tempoQuoteOf } from '../purchase/machine/tempo/quote.js';
import { checkTempoTransaction } from '../purchase/machine/tempo/transaction-check.js';
import { HEADERS } from '../spec/headers.js';
import { PAYMENT_METHODS } from '../spec/payments.js';
import { AUTH_SCHEMES } from '../spec/wire.js';
import type { ObservedRequest } from './types.js';
import { rfc3339Seconds } from '../purchase/wire/rfc3339.js';

/** How a stablecoin credential's transfer was judged when it arrived: paying the quote of the challenge it echoes, or not. */
export interface TransferJudgement {
  readonly ok: boolean;
  readonly detail: string;
}

function credentialOf(request: ObservedRequest): string | undefined {
  for (const [name, value] of request.headers) {
    const n = name.toLowerCase();
    if (n === HEADERS.paymentAuthorization) return value;
    if (n === HEADERS.authorization && value.trim().toLowerCase().startsWith(`${AUTH_SCHEMES.payment.toLowerCase()} `)) return value;
  }
  return undefined;
}

/**
 * 7.4's stablecoin credential, judged by the purchase core's own transaction check against the quote of the challenge
 * it echoes: payload.type transaction (unbroadcast), exactly one transferWithMemo of the quoted amount to the quoted
 * recipient with the quoted memo, paying its own fee, valid now and no later than the challenge expiry (`nowS` is when
 * it arrived). Undefined for a request that carries no stablecoin credential, or one whose echo does not read (the
 * echo rule judges that).
 */
export async function judgeTransfer(request: ObservedRequest, nowS: number): Promise<TransferJudgement | undefined> {
  const value = credentialOf(request);
  if (value === undefined) return undefined;
  const parsed = parseCredential(value);
  if (!parsed.ok || parsed.credential.challenge.method !== PAYMENT_METHODS.tempo) return undefined;
  const { challenge, payload } = parsed.credential;
  const request_ = decodeBase64urlJson(challenge.request);
  if (!request_.ok || !isJsonObject(request_.value)) return undefined;
  const quote = tempoQuoteOf(request_.value);
  const expiresAt = challenge.expires === undefined ? Number.NaN : rfc3339Seconds(challenge.expires);
  if (!quote.ok || !Number.isFinite(expiresAt)) return undefined;
  const read = readTempoPayload(payload);
  if (read.kind !== 'transaction') return { ok: false, detail: read.detail };
  const check = await checkTempoTransaction(read.serialized, quote.quote, { expiresAt: Math.floor(expiresAt), now: nowS });
  if (!check.ok) return { ok: false, detail: `the transaction does not pay the quote (${check.mismatch}): ${check.detail}` };
  return {
    ok: true,
    detail: `an unbroadcast transaction of wallet ${check.transfer.wallet} paying ${quote.quote.amount} of ${quote.quote.currency} to ${quote.quote.recipient} with the memo, valid until ${check.transfer.validBefore}`,
  };
}
