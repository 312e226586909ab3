import type { SalePatch, SaleRecord, SaleState, SaleStore } from '../../purchase/machine/sale/ports.js';
import type { SqlDatabase, SqlRow } from './driver.js';

function saleOf(row: SqlRow | undefined): SaleRecord | undefined {
  return row === undefined ? undefined : (JSON.parse(row.body as string) as SaleRecord);
}

/** Single-call sales in SQL, one per challenge: a sale opened twice answers the first, and a move happens from an expected state only. */
export class SqlSaleStore implements SaleStore {
  constructor(private readonly db: SqlDatabase) {}

  async open(record: SaleRecord): Promise<SaleRecord> {
    await this.db.all('INSERT INTO sales (challenge_id, state, body) VALUES (?, ?, ?) ON CONFLICT (challenge_id) DO NOTHING', [
      record.challengeId,
      record.state,
      JSON.stringify(record),
    ]);
    return (await this.sale(record.challengeId))!;
  }

  async sale(challengeId: string): Promise<SaleRecord | undefined> {
    return saleOf((await this.db.all('SELECT body FROM sales WHERE challenge_id = ?', [challengeId]))[0]);
  }

  move(challengeId: string, from: readonly SaleState[], to: SaleState, patch: SalePatch = {}): Promise<{ moved: boolean; record: SaleRecord }> {
    return this.db.transaction(async (tx) => {
      const record = saleOf((await tx.all(`SELECT body FROM sales WHERE challenge_id = ? ${this.db.forUpdate}`, [challengeId]))[0]);
      if (!record) throw new Error(`no sale under challenge ${challengeId}`);
      if (!from.includes(record.state)) return { moved: false, record };
      const next: SaleRecord = { ...record, ...patch, state: to };
      await tx.all('UPDATE sales SET state = ?, body = ? WHERE challenge_id = ?', [to, JSON.stringify(next), challengeId]);
      return { moved: true, record: next };
    });
  }
}
