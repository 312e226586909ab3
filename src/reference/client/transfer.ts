import { randomBytes } from 'node:crypto';
import { Abi, AbiFunction, Address, Secp256k1 } from 'ox';
import { SignatureEnvelope, TxEnvelopeTempo } from 'ox/tempo';
import type { Hex, TempoQuote } from '../../purchase/machine/tempo/quote.js';
import { TIP20_TRANSFER_ABI, TIP20_TRANSFER_WITH_MEMO } from '../../spec/payments.js';

const TRANSFER_WITH_MEMO = AbiFunction.fromAbi(Abi.from(TIP20_TRANSFER_ABI), TIP20_TRANSFER_WITH_MEMO);

/** What the transfer a stablecoin buyer signs pays: by default the quote exactly, valid until the challenge expiry. */
export interface TransferShape {
  readonly token: Hex;
  readonly to: Hex;
  readonly amount: bigint;
  readonly memo: Hex;
  readonly chainId: number;
  /** Clock seconds before which the transaction must land. */
  readonly validBefore: number;
}

/** The shape that pays `quote` exactly, valid until `expiresAt` (7.4). */
export function quotedTransfer(quote: TempoQuote, expiresAt: number): TransferShape {
  return { token: quote.currency, to: quote.recipient, amount: BigInt(quote.amount), memo: quote.memo, chainId: quote.chainId, validBefore: expiresAt };
}

/**
 * A signed, unbroadcast Tempo transaction of `walletKey` making one transferWithMemo of `shape`, paying its own fee (7.4:
 * "an unbroadcast transaction signed by the paying wallet ... making exactly one transferWithMemo"), with a fresh nonce
 * key; and the payer's DID (did:pkh) for the credential's source.
 */
export async function signTransfer(walletKey: string, shape: TransferShape): Promise<{ readonly serialized: Hex; readonly source: string }> {
  const privateKey = walletKey as Hex;
  const address = Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey }), { checksum: true });
  const data = AbiFunction.encodeData(TRANSFER_WITH_MEMO, [shape.to, shape.amount, shape.memo]);
  const envelope = TxEnvelopeTempo.from({
    chainId: shape.chainId,
    calls: [{ to: shape.token, data }],
    nonce: 0n,
    nonceKey: BigInt(`0x${randomBytes(8).toString('hex')}`),
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    validBefore: shape.validBefore,
  });
  const signature = Secp256k1.sign({ payload: TxEnvelopeTempo.getSignPayload(envelope), privateKey });
  const serialized = TxEnvelopeTempo.serialize(envelope, { signature: SignatureEnvelope.from(signature) }) as Hex;
  return { serialized, source: `did:pkh:eip155:${shape.chainId}:${address}` };
}
