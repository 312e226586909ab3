import { randomUUID } from 'node:crypto';
import type { Funding, FundingHold } from '../../purchase/machine/sale/ports.js';
import type { SqlDatabase, SqlRunner } from './driver.js';

async function sumOf(tx: SqlRunner, payer: string, state: 'held' | 'spent'): Promise<bigint> {
  const [row] = await tx.all('SELECT CAST(COALESCE(SUM(nano), 0) AS TEXT) AS nano FROM holds WHERE payer = ? AND state = ?', [payer, state]);
  return BigInt(row!.nano as string);
}

/**
 * The funding step of single calls in SQL, as MemoryFunding keeps it: what the payer's grants credited (the
 * balances the purchase store keeps), less what calls spent and what in-flight calls hold. A hold locks the
 * payer's balance row first, so two instances cannot both hold the last of a balance.
 */
export class SqlFunding implements Funding {
  constructor(private readonly db: SqlDatabase) {}

  hold(payer: string, nano: string, key: string): Promise<FundingHold> {
    return this.db.transaction(async (tx) => {
      await tx.all('INSERT INTO balances (buyer, nano) VALUES (?, 0) ON CONFLICT (buyer) DO NOTHING', [payer]);
      const [balance] = await tx.all(`SELECT CAST(nano AS TEXT) AS nano FROM balances WHERE buyer = ? ${this.db.forUpdate}`, [payer]);
      const [known] = await tx.all('SELECT hold_id, state FROM holds WHERE hold_key = ?', [key]);
      if (known !== undefined) return known.state === 'held' ? { held: true, holdId: known.hold_id as string } : { held: false, reason: 'insufficient' };
      const amount = BigInt(nano);
      const unspent = BigInt(balance!.nano as string) - (await sumOf(tx, payer, 'spent'));
      if (unspent < amount) return { held: false, reason: 'insufficient' };
      if (unspent - (await sumOf(tx, payer, 'held')) < amount) return { held: false, reason: 'in-flight' };
      const holdId = `hold_${randomUUID()}`;
      await tx.all("INSERT INTO holds (hold_id, hold_key, payer, nano, state) VALUES (?, ?, ?, ?, 'held')", [holdId, key, payer, nano]);
      return { held: true, holdId };
    });
  }
  spend(holdId: string): Promise<void> {
    return this.end(holdId, 'spent');
  }
  release(holdId: string): Promise<void> {
    return this.end(holdId, 'released');
  }
  private async end(holdId: string, state: 'spent' | 'released'): Promise<void> {
    const moved = await this.db.all("UPDATE holds SET state = ? WHERE hold_id = ? AND state = 'held' RETURNING hold_id", [state, holdId]);
    if (moved.length === 1) return;
    const [row] = await this.db.all('SELECT state FROM holds WHERE hold_id = ?', [holdId]);
    throw new Error(row === undefined ? `no hold ${holdId}` : `hold ${holdId} already ${row.state as string}`);
  }
}
