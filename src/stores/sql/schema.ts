import type { SqlDatabase } from './driver.js';

/**
 * The tables of the purchase records, in SQL both dialects read. The unique keys are the rules "charged once"
 * and "credited once": one charge per challenge and per token, one grant per challenge, one hold per key, one
 * transfer per challenge and per transaction.
 * Records are JSON in `body`; the columns are what is looked up, constrained or changed.
 */
const TABLES = [
  'CREATE TABLE IF NOT EXISTS challenges (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL, body TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS challenges_expiry ON challenges (expires_at)',
  `CREATE TABLE IF NOT EXISTS charges (challenge_id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, idempotency_key TEXT NOT NULL,
    buyer TEXT NOT NULL, state TEXT NOT NULL, charge_id TEXT, sent_at BIGINT NOT NULL, body TEXT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS charges_key ON charges (idempotency_key)',
  'CREATE INDEX IF NOT EXISTS charges_charge_id ON charges (charge_id)',
  'CREATE INDEX IF NOT EXISTS charges_pending ON charges (buyer, state)',
  'CREATE TABLE IF NOT EXISTS grants (challenge_id TEXT PRIMARY KEY, buyer TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS balances (buyer TEXT PRIMARY KEY, nano BIGINT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS assents (challenge_id TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS unreconciled (token TEXT PRIMARY KEY, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS holds (hold_id TEXT PRIMARY KEY, hold_key TEXT NOT NULL UNIQUE, payer TEXT NOT NULL, nano BIGINT NOT NULL, state TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS holds_payer ON holds (payer, state)',
  'CREATE TABLE IF NOT EXISTS sales (challenge_id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS transfers (challenge_id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, buyer TEXT NOT NULL, state TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS transfers_pending ON transfers (buyer, state)',
  'CREATE TABLE IF NOT EXISTS wallet_days (wallet_day TEXT PRIMARY KEY)',
  'CREATE TABLE IF NOT EXISTS wallet_counts (hash TEXT PRIMARY KEY, wallet_day TEXT NOT NULL, amount TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS wallet_counts_day ON wallet_counts (wallet_day)',
  'CREATE TABLE IF NOT EXISTS cap_counts (day BIGINT NOT NULL, name TEXT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (day, name))',
  'CREATE TABLE IF NOT EXISTS rail_spent (payer TEXT PRIMARY KEY, nano BIGINT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS chain_transfers (hash TEXT PRIMARY KEY, outcome TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS widget_folders (id TEXT PRIMARY KEY, {SEQ}body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS widget_agents (id TEXT PRIMARY KEY, {SEQ}author_id TEXT NOT NULL, folder_id TEXT NOT NULL, slug TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS widget_agents_folder ON widget_agents (author_id, folder_id)',
  'CREATE INDEX IF NOT EXISTS widget_agents_slug ON widget_agents (slug)',
  'CREATE TABLE IF NOT EXISTS widget_sources (agent_id TEXT PRIMARY KEY, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS widget_catalog (id TEXT PRIMARY KEY, {SEQ}author_id TEXT NOT NULL, folder_id TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS widget_posts (id TEXT PRIMARY KEY, {SEQ}author_id TEXT NOT NULL, bundle_folder_id TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS tool_usage (id TEXT PRIMARY KEY, {SEQ}kind TEXT NOT NULL, body TEXT NOT NULL)',
];

/**
 * A column numbering rows in the order first inserted (an upsert keeps it): `seq` on Postgres; SQLite's rowid already
 * does (INSERTION_ORDER says which to sort by).
 */
const SEQUENCE = { sqlite: '', postgres: 'seq BIGSERIAL, ' } as const;
export const INSERTION_ORDER = { sqlite: 'rowid', postgres: 'seq' } as const;

/** Creates what is missing. Instances starting together take turns (an advisory lock on Postgres, the write lock on SQLite). */
export async function prepareSchema(db: SqlDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.all('SELECT pg_advisory_xact_lock(7400)');
    for (const statement of TABLES) await tx.all(statement.replace('{SEQ}', SEQUENCE[db.dialect]));
  });
}
