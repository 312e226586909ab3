import type { BalancePort } from '../../reference/paid/balance-port.js';
import type { SqlDatabase } from './driver.js';

/**
 * The paid rails' ledger in SQL (the LLM completions, the agent socket, the MCP delegate): what the purchase store's
 * grants credited (its balances) less what the rails spent (rail_spent), as PurchasedBalanceLedger keeps it in
 * memory. A spend locks the payer's spent row, so two instances racing for the last of a balance cannot both debit it.
 */
export class SqlRailLedger implements BalancePort {
  constructor(private readonly db: SqlDatabase) {}

  async balanceOf(agentUrl: string): Promise<bigint> {
    const [row] = await this.db.all(
      `SELECT CAST(COALESCE((SELECT nano FROM balances WHERE buyer = ?), 0) AS TEXT) AS credited,
        CAST(COALESCE((SELECT nano FROM rail_spent WHERE payer = ?), 0) AS TEXT) AS spent`,
      [agentUrl, agentUrl],
    );
    return BigInt(row!.credited as string) - BigInt(row!.spent as string);
  }

  spend(agentUrl: string, nano: bigint): Promise<boolean> {
    if (nano < 0n) throw new RangeError(`cannot spend a negative amount (${nano} nano)`);
    return this.db.transaction(async (tx) => {
      await tx.all('INSERT INTO rail_spent (payer, nano) VALUES (?, 0) ON CONFLICT (payer) DO NOTHING', [agentUrl]);
      const [spent] = await tx.all(`SELECT CAST(nano AS TEXT) AS nano FROM rail_spent WHERE payer = ? ${this.db.forUpdate}`, [agentUrl]);
      const [credited] = await tx.all('SELECT CAST(nano AS TEXT) AS nano FROM balances WHERE buyer = ?', [agentUrl]);
      if (BigInt((credited?.nano as string | undefined) ?? '0') - BigInt(spent!.nano as string) < nano) return false;
      await tx.all('UPDATE rail_spent SET nano = nano + ? WHERE payer = ?', [String(nano), agentUrl]);
      return true;
    });
  }
}
