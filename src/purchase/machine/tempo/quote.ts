import { TEMPO_METHOD_DETAILS_MEMBERS, TEMPO_MODES, TEMPO_REQUEST_MEMBERS } from '../../../spec/payments.js';
import { isJsonObject, type JsonObject } from '../../wire/json.js';

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/**
 * What a stablecoin challenge quotes (7.4, draft-tempo-charge): the amount in the token's base units, the
 * TIP-20 token contract (`currency`), the deposit address (`recipient`), the chain and the memo the transfer
 * must carry. The server picks the memo per challenge, so a transaction signed for one challenge pays no other.
 */
export interface TempoQuote {
  /** Base units, a decimal integer string ("5000000" is 5 tokens of 6 decimals). */
  readonly amount: string;
  readonly currency: Hex;
  readonly recipient: Hex;
  readonly chainId: number;
  /** bytes32, 0x and 64 hex digits. */
  readonly memo: Hex;
}

/** Bytes in a TIP-20 memo (bytes32). */
export const TEMPO_MEMO_BYTES = 32;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MEMO = /^0x[0-9a-fA-F]{64}$/;
const BASE_UNITS = /^(0|[1-9][0-9]*)$/;

/** The memo for a challenge: 32 bytes from the injected randomness, as lower-case hex. */
export function memoOf(bytes: Uint8Array): Hex {
  if (bytes.length !== TEMPO_MEMO_BYTES) throw new TypeError(`a memo is ${TEMPO_MEMO_BYTES} bytes, not ${bytes.length}`);
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/** The challenge's `request`: `{amount, currency, recipient, methodDetails: {chainId, memo, supportedModes: ["pull"]}}`. */
export function tempoChargeRequest(quote: TempoQuote): JsonObject {
  const problem = quoteProblem(quote);
  if (problem !== undefined) throw new TypeError(`stablecoin quote: ${problem}`);
  return {
    [TEMPO_REQUEST_MEMBERS.amount]: quote.amount,
    [TEMPO_REQUEST_MEMBERS.currency]: quote.currency,
    [TEMPO_REQUEST_MEMBERS.recipient]: quote.recipient,
    [TEMPO_REQUEST_MEMBERS.methodDetails]: {
      [TEMPO_METHOD_DETAILS_MEMBERS.chainId]: quote.chainId,
      [TEMPO_METHOD_DETAILS_MEMBERS.memo]: quote.memo,
      [TEMPO_METHOD_DETAILS_MEMBERS.supportedModes]: [TEMPO_MODES.pull],
    },
  };
}

export type TempoQuoteRead = { readonly ok: true; readonly quote: TempoQuote } | { readonly ok: false; readonly detail: string };

/** Reads a stablecoin `request` back into its quote, naming the first member that is missing or wrong. */
export function tempoQuoteOf(request: JsonObject): TempoQuoteRead {
  const details = request[TEMPO_REQUEST_MEMBERS.methodDetails];
  if (!isJsonObject(details)) return { ok: false, detail: `request.${TEMPO_REQUEST_MEMBERS.methodDetails} is not an object` };
  const candidate = {
    amount: request[TEMPO_REQUEST_MEMBERS.amount],
    currency: request[TEMPO_REQUEST_MEMBERS.currency],
    recipient: request[TEMPO_REQUEST_MEMBERS.recipient],
    chainId: details[TEMPO_METHOD_DETAILS_MEMBERS.chainId],
    memo: details[TEMPO_METHOD_DETAILS_MEMBERS.memo],
  };
  const problem = quoteProblem(candidate);
  return problem === undefined ? { ok: true, quote: candidate as TempoQuote } : { ok: false, detail: problem };
}

function quoteProblem(quote: { readonly [K in keyof TempoQuote]: unknown }): string | undefined {
  if (typeof quote.amount !== 'string' || !BASE_UNITS.test(quote.amount)) return `${TEMPO_REQUEST_MEMBERS.amount} is not a decimal integer of base units`;
  if (typeof quote.currency !== 'string' || !ADDRESS.test(quote.currency)) return `${TEMPO_REQUEST_MEMBERS.currency} is not a token contract address`;
  if (typeof quote.recipient !== 'string' || !ADDRESS.test(quote.recipient)) return `${TEMPO_REQUEST_MEMBERS.recipient} is not a deposit address`;
  if (typeof quote.chainId !== 'number' || !Number.isSafeInteger(quote.chainId) || quote.chainId <= 0)
    return `${TEMPO_METHOD_DETAILS_MEMBERS.chainId} is not a positive integer`;
  if (typeof quote.memo !== 'string' || !MEMO.test(quote.memo)) return `${TEMPO_METHOD_DETAILS_MEMBERS.memo} is not bytes32 hex`;
  return undefined;
}
