import type { Redis } from 'ioredis';

/** The channel Redis publishes invalidations on to a connection that tracking redirects to (RESP2). */
const CHANNEL = '__redis__:invalidate';
/** Values kept in-process at most, over every prefix; past it the oldest go first. */
const LOCAL_ENTRIES = 20_000;
/**
 * How long a value is trusted without a word from the server: a bound on staleness should the invalidation
 * connection die without the socket saying so (a partition without a reset).
 */
const MAX_AGE_MS = 5000;

interface Copy {
  readonly value: unknown;
  readonly at: number;
}

/**
 * Server-assisted client-side caching (CLIENT TRACKING, Redis 6 and later, Valkey): what an instance read under a
 * tracked prefix is answered in-process, without a round trip, until Redis says another client changed that key.
 *
 * Tracking is in broadcast mode on the prefixes the ports name (failures, registrations), redirected to a second
 * connection subscribed to the invalidation channel; NOLOOP leaves out what this connection changed itself, which the
 * writer keeps or forgets on its own. Nothing read is kept unless tracking was on when it was asked and no
 * invalidation and no disconnection came in between: a value that arrives after word of its change is answered but
 * never kept. A lost connection (either of the two), a flush and a server without tracking leave every read to Redis.
 */
export class Invalidations {
  private readonly copies = new Map<string, Copy>();
  private readonly prefixes = new Set<string>();
  /** Prefixes tracking is on for, on the connections as they are now. */
  private covered = new Set<string>();
  /** Grows with every invalidation, flush and lost connection: a read is kept only when it did not move meanwhile. */
  private generation = 0;
  /** Grows with every lost connection (and restart of tracking): tracking is on only when it did not move meanwhile. */
  private losses = 0;
  private subscriberId: number | undefined;
  private readonly subscriber: Redis;

  constructor(private readonly redis: Redis) {
    this.subscriber = redis.duplicate({ protocol: 2, autoResubscribe: false, enableAutoPipelining: false, lazyConnect: true, enableOfflineQueue: false });
    // Failures to reach the server are the data connection's to report; here they only end caching until it is back.
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('messageBuffer', (channel: Buffer, message: Buffer[] | Buffer | null) => {
      if (channel.toString() !== CHANNEL) return;
      this.generation++;
      if (message === null || !Array.isArray(message)) this.copies.clear();
      else for (const key of message) this.copies.delete(key.toString());
    });
    for (const connection of [redis, this.subscriber]) connection.on('close', () => this.lost());
    this.subscriber.on('ready', () => void this.subscribe());
    redis.on('ready', () => void this.track());
    redis.on('end', () => this.close());
    this.subscriber.connect().catch(() => undefined);
  }

  /**
   * Closes the invalidation connection (the data connection's end does too, but a client quit while the server is
   * away never ends: whoever quits it closes this first).
   */
  close(): void {
    this.lost();
    this.subscriber.disconnect();
  }

  /** Starts tracking keys under `prefix` (every instance's writes to them invalidate this one's copies). */
  watch(prefix: string): void {
    if (this.prefixes.has(prefix)) return;
    this.prefixes.add(prefix);
    void this.track();
  }

  /** The copy kept of `key`, if any and still trusted. */
  copy(key: string): Copy | undefined {
    const copy = this.copies.get(key);
    if (copy === undefined) return undefined;
    if (performance.now() - copy.at < MAX_AGE_MS && this.covers(key)) return copy;
    this.copies.delete(key);
    return undefined;
  }

  /** Reads `key` with `read` (a round trip), keeping what it answers when nothing moved meanwhile. */
  async read<V>(key: string, read: () => Promise<V>): Promise<V> {
    const before = this.generation;
    const value = await read();
    if (this.generation === before) this.keep(key, value);
    return value;
  }

  /** Keeps `value` as what `key` holds after a write of this connection, unless something moved since `before`. */
  keepAfterWrite(key: string, value: unknown, before: number): void {
    if (this.generation === before) this.keep(key, value);
    else this.copies.delete(key);
  }

  /** Where a write can start: the generation to give keepAfterWrite. */
  get now(): number {
    return this.generation;
  }

  forget(key: string): void {
    this.copies.delete(key);
  }

  /** Whether tracking is on for every prefix watched (tests and the bench wait for it). */
  get tracking(): boolean {
    return this.prefixes.size > 0 && [...this.prefixes].every((p) => this.covered.has(p));
  }

  private covers(key: string): boolean {
    for (const prefix of this.covered) if (key.startsWith(prefix)) return true;
    return false;
  }

  private keep(key: string, value: unknown): void {
    if (!this.covers(key)) return;
    this.copies.delete(key);
    this.copies.set(key, { value, at: performance.now() });
    if (this.copies.size > LOCAL_ENTRIES) this.copies.delete(this.copies.keys().next().value!);
  }

  private lost(): void {
    this.losses++;
    this.generation++;
    this.covered = new Set();
    this.copies.clear();
    if (this.subscriber.status !== 'ready') this.subscriberId = undefined;
  }

  private async subscribe(): Promise<void> {
    this.subscriberId = undefined;
    try {
      const id = Number(await this.subscriber.client('ID'));
      await this.subscriber.subscribe(CHANNEL);
      this.subscriberId = id;
    } catch {
      return;
    }
    await this.track();
  }

  /** (Re)starts tracking on the data connection for every prefix watched; every copy is dropped first. */
  private async track(): Promise<void> {
    const id = this.subscriberId;
    if (id === undefined || this.redis.status !== 'ready' || this.prefixes.size === 0) return;
    this.lost();
    const losses = this.losses;
    const prefixes = [...this.prefixes];
    try {
      await this.redis.call('CLIENT', 'TRACKING', 'OFF');
      await this.redis.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', 'NOLOOP', ...prefixes.flatMap((p) => ['PREFIX', p]));
    } catch {
      // A server without tracking (before Redis 6), or one that went away: every read stays a round trip.
      return;
    }
    if (this.losses !== losses || this.subscriberId !== id) return;
    // A read sent before tracking was on may answer from before a change no one reported: it must not be kept.
    this.generation++;
    this.covered = new Set(prefixes);
  }
}

const hubs = new WeakMap<Redis, Invalidations>();

/** The one set of invalidations of a client, shared by every port over it. */
export function invalidationsOf(redis: Redis): Invalidations {
  let hub = hubs.get(redis);
  if (hub === undefined) hubs.set(redis, (hub = new Invalidations(redis)));
  return hub;
}

/** Closes the invalidation connection of a client, if it has one: before quitting it. */
export function closeInvalidations(redis: Redis): void {
  hubs.get(redis)?.close();
}
