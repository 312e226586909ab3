import { Hash } from 'ox';
import type { StablecoinNetwork, TransferStatus } from '../../purchase/machine/ports/stablecoin.js';
import type { Hex } from '../../purchase/machine/tempo/quote.js';
import type { SqlDatabase } from './driver.js';

/**
 * The reference's stand-in stablecoin network (FakeStablecoinNetwork's defaults: a broadcast transfer settles, a hash
 * never broadcast reads `failed`) kept on the database, as a real chain is one for every instance: a transfer one
 * instance broadcast reads settled at another, which would otherwise read it as never sent (failed).
 */
export class SqlStablecoinNetwork implements StablecoinNetwork {
  constructor(private readonly db: SqlDatabase) {}

  async broadcast(serializedTransaction: Hex): Promise<{ readonly hash: Hex }> {
    const hash = Hash.keccak256(serializedTransaction);
    await this.db.all("INSERT INTO chain_transfers (hash, outcome) VALUES (?, 'settled') ON CONFLICT (hash) DO NOTHING", [hash.toLowerCase()]);
    return { hash };
  }

  async status(hash: Hex): Promise<TransferStatus> {
    const [row] = await this.db.all('SELECT outcome FROM chain_transfers WHERE hash = ?', [hash.toLowerCase()]);
    return row === undefined ? 'failed' : (row.outcome as TransferStatus);
  }
}
