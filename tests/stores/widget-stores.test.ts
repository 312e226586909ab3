import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { openSqlite } from '../../src/stores/sql/sqlite.js';
import { SqlWidgetStore } from '../../src/stores/sql/widget-store.js';
import { MemoryFolderSource, MemoryPublishStore } from '../../src/widgets/publish/memory-store.js';
import { MemoryToolUsage } from '../../src/widgets/publish/usage.js';
import { widgetStoreContract } from './widget-contract.js';

widgetStoreContract('memory', async () => ({ store: new MemoryPublishStore(), folders: new MemoryFolderSource(), usage: new MemoryToolUsage() }));

const dir = mkdtempSync(join(tmpdir(), 'apc-widget-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

widgetStoreContract('SQLite', async () => {
  const db = await openSqlite(join(dir, `${++files}.sqlite`));
  await prepareSchema(db);
  const widgets = new SqlWidgetStore(db);
  return { store: widgets, folders: widgets, usage: widgets, close: () => db.close() };
});
