import type { Hex } from '../tempo/quote.js';
import type { Awaitable, ChargeAmount } from './values.js';

/**
 * What the deployment sells for a stablecoin transfer (the `tempo` method, 7.4). Present in the config means
 * transfers are offered at /api/mpp/credits; the pack (id, credit) is the config's `pack`, priced here in the
 * token's base units.
 */
export interface StablecoinOffer {
  readonly chainId: number;
  /** The TIP-20 token contract (the challenge's `currency`). */
  readonly token: Hex;
  /** Where transfers are paid (the challenge's `recipient`). */
  readonly depositAddress: Hex;
  /** The pack's price in the token's base units, a decimal integer string. */
  readonly amount: string;
  /** Whether the deployment sells to a wallet whose location cannot be established (7.4 stablecoin_location_unknown). */
  readonly sellsToUnplaceableBuyers: boolean;
  /** What one wallet may pay per UTC day, in the token's base units (7.4 wallet_daily_cap); no cap when absent. */
  readonly walletDailyCap?: string;
}

/** What the network says of a broadcast transfer. */
export type TransferStatus = 'pending' | 'settled' | 'failed';

/**
 * The stablecoin network. `broadcast` submits a signed transaction and answers its hash; `status` reads a
 * hash (a hash the network never saw and that can no longer land is `failed`). Either may throw: the network
 * is unreachable (a throwing broadcast reached nothing).
 */
export interface StablecoinNetwork {
  broadcast(serializedTransaction: Hex): Awaitable<{ readonly hash: Hex }>;
  status(hash: Hex): Awaitable<TransferStatus>;
}

/**
 * Where a credential's transfer stands. The record is written before the first broadcast, so every transfer
 * ever broadcast has one. `unsent`: the broadcast has not reached the network (it was unreachable);
 * `broadcast`: accepted, not known settled; `settled`; `failed`: the network reported it failed, or it
 * expired unsent.
 */
export type TransferState = 'unsent' | 'broadcast' | 'settled' | 'failed';

export interface TransferRecord {
  /** The challenge the transfer answers (a challenge is redeemed once). */
  readonly challengeId: string;
  /** The transaction hash: the receipt reference, and claimed so no other challenge can use the transaction. */
  readonly hash: Hex;
  /** The canonical signed transaction, kept so the same credential can broadcast it again. */
  readonly serialized: Hex;
  readonly wallet: Hex;
  readonly buyer: string;
  readonly termsVersion: string;
  readonly packId: string;
  /** The amount in base units and the token contract. */
  readonly price: ChargeAmount;
  readonly creditNano: string;
  readonly state: TransferState;
  /** Clock seconds: when opened, the challenge expiry and the transaction's validBefore. */
  readonly openedAt: number;
  readonly expiresAt: number;
  readonly validBefore: number;
}

export type OpenTransfer =
  | { readonly opened: true; readonly record: TransferRecord }
  /** Not opened: the challenge already has a transfer (`challenge`), or the transaction already answers another challenge (`hash`). */
  | { readonly opened: false; readonly clash: 'challenge' | 'hash'; readonly existing: TransferRecord };

/** Transfer records by challenge and by hash. */
export interface TransferStore {
  transferOf(challengeId: string): Awaitable<TransferRecord | undefined>;
  transferByHash(hash: Hex): Awaitable<TransferRecord | undefined>;
  /** Atomically: opens the record unless the challenge or the hash already has one; the challenge's clash is told first (the same credential again resumes its transfer). */
  openTransfer(record: TransferRecord): Awaitable<OpenTransfer>;
  updateTransfer(challengeId: string, state: TransferState): Awaitable<TransferRecord>;
  /** A transfer of this buyer broadcast and not yet settled, under another challenge than `except` (7.4 purchase_in_flight). */
  pendingTransferOf(buyer: string, except: string): Awaitable<TransferRecord | undefined>;
}

/**
 * The per-wallet daily total (7.4 wallet_daily_cap). `count` atomically adds a transfer (once per hash: the
 * same transfer presented again is not counted twice) to the wallet's total for the UTC day starting at
 * `day`, unless that would pass `cap`; `release` takes a transfer that failed back out.
 */
export interface WalletDailyCaps {
  count(wallet: Hex, day: number, hash: Hex, amount: string, cap: string): Awaitable<'counted' | 'over-cap'>;
  release(hash: Hex): Awaitable<void>;
}

/**
 * Where a paying wallet is, as the deployment establishes it (its wallet screening or registry): an ISO
 * 3166-1 alpha-2 country, or undefined when the wallet cannot be placed. A TIP-20 transfer carries no
 * location of its own, so "the transfer carries a buyer location" (7.4 stablecoin_location_unknown) means
 * this port places the wallet that signed it. A throw counts as cannot be placed.
 */
export interface WalletLocations {
  locate(wallet: Hex): Awaitable<string | undefined>;
}

export interface StablecoinPorts {
  readonly network: StablecoinNetwork;
  readonly transfers: TransferStore;
  readonly walletCaps: WalletDailyCaps;
  readonly locations: WalletLocations;
}
