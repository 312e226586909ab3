import { describe, expect } from 'vitest';
import { adapterTests } from './adapter-tests.js';
import { ManualClock } from '../../src/purchase/testing/memory.js';
import type { ChargeRecord, Clock, Grant, IssuedChallenge, PurchaseStore } from '../../src/purchase/machine/ports/purchase.js';
import type { CapCounters, Funding, SaleRecord, SaleStore } from '../../src/purchase/machine/sale/ports.js';
import type { TransferRecord, TransferStore, WalletDailyCaps } from '../../src/purchase/machine/ports/stablecoin.js';
import type { Hex } from '../../src/purchase/machine/tempo/quote.js';
import type { BalancePort } from '../../src/reference/paid/balance-port.js';
import type { ChallengeEcho } from '../../src/purchase/wire/challenge.js';

/** The purchase machine's stores of one adapter, fresh and empty. */
export interface PurchaseStoresUnderTest {
  readonly store: PurchaseStore;
  readonly funding: Funding;
  readonly sales: SaleStore;
  readonly transfers: TransferStore;
  readonly walletCaps: WalletDailyCaps;
  readonly caps: CapCounters;
  /** The paid rails' ledger over `store`'s balances. */
  readonly ledger: BalancePort;
  /** Makes every grant fail where the adapter keeps it (a database refusing the write), or work again. */
  grantsFail(failing: boolean): Promise<void>;
  close?(): Promise<void>;
}

export type PurchaseStoresFactory = (options: {
  readonly clock?: Clock;
  readonly referencedElsewhere?: (challengeId: string) => boolean;
}) => Promise<PurchaseStoresUnderTest>;

const NOW = 1_800_000_000;

function issued(id: string, expiresAt = NOW + 300): IssuedChallenge {
  const echo = {
    id,
    realm: 'platform.example',
    method: 'stripe',
    intent: 'charge',
    request: 'e30',
    expires: '2027-01-15T08:05:00Z',
  } as unknown as ChallengeEcho;
  return {
    id,
    echo,
    issuedAt: expiresAt - 300,
    expiresAt,
    termsVersion: '2026-07-31',
    method: 'stripe',
    kind: 'pack',
    origin: '/api/mpp/credits',
    packId: 'mpp_5',
    price: { amount: '500', currency: 'usd' },
    creditNano: '5000000000',
  };
}

function charge(challengeId: string, token: string, buyer = 'https://agents.example/a/alice'): ChargeRecord {
  return {
    challengeId,
    token,
    idempotencyKey: `mpp_${challengeId}`,
    buyer,
    termsVersion: '2026-07-31',
    packId: 'mpp_5',
    price: { amount: '500', currency: 'usd' },
    creditNano: '5000000000',
    state: 'sent',
    sentAt: NOW,
  };
}

function grantOf(challengeId: string, buyer = 'https://agents.example/a/alice', creditNano = '5000000000'): Grant {
  return { challengeId, buyer, packId: 'mpp_5', creditNano, chargeId: `pi_${challengeId}`, method: 'stripe', termsVersion: '2026-07-31', grantedAt: NOW };
}

function sale(challengeId: string): SaleRecord {
  return {
    challengeId,
    resource: '/api/priced/echo',
    account: 'https://agents.example/a/alice',
    payer: 'https://agents.example/a/alice',
    priceNano: '250000000',
    state: 'open',
    openedAt: NOW,
  };
}

const HASH_1 = '0xAB00000000000000000000000000000000000000000000000000000000000001' as Hex;
const HASH_2 = '0xab00000000000000000000000000000000000000000000000000000000000002' as Hex;
const WALLET = '0x7E57000000000000000000000000000000000009' as Hex;

function transfer(challengeId: string, hash: Hex, buyer = 'https://agents.example/a/alice'): TransferRecord {
  return {
    challengeId,
    hash,
    serialized: '0x76f8' as Hex,
    wallet: WALLET,
    buyer,
    termsVersion: '2026-07-31',
    packId: 'mpp_5',
    price: { amount: '5000000', currency: '0x20c0000000000000000000000000000000000001' },
    creditNano: '5000000000',
    state: 'broadcast',
    openedAt: NOW,
    expiresAt: NOW + 300,
    validBefore: NOW + 300,
  };
}

