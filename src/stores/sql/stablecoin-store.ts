import type { Hex } from '../../purchase/machine/tempo/quote.js';
import type { OpenTransfer, TransferRecord, TransferState, TransferStore, WalletDailyCaps } from '../../purchase/machine/ports/stablecoin.js';
import type { SqlDatabase, SqlRow } from './driver.js';

function transferOfRow(row: SqlRow | undefined): TransferRecord | undefined {
  return row === undefined ? undefined : { ...(JSON.parse(row.body as string) as TransferRecord), state: row.state as TransferState };
}

/**
 * Stablecoin transfer records in SQL, as MemoryTransferStore keeps them: one per challenge and one per transaction hash
 * (compared in lower case), the unique keys deciding a race between instances. A transfer refers to its challenge,
 * which the purchase store then keeps (its PAID rule reads this table).
 */
export class SqlTransferStore implements TransferStore {
  constructor(private readonly db: SqlDatabase) {}

  async transferOf(challengeId: string): Promise<TransferRecord | undefined> {
    return transferOfRow((await this.db.all('SELECT body, state FROM transfers WHERE challenge_id = ?', [challengeId]))[0]);
  }

  async transferByHash(hash: Hex): Promise<TransferRecord | undefined> {
    return transferOfRow((await this.db.all('SELECT body, state FROM transfers WHERE hash = ?', [hash.toLowerCase()]))[0]);
  }

  async openTransfer(record: TransferRecord): Promise<OpenTransfer> {
    const inserted = await this.db.all(
      'INSERT INTO transfers (challenge_id, hash, buyer, state, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING challenge_id',
      [record.challengeId, record.hash.toLowerCase(), record.buyer, record.state, JSON.stringify(record)],
    );
    if (inserted.length === 1) return { opened: true, record };
    // The challenge's own transfer first: the same credential racing itself resumes its transfer.
    const existing = await this.transferOf(record.challengeId);
    if (existing) return { opened: false, clash: 'challenge', existing };
    const owner = await this.transferByHash(record.hash);
    if (owner) return { opened: false, clash: 'hash', existing: owner };
    throw new Error(`transfer for challenge ${record.challengeId} neither opened nor found`);
  }

  async updateTransfer(challengeId: string, state: TransferState): Promise<TransferRecord> {
    const [row] = await this.db.all('UPDATE transfers SET state = ? WHERE challenge_id = ? RETURNING body, state', [state, challengeId]);
    const record = transferOfRow(row);
    if (!record) throw new Error(`no transfer under challenge ${challengeId}`);
    return record;
  }

  async pendingTransferOf(buyer: string, except: string): Promise<TransferRecord | undefined> {
    const rows = await this.db.all("SELECT body, state FROM transfers WHERE buyer = ? AND state = 'broadcast' AND challenge_id <> ? LIMIT 1", [buyer, except]);
    return transferOfRow(rows[0]);
  }
}

/**
 * Per-wallet daily totals in SQL, each transfer counted once by its hash. A count locks the wallet's day row first, so
 * two instances cannot both count the transfer that passes the cap.
 */
export class SqlWalletCaps implements WalletDailyCaps {
  constructor(private readonly db: SqlDatabase) {}

  count(wallet: Hex, day: number, hash: Hex, amount: string, cap: string): Promise<'counted' | 'over-cap'> {
    const walletDay = `${wallet.toLowerCase()}@${day}`;
    return this.db.transaction(async (tx) => {
      await tx.all('INSERT INTO wallet_days (wallet_day) VALUES (?) ON CONFLICT (wallet_day) DO NOTHING', [walletDay]);
      await tx.all(`SELECT wallet_day FROM wallet_days WHERE wallet_day = ? ${this.db.forUpdate}`, [walletDay]);
      const [known] = await tx.all('SELECT hash FROM wallet_counts WHERE hash = ?', [hash.toLowerCase()]);
      if (known !== undefined) return 'counted';
      const rows = await tx.all('SELECT amount FROM wallet_counts WHERE wallet_day = ?', [walletDay]);
      const total = rows.reduce((sum, row) => sum + BigInt(row.amount as string), 0n);
      if (total + BigInt(amount) > BigInt(cap)) return 'over-cap';
      await tx.all('INSERT INTO wallet_counts (hash, wallet_day, amount) VALUES (?, ?, ?)', [hash.toLowerCase(), walletDay, amount]);
      return 'counted';
    });
  }

  async release(hash: Hex): Promise<void> {
    await this.db.all('DELETE FROM wallet_counts WHERE hash = ?', [hash.toLowerCase()]);
  }
}
