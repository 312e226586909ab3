import { describe, expect, it } from 'vitest';
import { buyerRequest, challengeOf, PACK_CONFIG, paidHeaders, purchasePorts } from '../../bench/purchase-world.js';
import { chargeOfSameCredential, decidePurchase, unreconciledRefusal } from '../../src/purchase/index.js';
import { presentedCredential } from '../../src/purchase/machine/presented.js';
import { MemoryPurchaseStore } from '../../src/purchase/testing/index.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';

/**
 * Helpers the package exports beside the machine, which its guards no longer call themselves (the guards read a
 * credential's records once, in the same-credential guard): each still answers what it names.
 */
describe('exported purchase helpers', () => {
  it('unreconciledRefusal: payment_unreconciled with the refund state for a refunded token, nothing for another', async () => {
    const store = new MemoryPurchaseStore();
    store.recordUnreconciled({ chargeId: 'pi_1', token: 'spt_refunded', refund: 'issued' });
    const answer = await unreconciledRefusal('spt_refunded', { store }, PACK_CONFIG);
    expect(answer).toMatchObject({
      status: PURCHASE_ERRORS.payment_unreconciled.status,
      code: PURCHASE_ERRORS.payment_unreconciled.code,
      body: { refund: 'issued' },
    });
    expect(await unreconciledRefusal('spt_other', { store }, PACK_CONFIG)).toBeUndefined();
  });

  it('chargeOfSameCredential: the charge this very credential sent, nothing for another token or no credential', async () => {
    const store = new MemoryPurchaseStore();
    const ports = purchasePorts('public-helpers', store);
    const asked = await decidePurchase(buyerRequest({}), ports, PACK_CONFIG);
    const paid = buyerRequest(paidHeaders(challengeOf(asked), 'spt_same'));
    await decidePurchase(paid, ports, PACK_CONFIG);
    const found = await chargeOfSameCredential(presentedCredential(paid), store);
    expect(found?.record).toMatchObject({ token: 'spt_same', state: 'settled' });
    expect(found?.issued.id).toBe(found?.record.challengeId);
    const other = buyerRequest(paidHeaders(challengeOf(asked), 'spt_other'));
    expect(await chargeOfSameCredential(presentedCredential(other), store)).toBeUndefined();
    expect(await chargeOfSameCredential(presentedCredential(buyerRequest({})), store)).toBeUndefined();
  });
});
