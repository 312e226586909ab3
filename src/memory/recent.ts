/**
 * A Map or Set holding at most `limit` entries: adding a new one past it drops the oldest added. For what a
 * long-running process is told once per run and may need for the rest of that run only (the test control's states):
 * a run's entries are the newest, so only runs long finished lose theirs.
 */
export class RecentMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key)) dropOldest(this, this.limit);
    return super.set(key, value);
  }
}

export class RecentSet<T> extends Set<T> {
  constructor(private readonly limit: number) {
    super();
  }

  override add(value: T): this {
    if (!this.has(value)) dropOldest(this, this.limit);
    return super.add(value);
  }
}

/** Drops the oldest entries of `entries` until one more fits under `limit`. */
function dropOldest<K>(entries: Map<K, unknown> | Set<K>, limit: number): void {
  for (const key of entries.keys()) {
    if (entries.size < limit) return;
    entries.delete(key);
  }
}
