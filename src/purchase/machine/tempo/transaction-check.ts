import { Abi, AbiFunction, Hash } from 'ox';
import { TxEnvelopeTempo } from 'ox/tempo';
import { TEMPO_TRANSACTION_TYPE, TIP20_TRANSFER_ABI, TIP20_TRANSFER_WITH_MEMO } from '../../../spec/payments.js';
import type { Hex, TempoQuote } from './quote.js';

/** Why a stablecoin payload's transaction does not pay the quote. Each one is answered with a fresh challenge and nothing is broadcast (7.4). */
export type TransactionMismatch =
  | 'not-hex'
  | 'fee-payer'
  | 'not-tempo'
  | 'undecodable'
  | 'unsigned'
  | 'not-wallet-signature'
  | 'wrong-chain'
  | 'extra-effects'
  | 'not-one-call'
  | 'wrong-token'
  | 'carries-value'
  | 'not-transfer-with-memo'
  | 'wrong-amount'
  | 'wrong-recipient'
  | 'wrong-memo'
  | 'no-expiry'
  | 'valid-after-expiry'
  | 'transaction-expired';

/** A transaction that pays the quote exactly: what the machine broadcasts, claims and counts. */
export interface AdmittedTransfer {
  /** The transaction hash (keccak256 of the canonical serialization): the receipt reference and the replay key. */
  readonly hash: Hex;
  /** The canonical serialization, as broadcast (the node derives the hash from it). */
  readonly serialized: Hex;
  /** The paying wallet, recovered from the signature (lower case). */
  readonly wallet: Hex;
  /** Clock seconds after which the transaction can no longer land. */
  readonly validBefore: number;
}

export type TransactionCheck =
  | { readonly ok: true; readonly transfer: AdmittedTransfer }
  | { readonly ok: false; readonly mismatch: TransactionMismatch; readonly detail: string };

/** The window the transaction must fit: it must stay valid now and expire no later than the challenge. */
export interface TransferWindow {
  /** The challenge's expiry, clock seconds. */
  readonly expiresAt: number;
  readonly now: number;
}

/** Signatures made by the wallet's own key, whose address the signature itself establishes. */
const WALLET_SIGNATURE_TYPES: ReadonlySet<string> = new Set(['secp256k1', 'p256', 'webAuthn']);
const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;
/** The fee-payer hand-off envelope (a sender signature awaiting a sponsor), Tempo type 0x78. */
const FEE_PAYER_ENVELOPE = '0x78';

const TIP20 = Abi.from(TIP20_TRANSFER_ABI);
const TRANSFER_WITH_MEMO = AbiFunction.fromAbi(TIP20, TIP20_TRANSFER_WITH_MEMO);

const refuse = (mismatch: TransactionMismatch, detail: string): TransactionCheck => ({ ok: false, mismatch, detail });
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Checks a stablecoin payload's transaction against the quote, decoding it with ox's Tempo transaction envelope
 * (ox/tempo TxEnvelopeTempo) and the TIP-20 ABI; never by hand. The transaction must be a
 * signed Tempo transaction (type 0x76) on the quoted chain whose one and only effect is one `transferWithMemo`
 * call on the token contract of exactly the amount to exactly the deposit address with exactly the memo;
 * it pays its own fee (no fee payer, no sponsor hand-off), carries no key authorization or delegation, and
 * is valid now and until no later than the challenge expiry (draft-tempo-charge: validBefore <= expires).
 */
