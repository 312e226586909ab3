/** A value bound to or read from a statement; amounts travel as decimal strings, times as numbers. */
export type SqlValue = string | number | null;
export type SqlRow = Record<string, unknown>;
/** A statement and its parameters. */
export type SqlStatement = readonly [sql: string, params: readonly SqlValue[]];

/** Runs statements written once for both dialects: `?` placeholders, RETURNING, ON CONFLICT. */
export interface SqlRunner {
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
}

export interface SqlDatabase extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /** What locks a row read in a transaction against a concurrent writer: FOR UPDATE on Postgres; SQLite transactions already hold the write lock. */
  readonly forUpdate: string;
  /**
   * Runs the statements one after the other on one connection, each committed on its own, the next sent without
   * waiting for the one before (Postgres pipelines them: one round trip); each answers or fails on its own.
   */
  inOrder(statements: readonly SqlStatement[]): Promise<PromiseSettledResult<SqlRow[]>[]>;
  /** Runs `work` in one transaction, committed when it resolves and rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
