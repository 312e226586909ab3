import { Hash } from 'ox';
import type { Hex } from '../machine/tempo/quote.js';
import type {
  OpenTransfer,
  StablecoinNetwork,
  TransferRecord,
  TransferState,
  TransferStatus,
  TransferStore,
  WalletDailyCaps,
  WalletLocations,
} from '../machine/ports/stablecoin.js';

/**
 * A stablecoin network in memory with the faults a real one has. A broadcast transfer is `pending` for
 * `pendingReads` status reads (taken when it is first broadcast), then ends as `finalOutcome`. `unreachable`
 * makes both calls throw; `unreachableBroadcasts` makes only the next N broadcasts throw (nothing reached the
 * network). A hash never broadcast reads `failed`. Every call is recorded, so tests can say nothing was broadcast.
 */
export class FakeStablecoinNetwork implements StablecoinNetwork {
  readonly calls: { readonly kind: 'broadcast' | 'status'; readonly arg: Hex }[] = [];
  /** Transactions the network accepted, in order (a rebroadcast of the same bytes is listed again). */
  readonly broadcasts: Hex[] = [];
  unreachable = false;
  unreachableBroadcasts = 0;
  pendingReads = 0;
  finalOutcome: Exclude<TransferStatus, 'pending'> = 'settled';
  private readonly transfers = new Map<string, { pendingLeft: number; outcome: Exclude<TransferStatus, 'pending'> }>();

  broadcast(serializedTransaction: Hex): { readonly hash: Hex } {
    this.calls.push({ kind: 'broadcast', arg: serializedTransaction });
    if (this.unreachable) throw new Error('stablecoin network unreachable');
    if (this.unreachableBroadcasts > 0) {
      this.unreachableBroadcasts -= 1;
      throw new Error('stablecoin network unreachable');
    }
    const hash = Hash.keccak256(serializedTransaction);
    if (!this.transfers.has(hash)) this.transfers.set(hash, { pendingLeft: this.pendingReads, outcome: this.finalOutcome });
    this.broadcasts.push(serializedTransaction);
    return { hash };
  }

  status(hash: Hex): TransferStatus {
    this.calls.push({ kind: 'status', arg: hash });
    if (this.unreachable) throw new Error('stablecoin network unreachable');
    const transfer = this.transfers.get(hash.toLowerCase());
    if (transfer === undefined) return 'failed';
    if (transfer.pendingLeft > 0) {
      transfer.pendingLeft -= 1;
      return 'pending';
    }
    return transfer.outcome;
  }

  /** Ends a broadcast transfer now (what the chain would later report). */
  resolve(hash: Hex, outcome: Exclude<TransferStatus, 'pending'>): void {
    const transfer = this.transfers.get(hash.toLowerCase());
    if (transfer === undefined) throw new Error(`no transfer ${hash}`);
    transfer.pendingLeft = 0;
    transfer.outcome = outcome;
  }

  /** Distinct transactions the network accepted. */
  broadcastHashes(): Hex[] {
    return [...this.transfers.keys()] as Hex[];
  }
}

/** Transfer records in memory; each call is atomic because nothing in it awaits. */
export class MemoryTransferStore implements TransferStore {
  private readonly byChallenge = new Map<string, TransferRecord>();
  private readonly byHash = new Map<string, string>();

  transferOf(challengeId: string): TransferRecord | undefined {
    return this.byChallenge.get(challengeId);
  }
  transferByHash(hash: Hex): TransferRecord | undefined {
    const challengeId = this.byHash.get(hash.toLowerCase());
    return challengeId === undefined ? undefined : this.byChallenge.get(challengeId);
  }
  openTransfer(record: TransferRecord): OpenTransfer {
    const existing = this.byChallenge.get(record.challengeId);
    if (existing) return { opened: false, clash: 'challenge', existing };
    const owner = this.transferByHash(record.hash);
    if (owner) return { opened: false, clash: 'hash', existing: owner };
    this.byChallenge.set(record.challengeId, record);
    this.byHash.set(record.hash.toLowerCase(), record.challengeId);
    return { opened: true, record };
  }
  updateTransfer(challengeId: string, state: TransferState): TransferRecord {
    const record = this.byChallenge.get(challengeId);
    if (!record) throw new Error(`no transfer under challenge ${challengeId}`);
    const next: TransferRecord = { ...record, state };
    this.byChallenge.set(challengeId, next);
    return next;
  }
  pendingTransferOf(buyer: string, except: string): TransferRecord | undefined {
    for (const record of this.byChallenge.values()) if (record.buyer === buyer && record.state === 'broadcast' && record.challengeId !== except) return record;
    return undefined;
  }
  all(): TransferRecord[] {
    return [...this.byChallenge.values()];
  }
}

/** Per-wallet daily totals in memory, each transfer counted once by its hash. */
export class MemoryWalletCaps implements WalletDailyCaps {
  private readonly counted = new Map<string, { readonly key: string; readonly amount: bigint }>();

  count(wallet: Hex, day: number, hash: Hex, amount: string, cap: string): 'counted' | 'over-cap' {
    if (this.counted.has(hash.toLowerCase())) return 'counted';
    const key = `${wallet.toLowerCase()}@${day}`;
    if (this.total(key) + BigInt(amount) > BigInt(cap)) return 'over-cap';
    this.counted.set(hash.toLowerCase(), { key, amount: BigInt(amount) });
    return 'counted';
  }
  release(hash: Hex): void {
    this.counted.delete(hash.toLowerCase());
  }
  /** What a wallet has paid on the UTC day starting at `day`, in base units. */
  totalOf(wallet: Hex, day: number): string {
    return String(this.total(`${wallet.toLowerCase()}@${day}`));
  }
  private total(key: string): bigint {
    let sum = 0n;
    for (const entry of this.counted.values()) if (entry.key === key) sum += entry.amount;
    return sum;
  }
}

/** Wallet locations from a table; a wallet not in it cannot be placed. `unavailable` makes the lookup throw. */
export class FixedWalletLocations implements WalletLocations {
  readonly countries = new Map<string, string>();
  unavailable = false;
  locate(wallet: Hex): string | undefined {
    if (this.unavailable) throw new Error('wallet screening unavailable');
    return this.countries.get(wallet.toLowerCase());
  }
  place(wallet: Hex, country: string): void {
    this.countries.set(wallet.toLowerCase(), country);
  }
}
