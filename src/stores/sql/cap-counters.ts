import type { CapCounters } from '../../purchase/machine/sale/ports.js';
import type { SqlDatabase } from './driver.js';

/**
 * The single-call sales' daily counters in SQL (7.4 the metered caps), as MemoryCapCounters keeps them. A take locks its
 * counters' rows (in name order, so two instances taking overlapping sets cannot deadlock) and takes all or none.
 */
export class SqlCapCounters implements CapCounters {
  constructor(private readonly db: SqlDatabase) {}

  take(counters: readonly { readonly name: string; readonly limit: number }[], day: number): Promise<{ taken: true } | { taken: false; over: number }> {
    return this.db.transaction(async (tx) => {
      const counts = new Map<string, number>();
      for (const name of [...new Set(counters.map((c) => c.name))].sort()) {
        await tx.all('INSERT INTO cap_counts (day, name, n) VALUES (?, ?, 0) ON CONFLICT (day, name) DO NOTHING', [day, name]);
        const [row] = await tx.all(`SELECT n FROM cap_counts WHERE day = ? AND name = ? ${this.db.forUpdate}`, [day, name]);
        counts.set(name, Number(row!.n));
      }
      const over = counters.findIndex((c) => counts.get(c.name)! >= c.limit);
      if (over >= 0) return { taken: false, over };
      for (const c of counters) await tx.all('UPDATE cap_counts SET n = n + 1 WHERE day = ? AND name = ?', [day, c.name]);
      return { taken: true };
    });
  }

  async release(names: readonly string[], day: number): Promise<void> {
    for (const name of names) await this.db.all('UPDATE cap_counts SET n = n - 1 WHERE day = ? AND name = ? AND n > 0', [day, name]);
  }

  /** A counter's value on a day (tests and operators). */
  async count(name: string, day: number): Promise<number> {
    const [row] = await this.db.all('SELECT n FROM cap_counts WHERE day = ? AND name = ?', [day, name]);
    return row === undefined ? 0 : Number(row.n);
  }
}
