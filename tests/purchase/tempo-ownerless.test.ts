import { describe, expect, it } from 'vitest';
import type { MemoryBuyerDirectory } from '../../src/purchase/testing/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { BUYER, T0, expectCode } from './machine/helpers.js';
import { TempoWorld, paidTempo, quoteOf, signTransfer, transactionPayload } from './tempo/helpers.js';

describe('ownerless_balance_cap on the stablecoin path (7.4)', () => {
  it('an ownerless agent at the cap is refused 403 before anything is broadcast; an operator key covered by the signature claims it', async () => {
    const world = new TempoWorld({ sellsToUnplaceableBuyers: true }, { ownerlessBalanceCapNano: '0', ownerKeys: ['owner-key-1'] });
    (world.ports.buyers as MemoryBuyerDirectory).ownerless.add(BUYER);
    const challenge = await world.challenge();
    const headers = paidTempo(challenge, transactionPayload(await signTransfer(quoteOf(challenge), {}, T0 + 300)));
    expectCode(await world.decide(headers), PURCHASE_ERRORS.ownerless_balance_cap);
    world.expectNothingBroadcast();
    const claimed = await world.decide(
      { ...headers, [HEADERS.ownerKey]: 'owner-key-1' },
      { coveredHeaders: [HEADERS.paymentAuthorization, HEADERS.termsAccepted, HEADERS.ownerKey] },
    );
    expect(claimed.status).toBe(200);
  });
});
