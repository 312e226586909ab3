import { createHash } from 'node:crypto';
import type {
  CardProcessor,
  ChargeAmount,
  ChargeOutcome,
  ChargeRecord,
  CredentialRecords,
  ChargeReply,
  ChargeState,
  Clock,
  Grant,
  GrantResult,
  IssuedChallenge,
  OpenCharge,
  PurchaseLock,
  PurchaseStore,
  Random,
  SettledCharge,
  BuyerDirectory,
  TermsAssent,
  UnreconciledPayment,
} from '../machine/ports/purchase.js';
import type { RefundState } from '../../spec/payments.js';
import { LIMITS } from '../../spec/limits.js';
import { ExpiryBuckets } from '../../memory/expiry-buckets.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private seconds: number) {}
  now(): number {
    return this.seconds;
  }
  advance(seconds: number): void {
    this.seconds += seconds;
  }
  set(seconds: number): void {
    this.seconds = seconds;
  }
}

/** Deterministic bytes from a seed and a counter (SHA-256 blocks): reproducible challenge ids in tests. */
export class SeededRandom implements Random {
  private counter = 0;
  constructor(private readonly seed: string = 'seed') {}
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let at = 0; at < length; at += 32) {
      const block = createHash('sha256')
        .update(`${this.seed}:${this.counter++}`)
        .digest();
      out.set(block.subarray(0, Math.min(32, length - at)), at);
    }
    return out;
  }
}

export interface MemoryPurchaseStoreOptions {
  /** With a clock, a challenge nothing was paid under is forgotten `keepExpiredSeconds` after it expired. */
  readonly clock?: Clock;
  /**
   * How long an expired challenge is still recognised (answered "expired" rather than "unknown"; both get a fresh
   * challenge, 7.4). Default: one more challenge lifetime.
   */
  readonly keepExpiredSeconds?: number;
  /** Whether a record elsewhere (a stablecoin transfer, a sale) still refers to the challenge, which is then kept. */
  readonly referencedElsewhere?: (challengeId: string) => boolean;
}

/**
 * Every record in memory; each call is atomic because nothing in it awaits. Challenges nobody paid under expire
 * (given a clock), so unauthenticated 402s cannot grow the store without end; charges, grants and balances stay.
 */
export class MemoryPurchaseStore implements PurchaseStore {
  private readonly challenges = new Map<string, IssuedChallenge>();
  private readonly expiry = new ExpiryBuckets();
  private readonly charges = new Map<string, ChargeRecord>();
  private readonly tokens = new Map<string, string>();
  private readonly grants = new Map<string, Grant>();
  private readonly balances = new Map<string, bigint>();
  private readonly assents: TermsAssent[] = [];
  private readonly unreconciled = new Map<string, UnreconciledPayment>();
  /** Fault injection: recording assent fails (7.4 terms_record_failed). */
  failAssent = false;
  /** Fault injection: the next this many grants throw (7.4 grant_failed: settled, not yet credited). */
  failGrants = 0;

  constructor(private readonly options: MemoryPurchaseStoreOptions = {}) {}

