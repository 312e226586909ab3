import { describe, expect, it } from 'vitest';
import type { PaymentCredential } from '../../../src/purchase/index.js';
import type { TransferRecord } from '../../../src/purchase/machine/ports/stablecoin.js';
import { tempoTransactionHash, type TempoQuote } from '../../../src/purchase/machine/tempo/index.js';
import { transferOfSameCredential } from '../../../src/purchase/machine/transfer/record.js';
import {
  FakeStablecoinNetwork,
  FixedWalletLocations,
  MemoryPurchaseStore,
  MemoryTransferStore,
  MemoryWalletCaps,
} from '../../../src/purchase/testing/index.js';
import { CHAIN_ID, DEPOSIT, TOKEN, signTransfer } from './helpers.js';

/*
 * Section 3 row 1 for a transfer: the same credential again finds the transfer it recorded; anything else finds
 * none, and is read as a new presentation rather than failing.
 */

const QUOTE: TempoQuote = { amount: '250000', currency: TOKEN, recipient: DEPOSIT, chainId: CHAIN_ID, memo: `0x${'cd'.repeat(32)}` };

function credential(payload: Record<string, string>, method = 'tempo'): PaymentCredential {
  return {
    challenge: { id: 'ch_1', realm: 'platform.example', method, intent: 'charge', request: 'e30', expires: '2026-09-18T12:05:00Z' },
    payload,
  } as PaymentCredential;
}

async function recorded(): Promise<{ serialized: `0x${string}`; transfers: MemoryTransferStore }> {
  const serialized = await signTransfer(QUOTE);
  const transfers = new MemoryTransferStore();
  transfers.openTransfer({
    challengeId: 'ch_1',
    hash: await tempoTransactionHash(serialized),
    serialized,
    wallet: '0x0000000000000000000000000000000000000001',
    buyer: 'https://buyer.agent.example/',
    termsVersion: '2026-07-31',
    packId: 'call_echo',
    price: { amount: QUOTE.amount, currency: QUOTE.currency },
    creditNano: '250000000',
    state: 'broadcast',
    validBefore: 1_789_733_100,
  } as unknown as TransferRecord);
  return { serialized, transfers };
}

const stablecoin = (transfers: MemoryTransferStore) => ({
  network: new FakeStablecoinNetwork(),
  transfers,
  walletCaps: new MemoryWalletCaps(),
  locations: new FixedWalletLocations(),
});

describe('the same stablecoin credential again (section 3 row 1)', () => {
  it('finds no transfer where the deployment takes no stablecoin', async () => {
    const { serialized } = await recorded();
    expect(await transferOfSameCredential(credential({ type: 'transaction', signature: serialized }), { store: new MemoryPurchaseStore() })).toBeUndefined();
  });

  it('finds no transfer for a payload that is not a transaction', async () => {
    const { transfers } = await recorded();
    const ports = { store: new MemoryPurchaseStore(), stablecoin: stablecoin(transfers) };
    expect(await transferOfSameCredential(credential({ type: 'hash', hash: `0x${'ab'.repeat(32)}` }), ports)).toBeUndefined();
  });

  it('finds no transfer whose challenge the store no longer holds', async () => {
    const { serialized, transfers } = await recorded();
    const ports = { store: new MemoryPurchaseStore(), stablecoin: stablecoin(transfers) };
    expect(await transferOfSameCredential(credential({ type: 'transaction', signature: serialized }), ports)).toBeUndefined();
  });
});
