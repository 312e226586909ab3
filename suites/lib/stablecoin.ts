import { expect } from 'vitest';
import { Abi, AbiFunction, Address, Secp256k1 } from 'ox';
import { SignatureEnvelope, TxEnvelopeTempo } from 'ox/tempo';
import { expiresAtSeconds, serializeCredential, type ChallengeEcho, type PaymentChallenge } from '../../src/purchase/index.js';
import { tempoQuoteOf, type Hex, type TempoQuote } from '../../src/purchase/machine/tempo/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import {
  CREDENTIAL_MEMBERS,
  PAYMENT_METHODS,
  TEMPO_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_TYPES,
  TIP20_TRANSFER_ABI,
  TIP20_TRANSFER_WITH_MEMO,
} from '../../src/spec/payments.js';
import type { PaidExchange } from './buyer.js';

/** A secp256k1 key and the address it signs for (checksummed). */
const account = (privateKey: Hex) => ({ privateKey, address: Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey }), { checksum: true }) });
/** A well-known development key (never funded anywhere that matters): the stablecoin buyer's wallet. */
const wallet = account('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
/** Another development key, a fee payer sponsoring a transaction. */
const sponsor = account('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

const TIP20 = Abi.from(TIP20_TRANSFER_ABI);
const TRANSFER = AbiFunction.fromAbi(TIP20, 'transfer');
const TRANSFER_WITH_MEMO = AbiFunction.fromAbi(TIP20, TIP20_TRANSFER_WITH_MEMO);

/** Service-Payment-Methods of a buyer preferring the stablecoin (covered when signed). */
export const PREFER_TEMPO = { [HEADERS.paymentMethods]: `${PAYMENT_METHODS.tempo}, ${PAYMENT_METHODS.stripe}` };

export interface TempoOffer {
  readonly challenge: PaymentChallenge;
  readonly echo: ChallengeEcho;
  readonly quote: TempoQuote;
  readonly version: string;
}

/** The one stablecoin challenge of a 402. */
export function tempoOffer(exchange: PaidExchange, what = 'the challenge'): TempoOffer {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`${what}: expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  expect(first.challenge.method, `${what} names the stablecoin`).toBe(PAYMENT_METHODS.tempo);
  const quote = tempoQuoteOf(first.challenge.request);
  if (!quote.ok) return expect.fail(`${what}'s stablecoin request: ${quote.detail}`);
  return { challenge: first.challenge, echo: first.echo, quote: quote.quote, version: exchange.termsVersion ?? '' };
}

/** One way a transaction can differ from the quote (7.4: each is answered with a fresh challenge, never broadcast). */
export interface TransferShape {
  readonly amount?: bigint;
  readonly to?: Hex;
  readonly memo?: Hex;
  /** A second transfer beside the first. */
  readonly twice?: boolean;
  /** Asks a fee payer to sponsor it (the 0x78 hand-off) instead of paying its own fee. */
  readonly feePayer?: true;
  /** Sponsored and complete: a fee payer's signature rides beside the wallet's (0x76). */
  readonly sponsored?: true;
  /** Seconds past the challenge expiry the transaction stays valid. */
  readonly validPastExpiry?: number;
  /** Valid before this clock second instead (null: no validBefore at all, valid for ever). */
  readonly validBefore?: number | null;
  readonly chainId?: number;
  /** The contract the call goes to, instead of the quoted token. */
  readonly token?: Hex;
  /** A plain TIP-20 transfer of the amount to the recipient, with no memo. */
  readonly plainTransfer?: true;
  /** Native value the call carries beside the transfer. */
  readonly value?: bigint;
  /** Serialised without the wallet's signature. */
  readonly unsigned?: true;
  /** Serialised with a signature from which no signer can be recovered (r = 0). */
  readonly recoversNoSigner?: true;
  /** The call names no contract (it would create one). */
  readonly createsContract?: true;
  /** The call goes to the token contract with no call data. */
  readonly noCallData?: true;
  /** These bytes instead of a transaction. */
  readonly raw?: Hex;
}

let nonceKey = 0n;

/**
 * A real signed Tempo (0x76) transaction making one transferWithMemo of the quote, valid until the challenge expiry,
 * paying its own fee; `shape` bends one part of it.
 */
export async function signTransfer(o: TempoOffer, shape: TransferShape = {}): Promise<Hex> {
  if (shape.raw !== undefined) return shape.raw;
  const to = shape.to ?? o.quote.recipient;
  const amount = shape.amount ?? BigInt(o.quote.amount);
  const data = shape.plainTransfer
    ? AbiFunction.encodeData(TRANSFER, [to, amount])
    : AbiFunction.encodeData(TRANSFER_WITH_MEMO, [to, amount, shape.memo ?? o.quote.memo]);
  const call = {
    ...(shape.createsContract ? {} : { to: shape.token ?? o.quote.currency }),
    ...(shape.noCallData ? {} : { data }),
    ...(shape.value === undefined ? {} : { value: shape.value }),
  };
  const validBefore = shape.validBefore === undefined ? expiresAtSeconds(o.challenge) + (shape.validPastExpiry ?? 0) : shape.validBefore;
  const envelope = TxEnvelopeTempo.from({
    chainId: shape.chainId ?? o.quote.chainId,
    calls: shape.twice ? [call, call] : [call],
    nonce: 0n,
    nonceKey: ++nonceKey,
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    ...(validBefore === null ? {} : { validBefore }),
    // null: a fee payer is to sign (the sender commits to that, 0x00 in the envelope), as the hand-off and a sponsor both ask.
    ...(shape.feePayer || shape.sponsored ? { feePayerSignature: null } : {}),
  });
  if (shape.unsigned) return TxEnvelopeTempo.serialize(envelope) as Hex;
  if (shape.recoversNoSigner) return TxEnvelopeTempo.serialize(envelope, { signature: SignatureEnvelope.from({ r: 0n, s: 1n, yParity: 0 }) }) as Hex;
  const signature = SignatureEnvelope.from(Secp256k1.sign({ payload: TxEnvelopeTempo.getSignPayload(envelope), privateKey: wallet.privateKey }));
  // The 0x78 hand-off: the sender's signature for a fee payer to complete.
  if (shape.feePayer) return TxEnvelopeTempo.serialize(envelope, { format: 'feePayer', signature }) as Hex;
  if (shape.sponsored) {
    const signed = TxEnvelopeTempo.from(envelope, { signature });
    const payload = TxEnvelopeTempo.getFeePayerSignPayload(signed, { sender: wallet.address });
    return TxEnvelopeTempo.serialize(signed, { feePayerSignature: Secp256k1.sign({ payload, privateKey: sponsor.privateKey }) }) as Hex;
  }
  return TxEnvelopeTempo.serialize(envelope, { signature }) as Hex;
}

/** The stablecoin payload carrying a signed transaction (7.4: payload.type transaction). */
export const transactionPayload = (serialized: Hex): Record<string, string> => ({
  [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction,
  [TEMPO_PAYLOAD_MEMBERS.signature]: serialized,
});

/** The paid retry's credential carrying `payload` (a signed transaction's by default), and the assent; no methods hint. */
export function stablecoinCredential(o: TempoOffer, payload: Hex | Record<string, string>): Record<string, string> {
  const credential = {
    [CREDENTIAL_MEMBERS.challenge]: o.echo,
    [CREDENTIAL_MEMBERS.payload]: typeof payload === 'string' ? transactionPayload(payload) : payload,
    [CREDENTIAL_MEMBERS.source]: `did:pkh:eip155:${o.quote.chainId}:${wallet.address}`,
  };
  return { [HEADERS.paymentAuthorization]: serializeCredential(credential as never), [HEADERS.termsAccepted]: o.version };
}
