import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock, MemoryPurchaseLock } from '../../src/purchase/testing/memory.js';
import type { Hex } from '../../src/purchase/machine/tempo/quote.js';
import { createReferencePurchases } from '../../src/reference/purchases.js';
import type { SqlDatabase } from '../../src/stores/sql/driver.js';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { openSqlite } from '../../src/stores/sql/sqlite.js';
import { sqlPurchaseStores } from '../../src/stores/sql/stores.js';

/**
 * Issue 27, the fleet finished: every piece of state the reference's purchases and paid rails keep goes through the
 * stores given (serve --db), so two instances on one database (here two connections to one SQLite file, as two
 * processes) see one ledger, one set of transfers, one wallet total and one set of sale caps.
 */
const dir = mkdtempSync(join(tmpdir(), 'apc-shared-state-'));
const opened: SqlDatabase[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = 1_800_000_000;
const ALICE = 'https://agents.example/a/alice';

async function twoInstances(file: string) {
  const clock = new ManualClock(NOW);
  const instances = [];
  // One after the other: better-sqlite3 is synchronous, so two connections of one process must not hold the write lock
  // at once (two processes may; the adapter contract races callers on each adapter).
  for (let i = 0; i < 2; i++) {
    const db = await openSqlite(join(dir, file));
    opened.push(db);
    await prepareSchema(db);
    instances.push(createReferencePurchases({ origin: 'https://platform.example', clock, stores: sqlPurchaseStores(db, new MemoryPurchaseLock()) }));
  }
  return instances;
}

describe('the reference purchases over serve --db: no state kept in one instance', () => {
  it("spends the rails' balance once across instances", async () => {
    const [a, b] = await twoInstances('ledger.sqlite');
    await a!.store.grant({
      challengeId: 'ch_1',
      buyer: ALICE,
      packId: 'mpp_5',
      creditNano: '1000',
      chargeId: 'pi_1',
      method: 'stripe',
      termsVersion: 'v',
      grantedAt: NOW,
    });
    expect(await a!.ledger.spend(ALICE, 600n)).toBe(true);
    expect(await b!.ledger.balanceOf(ALICE), 'what one instance spent, the other sees').toBe(400n);
    expect(await b!.ledger.spend(ALICE, 600n)).toBe(false);
    expect(await b!.ledger.spend(ALICE, 400n)).toBe(true);
    expect(await a!.ledger.spend(ALICE, 1n)).toBe(false);
  });

  it('keeps stablecoin transfers, the chain they are sent on, wallet totals and sale caps where every instance reads them', async () => {
    const [a, b] = await twoInstances('stablecoin.sqlite');
    const hash = `0x${'1'.repeat(64)}` as Hex;
    const wallet = `0x${'2'.repeat(40)}` as Hex;
    const record = {
      challengeId: 'ch_t',
      hash,
      serialized: '0x76' as Hex,
      wallet,
      buyer: ALICE,
      termsVersion: 'v',
      packId: 'mpp_5',
      price: { amount: '5000000', currency: '0x20c0000000000000000000000000000000000001' },
      creditNano: '5000000000',
      state: 'broadcast' as const,
      openedAt: NOW,
      expiresAt: NOW + 300,
      validBefore: NOW + 300,
    };
    expect(await a!.stablecoin.transfers.openTransfer(record)).toMatchObject({ opened: true });
    expect(await b!.stablecoin.transfers.pendingTransferOf(ALICE, 'ch_other')).toEqual(record);
    expect(await b!.stablecoin.transfers.openTransfer({ ...record, challengeId: 'ch_u' })).toMatchObject({ opened: false, clash: 'hash' });
    expect(await a!.stablecoin.walletCaps.count(wallet, NOW, hash, '600', '1000')).toBe('counted');
    expect(await b!.stablecoin.walletCaps.count(wallet, NOW, `0x${'3'.repeat(64)}` as Hex, '600', '1000')).toBe('over-cap');
    const sent = await a!.stablecoin.network.broadcast('0x76f80102' as Hex);
    expect(await b!.stablecoin.network.status(sent.hash), 'a transfer one instance sent, the other reads on the same chain').toBe('settled');
    expect(await b!.stablecoin.network.status(`0x${'4'.repeat(64)}` as Hex), 'never sent').toBe('failed');
    expect(await a!.sale.caps.take([{ name: 'platform', limit: 1 }], NOW)).toEqual({ taken: true });
    expect(await b!.sale.caps.take([{ name: 'platform', limit: 1 }], NOW)).toEqual({ taken: false, over: 0 });
  });
});