  issue(challenge: IssuedChallenge): void {
    this.forgetExpired();
    this.challenges.set(challenge.id, challenge);
    this.expiry.add(challenge.id, challenge.expiresAt + this.keepExpiredSeconds);
  }
  challenge(id: string): IssuedChallenge | undefined {
    this.forgetExpired();
    return this.challenges.get(id);
  }
  /** How many challenges are held. */
  get challengeCount(): number {
    return this.challenges.size;
  }
  private get keepExpiredSeconds(): number {
    return this.options.keepExpiredSeconds ?? LIMITS.paymentChallengeLifetime.value;
  }
  private forgetExpired(): void {
    const { clock, referencedElsewhere } = this.options;
    if (clock === undefined) return;
    const now = clock.now();
    this.expiry.sweep(now, (id) => {
      const issued = this.challenges.get(id);
      if (issued === undefined || issued.expiresAt + this.keepExpiredSeconds >= now) return;
      if (this.charges.has(id) || this.grants.has(id) || referencedElsewhere?.(id)) return;
      this.challenges.delete(id);
    });
  }
  chargeOf(challengeId: string): ChargeRecord | undefined {
    return this.charges.get(challengeId);
  }
  credentialRecords(challengeId: string, token: string | undefined): CredentialRecords {
    // Stryker disable next-line ConditionalExpression: no payment is recorded under an undefined token, so get(undefined) answers the same
    return { charge: this.charges.get(challengeId), unreconciled: token === undefined ? undefined : this.unreconciled.get(token) };
  }
  chargeById(chargeId: string): ChargeRecord | undefined {
    for (const record of this.charges.values()) if (record.chargeId === chargeId) return record;
    return undefined;
  }
  chargeByKey(idempotencyKey: string): ChargeRecord | undefined {
    for (const record of this.charges.values()) if (record.idempotencyKey === idempotencyKey) return record;
    return undefined;
  }
  chargeByToken(token: string): ChargeRecord | undefined {
    const challengeId = this.tokens.get(token);
    return challengeId === undefined ? undefined : this.charges.get(challengeId);
  }
  openCharge(record: ChargeRecord): OpenCharge {
    const existing = this.charges.get(record.challengeId);
    if (existing) return { opened: false, clash: 'challenge', existing };
    const owner = this.tokens.get(record.token);
    if (owner !== undefined) return { opened: false, clash: 'token', existing: this.charges.get(owner)! };
    this.charges.set(record.challengeId, record);
    this.tokens.set(record.token, record.challengeId);
    return { opened: true, record };
  }
  updateCharge(challengeId: string, update: { readonly state: ChargeState; readonly chargeId?: string }): ChargeRecord {
    const record = this.charges.get(challengeId);
    if (!record) throw new Error(`no charge under challenge ${challengeId}`);
    const next: ChargeRecord = { ...record, state: update.state, ...(update.chargeId === undefined ? {} : { chargeId: update.chargeId }) };
    this.charges.set(challengeId, next);
    return next;
  }
  grant(grant: Grant): GrantResult {
    if (this.failGrants > 0) {
      this.failGrants -= 1;
      throw new Error('grant store unavailable');
    }
    const earlier = this.grants.get(grant.challengeId);
    if (earlier) return { granted: false, grant: earlier, balanceNano: this.balance(earlier.buyer) };
    this.grants.set(grant.challengeId, grant);
    this.balances.set(grant.buyer, (this.balances.get(grant.buyer) ?? 0n) + BigInt(grant.creditNano));
    return { granted: true, grant, balanceNano: this.balance(grant.buyer) };
  }
  settleAndGrant(challengeId: string, chargeId: string | undefined, grant: Grant): SettledCharge {
    const record = this.updateCharge(challengeId, { state: 'settled', chargeId });
    try {
      return { record, credited: this.grant(grant) };
    } catch {
      return { record };
    }
  }
  grantOf(challengeId: string): Grant | undefined {
    return this.grants.get(challengeId);
  }
  balance(buyer: string): string {
    return String(this.balances.get(buyer) ?? 0n);
  }
  recordAssent(assent: TermsAssent): void {
    if (this.failAssent) throw new Error('terms store unavailable');
    this.assents.push(assent);
  }
  pendingChargeOf(buyer: string, except: string): ChargeRecord | undefined {
    for (const record of this.charges.values()) if (record.buyer === buyer && record.state === 'sent' && record.challengeId !== except) return record;
    return undefined;
  }
  recordUnreconciled(payment: UnreconciledPayment): void {
    this.unreconciled.set(payment.token, payment);
  }
  unreconciledOf(token: string): UnreconciledPayment | undefined {
    return this.unreconciled.get(token);
  }
  allAssents(): TermsAssent[] {
    return [...this.assents];
  }
  allGrants(): Grant[] {
    return [...this.grants.values()];
  }
  allCharges(): ChargeRecord[] {
    return [...this.charges.values()];
  }
}

/** What the fake answers to the next new charge: a reply, or a fault (`throw`). `actual` is the state the charge is really in. */
export type ScriptedCharge =
  | ChargeOutcome
  | 'throw'
  | { readonly reply: ChargeOutcome | 'throw'; readonly actual?: FakeChargeState; readonly created?: boolean };

/** A charge's real state at the fake processor. */
export type FakeChargeState = 'settled' | 'declined' | 'processing' | 'cancelled-unsettled';

export interface FakeCharge {
  readonly chargeId: string;
  readonly token: string;
  readonly amount: ChargeAmount;
  readonly idempotencyKey: string;
  state: FakeChargeState;
}

/**
 * A card processor in memory. Each new idempotency key takes the next scripted entry (default `settled`);
 * a key seen before answers about its charge as it stands, creating nothing. `unknown` and `throw` leave the
 * charge `processing` unless the entry says otherwise; `created: false` with `throw` is a fault before the
 * charge reached the processor. Status reads take `statusScript` entries first (`unknown` or `throw`), then
 * the charge's state. Calls are counted so tests can say whether the processor was asked.
 */
