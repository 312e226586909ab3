import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { Transaction } from 'viem/tempo';
import { checkTempoTransaction, memoOf, type TempoQuote } from '../../../src/purchase/machine/tempo/index.js';
import { T0 } from '../machine/helpers.js';
import { AMOUNT, CHAIN_ID, DEPOSIT, TOKEN, wallet } from './helpers.js';

/*
 * A stablecoin payload's transaction (7.4 tempo), refused with the mismatch that names what is wrong: a call on the
 * token whose data is not a TIP-20 transferWithMemo, and a transaction that does not decode, in the decoder's words.
 */

const quote: TempoQuote = { amount: AMOUNT, currency: TOKEN, recipient: DEPOSIT, chainId: CHAIN_ID, memo: memoOf(new Uint8Array(32).fill(9)) };
const window = { expiresAt: T0 + 300, now: T0 };

/** A signed Tempo transaction making one call on the token with `data`. */
function signCall(data: Hex): Promise<Hex> {
  const transaction = {
    chainId: CHAIN_ID,
    calls: [{ to: TOKEN, data }],
    nonce: 0,
    nonceKey: 1n,
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    validBefore: T0 + 300,
  };
  return wallet.signTransaction(transaction as never, { serializer: Transaction.serialize as never }) as Promise<Hex>;
}

describe('the transaction of a stablecoin payload (7.4 tempo)', () => {
  it('refuses a call on the token whose data decodes as no TIP-20 function', async () => {
    const check = await checkTempoTransaction(await signCall('0xdeadbeef'), quote, window);
    expect(check).toMatchObject({ ok: false, mismatch: 'not-transfer-with-memo' });
  });

  it("says a transaction that does not decode does not, in the first line of the decoder's words", async () => {
    const check = await checkTempoTransaction('0x76deadbeef', quote, window);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.detail).toMatch(/^the transaction does not decode \([^\n)]{2,}/);
    if (!check.ok) expect(check.detail).not.toMatch(/\(undefined\)/);
  });
});
