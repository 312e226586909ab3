import { randomBytes } from 'node:crypto';
import { encodeFunctionData, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Abis, Transaction } from 'viem/tempo';
import type { TempoQuote } from '../../purchase/machine/tempo/quote.js';
import { TIP20_TRANSFER_WITH_MEMO } from '../../spec/payments.js';

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
  const wallet = privateKeyToAccount(walletKey as Hex);
  const data = encodeFunctionData({ abi: Abis.tip20, functionName: TIP20_TRANSFER_WITH_MEMO, args: [shape.to, shape.amount, shape.memo] });
  const transaction = {
    chainId: shape.chainId,
    calls: [{ to: shape.token, data }],
    nonce: 0,
    nonceKey: BigInt(`0x${randomBytes(8).toString('hex')}`),
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    validBefore: shape.validBefore,
  };
  const serialized = (await wallet.signTransaction(transaction as never, { serializer: Transaction.serialize as never })) as Hex;
  return { serialized, source: `did:pkh:eip155:${shape.chainId}:${wallet.address}` };
}