export class FakeCardProcessor implements CardProcessor {
  readonly charges = new Map<string, FakeCharge>();
  private readonly byKey = new Map<string, string>();
  readonly calls: { readonly kind: 'charge' | 'status'; readonly arg: string; readonly token?: string }[] = [];
  private readonly script: ScriptedCharge[];
  readonly statusScript: ('unknown' | 'throw')[] = [];
  private next = 1;

  constructor(script: readonly ScriptedCharge[] = []) {
    this.script = [...script];
  }

  /** Queues replies for the next new charges. */
  enqueue(...entries: ScriptedCharge[]): void {
    this.script.push(...entries);
  }

  charge(token: string, amount: ChargeAmount, idempotencyKey: string): ChargeReply {
    this.calls.push({ kind: 'charge', arg: idempotencyKey, token });
    const known = this.byKey.get(idempotencyKey);
    if (known !== undefined) {
      const charge = this.charges.get(known)!;
      return { outcome: charge.state, chargeId: charge.chargeId };
    }
    const raw = this.script.shift() ?? 'settled';
    const entry = typeof raw === 'string' ? { reply: raw } : raw;
    if (entry.reply === 'throw' && entry.created === false) throw new Error('card processor unreachable');
    const actual: FakeChargeState = entry.actual ?? (entry.reply === 'unknown' || entry.reply === 'throw' ? 'processing' : entry.reply);
    const chargeId = `pi_${this.next++}`;
    this.charges.set(chargeId, { chargeId, token, amount, idempotencyKey, state: actual });
    this.byKey.set(idempotencyKey, chargeId);
    if (entry.reply === 'throw') throw new Error('card processor connection reset');
    if (entry.reply === 'unknown') return { outcome: 'unknown' };
    return { outcome: entry.reply, chargeId };
  }

  status(chargeId: string): ChargeReply {
    this.calls.push({ kind: 'status', arg: chargeId });
    const fault = this.statusScript.shift();
    if (fault === 'throw') throw new Error('card processor connection reset');
    if (fault === 'unknown') return { outcome: 'unknown', chargeId };
    const charge = this.charges.get(chargeId);
    if (!charge) return { outcome: 'unknown', chargeId };
    return { outcome: charge.state, chargeId };
  }

  /** Moves a processing charge to its final state (what the processor would later report). */
  resolve(chargeId: string, state: FakeChargeState): void {
    const charge = this.charges.get(chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    charge.state = state;
  }

  /** The charge created under a key, if any. */
  chargeFor(idempotencyKey: string): FakeCharge | undefined {
    const id = this.byKey.get(idempotencyKey);
    return id === undefined ? undefined : this.charges.get(id);
  }

  chargeCalls(): number {
    return this.calls.filter((c) => c.kind === 'charge').length;
  }

  /** Card countries by token; a token not listed is from `defaultCountry` (undefined: cannot be established). */
  readonly countries = new Map<string, string | undefined>();
  defaultCountry: string | undefined = 'US';
  instrumentCountry(token: string): string | undefined {
    return this.countries.has(token) ? this.countries.get(token) : this.defaultCountry;
  }

  readonly refunds: string[] = [];
  refundState: RefundState = 'issued';
  refund(chargeId: string): RefundState {
    this.refunds.push(chargeId);
    return this.refundState;
  }
}

/** A per-buyer lock in memory, with the faults a real one has: held by another presentation, or unavailable. */
export class MemoryPurchaseLock implements PurchaseLock {
  private readonly held = new Set<string>();
  /** Fault injection: the lock service is down (7.4 purchase_lock_unavailable). */
  unavailable = false;
  acquire(buyer: string): (() => void) | null {
    if (this.unavailable) throw new Error('lock service unavailable');
    if (this.held.has(buyer)) return null;
    this.held.add(buyer);
    return () => {
      this.held.delete(buyer);
    };
  }
  /** Holds the lock for a buyer, as a purchase settling elsewhere would. */
  hold(buyer: string): void {
    this.held.add(buyer);
  }
  isHeld(buyer: string): boolean {
    return this.held.has(buyer);
  }
}

/** Owned agents in memory; every agent has an owner unless listed as ownerless. */
export class MemoryBuyerDirectory implements BuyerDirectory {
  readonly ownerless = new Set<string>();
  hasOwner(buyer: string): boolean {
    return !this.ownerless.has(buyer);
  }
}