/**
 * What every adapter of the purchase ports must do, run over each (memory, SQLite, PostgreSQL) so they cannot
 * drift: the records as the machine reads them back, "charged once" and "credited once" under concurrent callers,
 * the challenge expiry of the memory store, the funding holds and the sale moves.
 */
export function purchaseStoreContract(name: string, open: PurchaseStoresFactory, skip?: () => string | undefined): void {
  describe(`purchase stores: ${name}`, () => {
    const adapter = adapterTests(open, skip);
    const fresh = (options: Parameters<PurchaseStoresFactory>[0] = {}) => adapter.fresh(options);
    const test = adapter.test;

    test('reads back a challenge as issued, and nothing for an unknown id', async () => {
      const { store } = await fresh();
      await store.issue(issued('ch_1'));
      expect(await store.challenge('ch_1')).toEqual(issued('ch_1'));
      expect(await store.challenge('ch_2')).toBeUndefined();
    });

    test('opens one charge per challenge and per token, and answers the one that stands', async () => {
      const { store } = await fresh();
      expect(await store.openCharge(charge('ch_1', 'spt_a'))).toEqual({ opened: true, record: charge('ch_1', 'spt_a') });
      expect(await store.openCharge(charge('ch_1', 'spt_b'))).toEqual({ opened: false, clash: 'challenge', existing: charge('ch_1', 'spt_a') });
      expect(await store.openCharge(charge('ch_2', 'spt_a'))).toEqual({ opened: false, clash: 'token', existing: charge('ch_1', 'spt_a') });
      expect(await store.chargeByToken('spt_b')).toBeUndefined();
    });

    test('finds a charge by challenge, key, token and, once known, the processor id; updates keep an id already learned', async () => {
      const { store } = await fresh();
      await store.openCharge(charge('ch_1', 'spt_a'));
      expect(await store.chargeById('pi_1')).toBeUndefined();
      expect(await store.updateCharge('ch_1', { state: 'sent', chargeId: 'pi_1' })).toEqual({ ...charge('ch_1', 'spt_a'), chargeId: 'pi_1' });
      const settled = { ...charge('ch_1', 'spt_a'), state: 'settled', chargeId: 'pi_1' };
      expect(await store.updateCharge('ch_1', { state: 'settled' })).toEqual(settled);
      for (const found of [store.chargeOf('ch_1'), store.chargeById('pi_1'), store.chargeByKey('mpp_ch_1'), store.chargeByToken('spt_a')]) {
        expect(await found).toEqual(settled);
      }
      await expect(async () => store.updateCharge('ch_9', { state: 'failed' })).rejects.toThrow();
    });

    test('credits a grant once, adding to the balance of its buyer only', async () => {
      const { store } = await fresh();
      expect(await store.balance('https://agents.example/a/alice')).toBe('0');
      expect(await store.grant(grantOf('ch_1'))).toEqual({ granted: true, grant: grantOf('ch_1'), balanceNano: '5000000000' });
      const again = { ...grantOf('ch_1'), grantedAt: NOW + 5, chargeId: 'pi_other' };
      expect(await store.grant(again)).toEqual({ granted: false, grant: grantOf('ch_1'), balanceNano: '5000000000' });
      expect(await store.grant(grantOf('ch_2', undefined, '9000000000000000000'))).toMatchObject({ granted: true, balanceNano: '9000000005000000000' });
      expect(await store.grant(grantOf('ch_3', 'https://agents.example/a/bob'))).toMatchObject({ balanceNano: '5000000000' });
      expect(await store.grantOf('ch_1')).toEqual(grantOf('ch_1'));
      expect(await store.grantOf('ch_9')).toBeUndefined();
      expect(await store.balance('https://agents.example/a/alice')).toBe('9000000005000000000');
    });

    test('under 20 concurrent callers, a challenge is credited once and a token charged once', async () => {
      const { store } = await fresh();
      const grants = await Promise.all(Array.from({ length: 20 }, () => store.grant(grantOf('ch_1'))));
      expect(grants.filter((g) => g.granted)).toHaveLength(1);
      expect(await store.balance('https://agents.example/a/alice')).toBe('5000000000');
      const opens = await Promise.all(Array.from({ length: 20 }, (_, i) => store.openCharge(charge(`ch_${i}`, 'spt_once'))));
      expect(opens.filter((o) => o.opened)).toHaveLength(1);
      expect(opens.filter((o) => !o.opened && o.clash === 'token')).toHaveLength(19);
    });

    // Section 3: the same credential presented again resumes its charge. A store that answered the token's clash
    // first would turn the same credential racing itself into "a token paid under another challenge".
    test('the same record opened by 10 concurrent callers is opened once and clashes on its challenge for the rest', async () => {
      const { store } = await fresh();
      const opens = await Promise.all(Array.from({ length: 10 }, () => store.openCharge(charge('ch_1', 'spt_same'))));
      expect(opens.filter((o) => o.opened)).toHaveLength(1);
      expect(opens.filter((o) => !o.opened).map((o) => !o.opened && o.clash)).toEqual(Array(9).fill('challenge'));
    });

    test("finds a buyer's charge still sent under another challenge", async () => {
      const { store } = await fresh();
      await store.openCharge(charge('ch_1', 'spt_a'));
      await store.openCharge(charge('ch_2', 'spt_b'));
      await store.updateCharge('ch_2', { state: 'settled' });
      expect(await store.pendingChargeOf('https://agents.example/a/alice', 'ch_3')).toEqual(charge('ch_1', 'spt_a'));
      expect(await store.pendingChargeOf('https://agents.example/a/alice', 'ch_1')).toBeUndefined();
      expect(await store.pendingChargeOf('https://agents.example/a/bob', 'ch_3')).toBeUndefined();
    });

    test("reads a credential's records at once: its challenge's charge, whatever token opened it, and its token's unreconciled payment", async () => {
      const { store } = await fresh();
      await store.issue(issued('ch_1'));
      await store.openCharge(charge('ch_1', 'spt_a'));
      await store.recordUnreconciled({ chargeId: 'pi_9', token: 'spt_x', refund: 'pending' });
      expect(await store.credentialRecords('ch_1', 'spt_x')).toEqual({
        charge: charge('ch_1', 'spt_a'),
        unreconciled: { chargeId: 'pi_9', token: 'spt_x', refund: 'pending' },
      });
      expect(await store.credentialRecords('ch_1', undefined)).toEqual({ charge: charge('ch_1', 'spt_a') });
      expect(await store.credentialRecords('ch_2', 'spt_a')).toEqual({});
      await store.updateCharge('ch_1', { state: 'settled', chargeId: 'pi_1' });
      expect((await store.credentialRecords('ch_1', 'spt_a')).charge).toEqual({ ...charge('ch_1', 'spt_a'), state: 'settled', chargeId: 'pi_1' });
    });

    test('settles a charge and then grants it: credited once, the charge settled whatever the grant found, nothing granted without a charge', async () => {
      const { store } = await fresh();
      await store.openCharge(charge('ch_1', 'spt_a'));
      const settled = { ...charge('ch_1', 'spt_a'), state: 'settled', chargeId: 'pi_1' };
      expect(await store.settleAndGrant('ch_1', 'pi_1', grantOf('ch_1'))).toEqual({
        record: settled,
        credited: { granted: true, grant: grantOf('ch_1'), balanceNano: '5000000000' },
      });
      const again = { ...grantOf('ch_1'), grantedAt: NOW + 5 };
      expect(await store.settleAndGrant('ch_1', undefined, again)).toEqual({
        record: settled,
        credited: { granted: false, grant: grantOf('ch_1'), balanceNano: '5000000000' },
      });
      await expect(async () => store.settleAndGrant('ch_9', 'pi_9', grantOf('ch_9'))).rejects.toThrow();
      expect(await store.grantOf('ch_9')).toBeUndefined();
      await store.openCharge(charge('ch_2', 'spt_b'));
      const racing = await Promise.all(Array.from({ length: 10 }, () => store.settleAndGrant('ch_2', 'pi_2', grantOf('ch_2'))));
      expect(racing.filter((r) => r.credited?.granted)).toHaveLength(1);
      expect(await store.balance('https://agents.example/a/alice')).toBe('10000000000');
    });

    test('settles a charge whose grant fails, keeps no part of that grant, and grants it once the store takes it again', async () => {
      const stores = await fresh();
      const { store } = stores;
      await store.openCharge(charge('ch_1', 'spt_a'));
      await stores.grantsFail(true);
      const settled = { ...charge('ch_1', 'spt_a'), state: 'settled', chargeId: 'pi_1' };
      expect(await store.settleAndGrant('ch_1', 'pi_1', grantOf('ch_1'))).toEqual({ record: settled });
      expect(await store.chargeOf('ch_1')).toEqual(settled);
      expect(await store.grantOf('ch_1'), 'a grant that failed is not half kept').toBeUndefined();
      expect(await store.balance('https://agents.example/a/alice')).toBe('0');
      await stores.grantsFail(false);
      expect(await store.grant(grantOf('ch_1'))).toEqual({ granted: true, grant: grantOf('ch_1'), balanceNano: '5000000000' });
    });

    test('records assent and unreconciled payments', async () => {
      const { store } = await fresh();
      await store.recordAssent({ buyer: 'https://agents.example/a/alice', version: '2026-07-31', challengeId: 'ch_1', at: NOW });
      await store.recordUnreconciled({ chargeId: 'pi_9', token: 'spt_x', refund: 'pending' });
      await store.recordUnreconciled({ chargeId: 'pi_9', token: 'spt_x', refund: 'issued' });
      expect(await store.unreconciledOf('spt_x')).toEqual({ chargeId: 'pi_9', token: 'spt_x', refund: 'issued' });
      expect(await store.unreconciledOf('spt_y')).toBeUndefined();
    });

    test('forgets a challenge nothing was paid under one lifetime after it expired, and keeps one paid or referenced', async () => {
      const clock = new ManualClock(NOW);
      const referenced = new Set(['ch_ref']);
      const { store } = await fresh({ clock, referencedElsewhere: (id) => referenced.has(id) });
      for (const id of ['ch_unpaid', 'ch_charged', 'ch_granted', 'ch_ref']) await store.issue(issued(id));
      await store.openCharge(charge('ch_charged', 'spt_a'));
      await store.grant(grantOf('ch_granted'));
      clock.set(NOW + 600);
      expect(await store.challenge('ch_unpaid'), 'still recognised at expiry + 300 s').toEqual(issued('ch_unpaid'));
      // The memory store sweeps by the minute: a minute later both have forgotten it.
      clock.set(NOW + 720);
      await store.issue(issued('ch_new', NOW + 1020));
      expect(await store.challenge('ch_unpaid')).toBeUndefined();
      for (const id of ['ch_charged', 'ch_granted', 'ch_ref', 'ch_new']) expect(await store.challenge(id), id).toMatchObject({ id });
    });

    test('funds a call from what was credited: held, in flight, spent once, released', async () => {
      const { store, funding } = await fresh();
      const alice = 'https://agents.example/a/alice';
      expect(await funding.hold(alice, '600', 'k0')).toEqual({ held: false, reason: 'insufficient' });
      await store.grant(grantOf('ch_1', alice, '1000'));
      const first = await funding.hold(alice, '600', 'k1');
      expect(first).toMatchObject({ held: true });
      expect(await funding.hold(alice, '600', 'k1'), 'the same key, the same hold').toEqual(first);
      expect(await funding.hold(alice, '600', 'k2')).toEqual({ held: false, reason: 'in-flight' });
      const holdId = (first as { holdId: string }).holdId;
      await funding.spend(holdId);
      await expect(async () => funding.spend(holdId)).rejects.toThrow();
      expect(await funding.hold(alice, '600', 'k3')).toEqual({ held: false, reason: 'insufficient' });
      const small = await funding.hold(alice, '400', 'k4');
      expect(small).toMatchObject({ held: true });
      await funding.release((small as { holdId: string }).holdId);
      expect(await funding.hold(alice, '400', 'k5')).toMatchObject({ held: true });
    });

    test('holds the last of a balance once under 10 concurrent calls', async () => {
      const { store, funding } = await fresh();
      await store.grant(grantOf('ch_1', 'https://agents.example/a/alice', '1000'));
      const holds = await Promise.all(Array.from({ length: 10 }, (_, i) => funding.hold('https://agents.example/a/alice', '1000', `k${i}`)));
      expect(holds.filter((h) => h.held)).toHaveLength(1);
    });

    test('opens a sale once and moves it only from an expected state', async () => {
      const { sales } = await fresh();
      expect(await sales.open(sale('ch_1'))).toEqual(sale('ch_1'));
      expect(await sales.open({ ...sale('ch_1'), priceNano: '1' })).toEqual(sale('ch_1'));
      expect(await sales.move('ch_1', ['served'], 'refunded')).toEqual({ moved: false, record: sale('ch_1') });
      expect(await sales.move('ch_1', ['open'], 'serving', { holdId: 'hold_1' })).toEqual({
        moved: true,
        record: { ...sale('ch_1'), state: 'serving', holdId: 'hold_1' },
      });
      expect(await sales.sale('ch_1')).toMatchObject({ state: 'serving', holdId: 'hold_1' });
      expect(await sales.sale('ch_2')).toBeUndefined();
      await expect(async () => sales.move('ch_2', ['open'], 'served')).rejects.toThrow();
      const moves = await Promise.all(Array.from({ length: 10 }, () => sales.move('ch_1', ['serving'], 'served')));
      expect(moves.filter((m) => m.moved)).toHaveLength(1);
    });

    test('opens one transfer per challenge and per transaction hash (in any case), and finds it both ways', async () => {
      const { transfers } = await fresh();
      expect(await transfers.openTransfer(transfer('ch_1', HASH_1))).toEqual({ opened: true, record: transfer('ch_1', HASH_1) });
      expect(await transfers.openTransfer(transfer('ch_1', HASH_2))).toEqual({ opened: false, clash: 'challenge', existing: transfer('ch_1', HASH_1) });
      const sameHash = transfer('ch_2', HASH_1.toLowerCase() as Hex);
      expect(await transfers.openTransfer(sameHash)).toEqual({ opened: false, clash: 'hash', existing: transfer('ch_1', HASH_1) });
      expect(await transfers.transferByHash(HASH_1.toLowerCase() as Hex)).toEqual(transfer('ch_1', HASH_1));
      expect(await transfers.transferOf('ch_2')).toBeUndefined();
      const opens = await Promise.all(Array.from({ length: 10 }, (_, i) => transfers.openTransfer(transfer(`ch_r${i}`, HASH_2))));
      expect(opens.filter((o) => o.opened)).toHaveLength(1);
    });

    test("moves a transfer's state and finds a buyer's transfer still broadcast under another challenge", async () => {
      const { transfers } = await fresh();
      await transfers.openTransfer(transfer('ch_1', HASH_1));
      await transfers.openTransfer(transfer('ch_2', HASH_2));
      expect(await transfers.updateTransfer('ch_2', 'settled')).toEqual({ ...transfer('ch_2', HASH_2), state: 'settled' });
      expect(await transfers.transferOf('ch_2')).toMatchObject({ state: 'settled' });
      expect(await transfers.pendingTransferOf('https://agents.example/a/alice', 'ch_3')).toEqual(transfer('ch_1', HASH_1));
      expect(await transfers.pendingTransferOf('https://agents.example/a/alice', 'ch_1')).toBeUndefined();
      expect(await transfers.pendingTransferOf('https://agents.example/a/bob', 'ch_3')).toBeUndefined();
      await expect(async () => transfers.updateTransfer('ch_9', 'failed')).rejects.toThrow();
    });

    test('keeps a challenge a transfer answers past its keep', async () => {
      const clock = new ManualClock(NOW);
      const { store, transfers } = await fresh({ clock });
      await store.issue(issued('ch_t'));
      await transfers.openTransfer(transfer('ch_t', HASH_1));
      clock.set(NOW + 720);
      await store.issue(issued('ch_new', NOW + 1020));
      expect(await store.challenge('ch_t')).toMatchObject({ id: 'ch_t' });
    });

    test("counts a wallet's transfers once each up to its daily cap, and gives a failed one back", async () => {
      const { walletCaps } = await fresh();
      const day = NOW - (NOW % 86_400);
      expect(await walletCaps.count(WALLET, day, HASH_1, '600', '1000')).toBe('counted');
      expect(await walletCaps.count(WALLET, day, HASH_1, '600', '1000'), 'the same transfer again').toBe('counted');
      expect(await walletCaps.count(WALLET, day, HASH_2, '600', '1000')).toBe('over-cap');
      expect(await walletCaps.count(WALLET, day + 86_400, HASH_2, '600', '1000'), 'another day').toBe('counted');
      await walletCaps.release(HASH_2);
      await walletCaps.release(HASH_1);
      const racing = await Promise.all(
        Array.from({ length: 10 }, (_, i) => walletCaps.count(WALLET, day, `0xcd${String(i).padStart(62, '0')}` as Hex, '600', '1000')),
      );
      expect(racing.filter((r) => r === 'counted')).toHaveLength(1);
    });

    test('takes every counter or none, refuses at the first one full, and gives back on release', async () => {
      const { caps } = await fresh();
      const counters = [
        { name: 'principal:alice', limit: 2 },
        { name: 'platform', limit: 3 },
      ];
      expect(await caps.take(counters, 1)).toEqual({ taken: true });
      expect(await caps.take(counters, 1)).toEqual({ taken: true });
      expect(await caps.take(counters, 1)).toEqual({ taken: false, over: 0 });
      expect(await caps.take([{ name: 'principal:bob', limit: 2 }, counters[1]!], 1)).toEqual({ taken: true });
      expect(await caps.take([{ name: 'principal:carol', limit: 2 }, counters[1]!], 1)).toEqual({ taken: false, over: 1 });
      expect(await caps.take(counters, 2), 'another day').toEqual({ taken: true });
      await caps.release(['principal:alice', 'platform'], 1);
      expect(await caps.take(counters, 1)).toEqual({ taken: true });
      const racing = await Promise.all(Array.from({ length: 10 }, () => caps.take([{ name: 'once', limit: 1 }], 3)));
      expect(racing.filter((r) => r.taken)).toHaveLength(1);
    });

    test('the rails spend what grants credited, never more, once under 10 concurrent spends of the last of it', async () => {
      const { store, ledger } = await fresh();
      const alice = 'https://agents.example/a/alice';
      expect(await ledger.balanceOf(alice)).toBe(0n);
      expect(await ledger.spend(alice, 1n)).toBe(false);
      await store.grant(grantOf('ch_1', alice, '1000'));
      expect(await ledger.spend(alice, 600n)).toBe(true);
      expect(await ledger.balanceOf(alice)).toBe(400n);
      expect(await ledger.spend(alice, 600n)).toBe(false);
      const racing = await Promise.all(Array.from({ length: 10 }, () => ledger.spend(alice, 400n)));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await ledger.balanceOf(alice)).toBe(0n);
      await store.grant(grantOf('ch_2', alice, '1000'));
      expect(await ledger.balanceOf(alice), 'a later grant adds to what is left').toBe(1000n);
    });
  });
}
