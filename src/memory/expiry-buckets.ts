/**
 * Entries keyed by the minute they expire in, so expired ones are found without walking the rest: each operation
 * drops what expired since the last one, and the store never holds more than its rule still needs.
 */
export class ExpiryBuckets {
  private readonly buckets = new Map<number, string[]>();
  private swept = Number.NEGATIVE_INFINITY;

  add(key: string, expiresAt: number): void {
    const minute = Math.floor(expiresAt / 60);
    const bucket = this.buckets.get(minute);
    if (bucket) bucket.push(key);
    else this.buckets.set(minute, [key]);
  }

  /** Calls `expire` for every key whose bucket ended before `now` (a key may be expired twice; `expire` checks). */
  sweep(now: number, expire: (key: string) => void): void {
    const current = Math.floor(now / 60);
    if (current <= this.swept) return;
    for (const [minute, keys] of this.buckets) {
      if (minute >= current) continue;
      for (const key of keys) expire(key);
      this.buckets.delete(minute);
    }
    this.swept = current;
  }
}
