import { describe, expect } from 'vitest';
import type { FolderSource, PublishStore, WidgetReader } from '../../src/widgets/publish/ports.js';
import type { AgentRecord, CatalogRecord, FunctionSourceRecord, PostRecord, WidgetFolder } from '../../src/widgets/publish/records.js';
import type { ToolUsageLedger } from '../../src/widgets/publish/usage.js';
import { adapterTests } from './adapter-tests.js';

/** The widget pipeline's stores of one adapter, fresh and empty. */
export interface WidgetStoresUnderTest {
  readonly store: PublishStore & WidgetReader;
  readonly folders: FolderSource & { put(folder: WidgetFolder): unknown };
  readonly usage: ToolUsageLedger;
  close?(): Promise<void>;
}

const agent = (id: string, folderId: string, slug: string, authorId = 'user_alice') => ({ id, authorId, folderId, slug, name: id }) as unknown as AgentRecord;
const entry = (id: string, folderId: string, name = id) => ({ id, authorId: 'user_alice', folderId, name }) as unknown as CatalogRecord;
const post = (id: string, bundleFolderId: string) =>
  ({ id, authorId: 'user_alice', metadata: { bundleFolderId, catalogId: 'c', agentSlug: 's' } }) as unknown as PostRecord;
const source = (name: string) => ({ name, source: `export default () => "${name}"` }) as unknown as FunctionSourceRecord;

/**
 * What every adapter of the widget ports must do (memory, SQLite, PostgreSQL): records read back as written, found by
 * the keys 4.5 names, listed in the order first written (a put replaces in place), folders with their bytes.
 */
export function widgetStoreContract(name: string, open: () => Promise<WidgetStoresUnderTest>, skip?: () => string | undefined): void {
  describe(`widget stores: ${name}`, () => {
    const { fresh, test } = adapterTests(open, skip);

    test('reads back a folder with its files byte for byte, and nothing for an unknown id', async () => {
      const { folders } = await fresh(undefined);
      const files = new Map([
        ['manifest.json', new TextEncoder().encode('{"name":"w"}')],
        ['bin/blob', new Uint8Array([0, 255, 7])],
      ]);
      await folders.put({ id: 'folder_1', ownerId: 'user_alice', files, remixOf: 'cat_9' });
      expect(await folders.getFolder('folder_1')).toEqual({ id: 'folder_1', ownerId: 'user_alice', files, remixOf: 'cat_9' });
      expect(await folders.getFolder('folder_2')).toBeUndefined();
    });

    test('finds agents by folder and slug, catalog records and posts by their keys, and lists the catalog in the order first written', async () => {
      const { store } = await fresh(undefined);
      await store.putAgent(agent('agent_1', 'folder_1', 'w'));
      expect(await store.findAgentByFolder('user_alice', 'folder_1')).toEqual(agent('agent_1', 'folder_1', 'w'));
      expect(await store.findAgentByFolder('user_bob', 'folder_1')).toBeUndefined();
      expect([await store.isSlugTaken('w'), await store.isSlugTaken('x')]).toEqual([true, false]);
      expect(await store.findAgentBySlug('w')).toEqual(agent('agent_1', 'folder_1', 'w'));
      expect(await store.getAgent('agent_1')).toEqual(agent('agent_1', 'folder_1', 'w'));
      await store.replaceFunctionSources('agent_1', [source('a'), source('b')]);
      await store.replaceFunctionSources('agent_1', [source('c')]);
      expect(await store.getFunctionSources('agent_1')).toEqual([source('c')]);
      expect(await store.getFunctionSources('agent_2')).toEqual([]);
      await store.putCatalogRecord(entry('cat_1', 'folder_1'));
      await store.putCatalogRecord(entry('cat_2', 'folder_2'));
      await store.putCatalogRecord(entry('cat_1', 'folder_1', 'renamed'));
      expect((await store.listCatalog()).map((c) => [c.id, c.name])).toEqual([
        ['cat_1', 'renamed'],
        ['cat_2', 'cat_2'],
      ]);
      expect(await store.findCatalogRecord('user_alice', 'folder_2')).toEqual(entry('cat_2', 'folder_2'));
      expect(await store.getCatalogRecord('cat_9')).toBeUndefined();
      await store.putPost(post('post_1', 'folder_1'));
      expect(await store.findPost('user_alice', 'folder_1')).toEqual(post('post_1', 'folder_1'));
      expect(await store.getPost('post_1')).toEqual(post('post_1', 'folder_1'));
      expect(await store.getPost('post_2')).toBeUndefined();
    });

    test('takes charge and attribution rows', async () => {
      const { usage } = await fresh(undefined);
      await usage.settle({ id: 'charge_1', agentId: 'agent_1', tool: 'buy', payerId: 'caller', currency: 'USD', amountNanocents: 7, at: 100 });
      await usage.attribute({ id: 'attr_1', agentId: 'agent_1', tool: 'free', authorId: 'user_alice', callerId: null, via: 'mcp', at: 100 } as never);
    });
  });
}
