/**
 * A bounded memo of a pure function of a string. Used for what the verifier derives from the
 * Signature-Agent field, which an agent sends byte for byte the same on every request: the parsed
 * dictionary, the identity a member names, the host of an agent URL. A memoised answer is the very answer
 * the function gives (the function is pure and its answers are never modified), so nothing observable
 * changes; the memo only spares the work on an agent's second and later requests.
 *
 * The keys come from requests, so the memo is bounded: at most `capacity` entries (the oldest leaves
 * first, as in ed25519.ts) and no key longer than `maxKeyLength` (those are computed, not kept).
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly capacity: number,
    private readonly maxKeyLength: number,
  ) {}

  /** compute(), or its remembered answer for this key; an exception is thrown again and not remembered. */
  get(key: string, compute: () => V): V {
    const known = this.entries.get(key);
    // Stryker disable next-line ConditionalExpression: computing again gives the very answer (see above)
    if (known !== undefined) return known;
    const value = compute();
    // Stryker disable all: which answers are kept, and for how long, changes no answer (see above), only the work
    if (key.length <= this.maxKeyLength) {
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, value);
    }
    // Stryker restore all
    return value;
  }
}
