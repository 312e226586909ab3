import { decodeFunctionData, keccak256 } from 'viem';
import { Abis, Transaction } from 'viem/tempo';
import { TEMPO_TRANSACTION_TYPE, TIP20_TRANSFER_WITH_MEMO } from '../../spec/payments.js';
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

// Stryker disable next-line ObjectLiteral: an answer without ok is refused just the same; the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
const refuse = (mismatch: TransactionMismatch, detail: string): TransactionCheck => ({ ok: false, mismatch, detail });
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Checks a stablecoin payload's transaction against the quote, decoding it with viem's Tempo transaction
 * support (viem/tempo, on ox's TxEnvelopeTempo) and the TIP-20 ABI; never by hand. The transaction must be a
 * signed Tempo transaction (type 0x76) on the quoted chain whose one and only effect is one `transferWithMemo`
 * call on the token contract of exactly the amount to exactly the deposit address with exactly the memo;
 * it pays its own fee (no fee payer, no sponsor hand-off), carries no key authorization or delegation, and
 * is valid now and until no later than the challenge expiry (draft-tempo-charge: validBefore <= expires).
 */
export async function checkTempoTransaction(serialized: string, quote: TempoQuote, window: TransferWindow): Promise<TransactionCheck> {
  // Stryker disable next-line all: what is not hex cannot start with the Tempo type either, refused below with the same answer: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (!HEX.test(serialized)) return refuse('not-hex', 'payload.signature is not 0x-prefixed hex of whole bytes');
  const prefix = serialized.slice(0, 4).toLowerCase();
  // Stryker disable next-line all: the 0x78 envelope is not the Tempo type either, refused on the next line with the same answer: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (prefix === FEE_PAYER_ENVELOPE) return refuse('fee-payer', 'the transaction asks a fee payer to sponsor it; sign one that pays its own fee');
  // Stryker disable next-line StringLiteral,ConditionalExpression: viem decodes every other type with an r, s, v signature and no Tempo one, so the unsigned test below refuses it with the same answer; the mismatch and its detail reach only a problem's words.
  if (prefix !== TEMPO_TRANSACTION_TYPE) return refuse('not-tempo', `the transaction is not a Tempo transaction (type ${TEMPO_TRANSACTION_TYPE})`);

  let tx: Transaction.TransactionSerializableTempo;
  let canonical: Hex;
  try {
    tx = Transaction.deserialize(serialized as Transaction.TransactionSerializedTempo);
    canonical = await Transaction.serialize(tx);
  } catch (error) {
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('undecodable', `the transaction does not decode (${firstLine(error)})`);
  }

  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (tx.feePayerSignature !== undefined) return refuse('fee-payer', 'the transaction names a fee payer; sign one that pays its own fee');
  // Stryker disable next-line StringLiteral,ConditionalExpression: ox names a sender without a signature only beside a fee payer's hand-off, refused above, so an unsigned transaction has no sender and the next test refuses it with the same answer; the words reach only a problem's detail.
  if (tx.signature === undefined) return refuse('unsigned', 'the transaction is not signed');
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (tx.from === undefined) return refuse('unsigned', 'the signature recovers no sender');
  if (!WALLET_SIGNATURE_TYPES.has(tx.signature.type))
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('not-wallet-signature', `the transaction is signed with a ${tx.signature.type} signature; sign it with the paying wallet's own key`);
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (tx.chainId !== quote.chainId) return refuse('wrong-chain', `the transaction is for chain ${tx.chainId}, the challenge quotes chain ${quote.chainId}`);
  // ox decodes an EIP-7702 style authorization list onto the envelope; viem's type does not name it.
  const delegations = (tx as { readonly authorizationList?: readonly unknown[] }).authorizationList;
  if (tx.keyAuthorization !== undefined || (delegations?.length ?? 0) > 0)
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('extra-effects', 'the transaction also authorizes a key or a delegation; it must only make the transfer');

  // Stryker disable next-line ArrayDeclaration: a transaction without calls is refused either way, the made-up call going to no contract.
  const calls = tx.calls ?? [];
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (calls.length !== 1) return refuse('not-one-call', `the transaction makes ${calls.length} calls; it must make exactly one ${TIP20_TRANSFER_WITH_MEMO}`);
  const call = calls[0]!;
  if (typeof call.to !== 'string' || !same(call.to, quote.currency))
    // Stryker disable next-line StringLiteral,LogicalOperator: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('wrong-token', `the call goes to ${call.to ?? 'no contract'}, not the token contract ${quote.currency}`);
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if ((call.value ?? 0n) !== 0n) return refuse('carries-value', 'the call carries native value; it must only transfer the token');

  let transfer: { readonly to: string; readonly amount: bigint; readonly memo: string };
  try {
    // Stryker disable next-line StringLiteral: absent call data fails to decode as a transferWithMemo whether it is read as 0x or as nothing.
    const decoded = decodeFunctionData({ abi: Abis.tip20, data: call.data ?? '0x' });
    if (decoded.functionName !== TIP20_TRANSFER_WITH_MEMO)
      // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
      return refuse('not-transfer-with-memo', `the call is ${decoded.functionName}, not ${TIP20_TRANSFER_WITH_MEMO}`);
    const [to, amount, memo] = decoded.args;
    transfer = { to, amount, memo };
  } catch {
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('not-transfer-with-memo', `the call data is not a TIP-20 ${TIP20_TRANSFER_WITH_MEMO}`);
  }
  if (transfer.amount !== BigInt(quote.amount))
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('wrong-amount', `the transfer moves ${transfer.amount} base units; the challenge quotes ${quote.amount}`);
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (!same(transfer.to, quote.recipient)) return refuse('wrong-recipient', `the transfer pays ${transfer.to}, not the deposit address ${quote.recipient}`);
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (!same(transfer.memo, quote.memo)) return refuse('wrong-memo', `the transfer carries memo ${transfer.memo}; the challenge quotes memo ${quote.memo}`);

  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (tx.validBefore === undefined) return refuse('no-expiry', 'the transaction has no validBefore; it must expire no later than the challenge');
  if (tx.validBefore > window.expiresAt)
    // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
    return refuse('valid-after-expiry', `the transaction stays valid until ${tx.validBefore}, after the challenge expiry ${window.expiresAt}`);
  // Stryker disable next-line StringLiteral: the mismatch and its detail reach only a problem's words (7.4 answers every mismatch alike).
  if (tx.validBefore <= window.now) return refuse('transaction-expired', `the transaction expired at ${tx.validBefore}`);

  return { ok: true, transfer: { hash: keccak256(canonical), serialized: canonical, wallet: tx.from.toLowerCase() as Hex, validBefore: tx.validBefore } };
}

// Stryker disable all: the first line of a decoding error reaches only a problem's words.
function firstLine(error: unknown): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return text.split('\n')[0]!;
}

// Stryker restore all
/** The hash of a serialized Tempo transaction (keccak256 of its canonical serialization), or undefined when it does not decode. */
export async function tempoTransactionHash(serialized: string): Promise<Hex | undefined> {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: what is not hex or not of the Tempo type either fails to decode below or hashes to bytes no admitted transfer has, so the record look-up answers the same.
  if (!HEX.test(serialized) || serialized.slice(0, 4).toLowerCase() !== TEMPO_TRANSACTION_TYPE) return undefined;
  try {
    // Stryker disable BlockStatement: the catch below, left empty, answers undefined just the same.
    return keccak256(await Transaction.serialize(Transaction.deserialize(serialized as Transaction.TransactionSerializedTempo)));
  } catch {
    // Stryker restore BlockStatement
    return undefined;
  }
}
