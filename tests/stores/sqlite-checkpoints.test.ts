import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openSqlite } from '../../src/stores/sql/sqlite.js';

/**
 * Checkpoints off the event loop (src/stores/sql/sqlite-checkpoints.ts): past its first commits a connection leaves
 * copying the log back to a thread, turns its own automatic checkpoints off, and the log stays bounded under steady
 * writes; closing ends the thread and loses nothing.
 */
const dir = mkdtempSync(join(tmpdir(), 'apc-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROW = 'x'.repeat(200);
/** One commit per row, yielding to the event loop now and then as a server between requests does. */
async function insert(db: Awaited<ReturnType<typeof openSqlite>>, rows: number): Promise<void> {
  for (let i = 0; i < rows; i++) {
    await db.all('INSERT INTO t (body) VALUES (?)', [ROW]);
    if (i % 20 === 0) await new Promise(setImmediate);
  }
}

describe('SQLite checkpoints in a thread of their own', () => {
  it('takes over from the automatic checkpoints, keeps the log bounded, and closes with every row kept', async () => {
    const file = join(dir, 'steady.sqlite');
    const db = await openSqlite(file);
    await db.all('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    expect(await db.all('PRAGMA wal_autocheckpoint'), 'SQLite checkpoints in the commit at first').toEqual([{ wal_autocheckpoint: 1000 }]);
    await insert(db, 300);
    await vi.waitFor(async () => expect(await db.all('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]), { timeout: 10_000 });
    const rows = 8000;
    await insert(db, rows);
    // Every commit adds at least one page (4 KiB and a frame header) to the log: without checkpoints it would hold them all.
    expect(statSync(`${file}-wal`).size).toBeLessThan((rows / 2) * 4096);
    await db.close();
    const again = await openSqlite(file);
    expect(await again.all('SELECT count(*) AS n FROM t')).toEqual([{ n: rows + 300 }]);
    await again.close();
  }, 60_000);

  it('closes at once a connection that never started the thread', async () => {
    const db = await openSqlite(join(dir, 'short.sqlite'));
    await db.all('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    await insert(db, 10);
    await db.close();
  });
});
