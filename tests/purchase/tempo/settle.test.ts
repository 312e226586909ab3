import { describe, expect, it } from 'vitest';
import { keccak256 } from 'viem';
import { settleTransferReported } from '../../../src/purchase/machine/transfer/settle.js';
import { PAYMENT_METHODS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, PACK_NANO, T0, expectCode } from '../machine/helpers.js';
import { TempoWorld, paidTempo, quoteOf, signTransfer, transactionPayload } from './helpers.js';

/**
 * settleTransferReported: a settlement report for a transfer (a watcher of the deposit address), which no route of
 * the reference deployment takes (section 3 names a settlement reported by the card processor only, and a
 * stablecoin transfer completes when its credential is presented again, 7.4 tempo_settlement_pending). Held by
 * these tests, not by the conformance suites.
 */

/** A transfer broadcast and still pending: its hash, and the headers that present its credential again. */
async function pendingTransfer(world: TempoWorld) {
  world.network.pendingReads = 5;
  const challenge = await world.challenge();
  const serialized = await signTransfer(quoteOf(challenge), {}, T0 + 300);
  const headers = paidTempo(challenge, transactionPayload(serialized));
  expectCode(await world.decide(headers), PURCHASE_ERRORS.tempo_settlement_pending);
  return { challenge, hash: keccak256(serialized), headers };
}

describe('settleTransferReported', () => {
  it('credits a reported transfer once, marks it settled, and a later presentation is 409 purchase_already_granted', async () => {
    const world = new TempoWorld();
    const { challenge, hash, headers } = await pendingTransfer(world);
    const first = await settleTransferReported({ hash }, world.ports);
    expect(first).toEqual({
      credited: true,
      grant: expect.objectContaining({ challengeId: challenge.id, chargeId: hash, method: PAYMENT_METHODS.tempo, buyer: BUYER }),
      balanceNano: PACK_NANO,
    });
    expect(world.transfers.transferOf(challenge.id)?.state).toBe('settled');
    const again = await settleTransferReported({ hash }, world.ports);
    expect(again).toEqual({ credited: false, reason: 'already-credited', grant: expect.objectContaining({ challengeId: challenge.id, chargeId: hash }) });
    expect(world.balance()).toBe(PACK_NANO);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchase_already_granted);
  });

  it('leaves a hash no transfer claims, and every hash where transfers are not configured, to reconciliation', async () => {
    const world = new TempoWorld();
    const { hash } = await pendingTransfer(world);
    expect(await settleTransferReported({ hash: `0x${'00'.repeat(32)}` }, world.ports)).toEqual({ credited: false, reason: 'unmatched' });
    const { stablecoin: _, ...withoutTransfers } = world.ports;
    expect(await settleTransferReported({ hash }, withoutTransfers)).toEqual({ credited: false, reason: 'unmatched' });
    expect(world.balance()).toBe('0');
  });

  it('a store that cannot credit: grant-failed, nothing credited; a later report credits once', async () => {
    const world = new TempoWorld();
    const { hash } = await pendingTransfer(world);
    world.store.failGrants = 1;
    expect(await settleTransferReported({ hash }, world.ports)).toEqual({ credited: false, reason: 'grant-failed' });
    expect(world.balance()).toBe('0');
    expect(await settleTransferReported({ hash }, world.ports)).toMatchObject({ credited: true, balanceNano: PACK_NANO });
  });
});