export async function checkTempoTransaction(serialized: string, quote: TempoQuote, window: TransferWindow): Promise<TransactionCheck> {
  if (!HEX.test(serialized)) return refuse('not-hex', 'payload.signature is not 0x-prefixed hex of whole bytes');
  const prefix = serialized.slice(0, 4).toLowerCase();
  if (prefix === FEE_PAYER_ENVELOPE) return refuse('fee-payer', 'the transaction asks a fee payer to sponsor it; sign one that pays its own fee');
  if (prefix !== TEMPO_TRANSACTION_TYPE) return refuse('not-tempo', `the transaction is not a Tempo transaction (type ${TEMPO_TRANSACTION_TYPE})`);

  let tx: TxEnvelopeTempo.TxEnvelopeTempo;
  try {
    tx = TxEnvelopeTempo.deserialize(serialized as TxEnvelopeTempo.Serialized);
  } catch (error) {
    return refuse('undecodable', `the transaction does not decode (${firstLine(error)})`);
  }

  if (tx.feePayerSignature !== undefined) return refuse('fee-payer', 'the transaction names a fee payer; sign one that pays its own fee');
  if (tx.signature === undefined) return refuse('unsigned', 'the transaction is not signed');
  if (tx.from === undefined) return refuse('unsigned', 'the signature recovers no sender');
  if (!WALLET_SIGNATURE_TYPES.has(tx.signature.type))
    return refuse('not-wallet-signature', `the transaction is signed with a ${tx.signature.type} signature; sign it with the paying wallet's own key`);
  if (tx.chainId !== quote.chainId) return refuse('wrong-chain', `the transaction is for chain ${tx.chainId}, the challenge quotes chain ${quote.chainId}`);
  if (tx.keyAuthorization != null || (tx.authorizationList?.length ?? 0) > 0)
    return refuse('extra-effects', 'the transaction also authorizes a key or a delegation; it must only make the transfer');

  const calls = tx.calls ?? [];
  if (calls.length !== 1) return refuse('not-one-call', `the transaction makes ${calls.length} calls; it must make exactly one ${TIP20_TRANSFER_WITH_MEMO}`);
  const call = calls[0]!;
  if (typeof call.to !== 'string' || !same(call.to, quote.currency))
    return refuse('wrong-token', `the call goes to ${call.to ?? 'no contract'}, not the token contract ${quote.currency}`);
  if ((call.value ?? 0n) !== 0n) return refuse('carries-value', 'the call carries native value; it must only transfer the token');

  let transfer: { readonly to: string; readonly amount: bigint; readonly memo: string };
  try {
    const data = call.data ?? '0x';
    const named = AbiFunction.fromAbi(TIP20, data);
    if (named.name !== TIP20_TRANSFER_WITH_MEMO) return refuse('not-transfer-with-memo', `the call is ${named.name}, not ${TIP20_TRANSFER_WITH_MEMO}`);
    const [to, amount, memo] = AbiFunction.decodeData(TRANSFER_WITH_MEMO, data);
    transfer = { to, amount, memo };
  } catch {
    return refuse('not-transfer-with-memo', `the call data is not a TIP-20 ${TIP20_TRANSFER_WITH_MEMO}`);
  }
  if (transfer.amount !== BigInt(quote.amount))
    return refuse('wrong-amount', `the transfer moves ${transfer.amount} base units; the challenge quotes ${quote.amount}`);
  if (!same(transfer.to, quote.recipient)) return refuse('wrong-recipient', `the transfer pays ${transfer.to}, not the deposit address ${quote.recipient}`);
  if (!same(transfer.memo, quote.memo)) return refuse('wrong-memo', `the transfer carries memo ${transfer.memo}; the challenge quotes memo ${quote.memo}`);

  if (tx.validBefore === undefined) return refuse('no-expiry', 'the transaction has no validBefore; it must expire no later than the challenge');
  if (tx.validBefore > window.expiresAt)
    return refuse('valid-after-expiry', `the transaction stays valid until ${tx.validBefore}, after the challenge expiry ${window.expiresAt}`);
  if (tx.validBefore <= window.now) return refuse('transaction-expired', `the transaction expired at ${tx.validBefore}`);

  let canonical: Hex;
  try {
    canonical = TxEnvelopeTempo.serialize(tx) as Hex;
  } catch (error) {
    return refuse('undecodable', `the transaction does not decode (${firstLine(error)})`);
  }
  return { ok: true, transfer: { hash: Hash.keccak256(canonical), serialized: canonical, wallet: tx.from.toLowerCase() as Hex, validBefore: tx.validBefore } };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return text.split('\n')[0]!;
}

/** The hash of a serialized Tempo transaction (keccak256 of its canonical serialization), or undefined when it does not decode. */
export async function tempoTransactionHash(serialized: string): Promise<Hex | undefined> {
  if (!HEX.test(serialized) || serialized.slice(0, 4).toLowerCase() !== TEMPO_TRANSACTION_TYPE) return undefined;
  try {
    return TxEnvelopeTempo.hash(TxEnvelopeTempo.deserialize(serialized as TxEnvelopeTempo.Serialized) as TxEnvelopeTempo.TxEnvelopeTempo<true>);
  } catch {
    return undefined;
  }
}
