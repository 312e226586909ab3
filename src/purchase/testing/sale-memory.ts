import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import type {
  AgentAccounts,
  CallResponse,
  CallServer,
  CapCounters,
  CardInstruments,
  Funding,
  FundingHold,
  SaleCall,
  SalePatch,
  SaleRecord,
  SaleState,
  SaleStore,
  ServeResult,
} from '../machine/sale/ports.js';

/** Sales in memory; every call is atomic because nothing in it awaits. */
export class MemorySaleStore implements SaleStore {
  private readonly sales = new Map<string, SaleRecord>();

  open(record: SaleRecord): SaleRecord {
    const existing = this.sales.get(record.challengeId);
    if (existing) return existing;
    this.sales.set(record.challengeId, record);
    return record;
  }
  sale(challengeId: string): SaleRecord | undefined {
    return this.sales.get(challengeId);
  }
  move(challengeId: string, from: readonly SaleState[], to: SaleState, patch: SalePatch = {}): { moved: boolean; record: SaleRecord } {
    const record = this.sales.get(challengeId);
    if (!record) throw new Error(`no sale under challenge ${challengeId}`);
    if (!from.includes(record.state)) return { moved: false, record };
    const next: SaleRecord = { ...record, ...patch, state: to };
    this.sales.set(challengeId, next);
    return { moved: true, record: next };
  }
  all(): SaleRecord[] {
    return [...this.sales.values()];
  }
}

interface Hold {
  readonly holdId: string;
  readonly payer: string;
  readonly nano: bigint;
  state: 'held' | 'spent' | 'released';
}

/**
 * Balances in memory: what `credited(payer)` says was credited (the purchase store's balance), less what calls
 * spent and what in-flight calls hold. Fault injection: `failHold` makes the funding step throw.
 */
export class MemoryFunding implements Funding {
  private readonly holds = new Map<string, Hold>();
  private readonly byKey = new Map<string, string>();
  private next = 1;
  failHold = false;

  constructor(private readonly credited: (payer: string) => string) {}

  hold(payer: string, nano: string, key: string): FundingHold {
    if (this.failHold) throw new Error('funding step failed');
    const known = this.byKey.get(key);
    if (known !== undefined) {
      const earlier = this.holds.get(known)!;
      return earlier.state === 'held' ? { held: true, holdId: earlier.holdId } : { held: false, reason: 'insufficient' };
    }
    const amount = BigInt(nano);
    const unspent = BigInt(this.credited(payer)) - this.total(payer, 'spent');
    if (unspent < amount) return { held: false, reason: 'insufficient' };
    if (unspent - this.total(payer, 'held') < amount) return { held: false, reason: 'in-flight' };
    const holdId = `hold_${this.next++}`;
    this.holds.set(holdId, { holdId, payer, nano: amount, state: 'held' });
    this.byKey.set(key, holdId);
    return { held: true, holdId };
  }
  spend(holdId: string): void {
    this.end(holdId, 'spent');
  }
  release(holdId: string): void {
    this.end(holdId, 'released');
  }
  /** What the payer can still spend: credited, less spent, less held. */
  available(payer: string): string {
    return String(BigInt(this.credited(payer)) - this.total(payer, 'spent') - this.total(payer, 'held'));
  }
  total(payer: string, state: Hold['state']): bigint {
    let sum = 0n;
    for (const hold of this.holds.values()) if (hold.payer === payer && hold.state === state) sum += hold.nano;
    return sum;
  }
  private end(holdId: string, state: 'spent' | 'released'): void {
    const hold = this.holds.get(holdId);
    if (!hold) throw new Error(`no hold ${holdId}`);
    if (hold.state !== 'held') throw new Error(`hold ${holdId} already ${hold.state}`);
    hold.state = state;
  }
}

/** Daily counters in memory. */
export class MemoryCapCounters implements CapCounters {
  private readonly counts = new Map<string, number>();

  take(counters: readonly { readonly name: string; readonly limit: number }[], day: number): { taken: true } | { taken: false; over: number } {
    const over = counters.findIndex((c) => this.count(c.name, day) >= c.limit);
    if (over >= 0) return { taken: false, over };
    for (const c of counters) this.counts.set(`${day}|${c.name}`, this.count(c.name, day) + 1);
    return { taken: true };
  }
  release(names: readonly string[], day: number): void {
    for (const name of names) this.counts.set(`${day}|${name}`, Math.max(0, this.count(name, day) - 1));
  }
  count(name: string, day: number): number {
    return this.counts.get(`${day}|${name}`) ?? 0;
  }
}

/** Card fingerprints by token; a token not listed is its own card (`card:<token>`), unless `unknownByDefault`. */
export class FakeCardInstruments implements CardInstruments {
  readonly cards = new Map<string, string | undefined>();
  unknownByDefault = false;
  instrumentOf(token: string): string | undefined {
    if (this.cards.has(token)) return this.cards.get(token);
    return this.unknownByDefault ? undefined : `card:${token}`;
  }
}

/** Every account is an active agent unless listed as inactive. */
export class MemoryAgentAccounts implements AgentAccounts {
  readonly inactive = new Set<string>();
  isActiveAgent(account: string): boolean {
    return !this.inactive.has(account);
  }
}

/**
 * What the next call does: served (200), not started, failed (502), throws; `slow`: served once the event loop has
 * turned, so requests already in flight go on while the call runs (as a resource that takes its time); `multiple-choices`:
 * served with the resource's own 300.
 */
export type ScriptedServe = 'served' | 'not-started' | 'failed' | 'throw' | 'slow' | 'multiple-choices';

/**
 * A priced resource in memory: each call takes the next scripted entry (default `served`) and is recorded when
 * it ran (every entry but `not-started`), so tests can count how often a call was served. A served call answers
 * 200 with `{"served": n}`; a failed one 502.
 */
export class ScriptedCallServer implements CallServer {
  readonly ran: SaleCall[] = [];
  private readonly script: ScriptedServe[];
  /** Runs while the call is in progress (tests interleave other presentations here). */
  during: ((call: SaleCall) => unknown) | undefined;

  constructor(script: readonly ScriptedServe[] = []) {
    this.script = [...script];
  }
  enqueue(...entries: ScriptedServe[]): void {
    this.script.push(...entries);
  }
  async serve(call: SaleCall): Promise<ServeResult> {
    const entry = this.script.shift() ?? 'served';
    if (entry === 'not-started') return { outcome: 'not-started' };
    this.ran.push(call);
    if (this.during) await this.during(call);
    if (entry === 'throw') throw new Error('resource crashed');
    if (entry === 'failed') return { outcome: 'failed', response: jsonResponse(502, { failed: this.ran.length }) };
    if (entry === 'slow') await new Promise((resolve) => setImmediate(resolve));
    return { outcome: 'served', response: jsonResponse(entry === 'multiple-choices' ? 300 : 200, { served: this.ran.length }) };
  }
  /** Calls run under a challenge (bought ones), by challenge id. */
  servedUnder(challengeId: string): number {
    return this.ran.filter((c) => c.challengeId === challengeId).length;
  }
}

function jsonResponse(status: number, body: unknown): CallResponse {
  return { status, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: new TextEncoder().encode(JSON.stringify(body)) };
}
