import { describe, expect, it } from 'vitest';
import { findInCatalog, type WidgetRef } from '../../suites/lib/widgets.js';

/** READING-CATALOG-SHAPE: the suites find a published widget in a catalog of any shape, or say they cannot. */
const ref: WidgetRef = { postId: 'post_1', mcpUrl: 'https://platform.test/api/widgets/post_1/mcp' };
const other = { postId: 'post_2', mcp: 'https://platform.test/api/widgets/post_2/mcp' };

describe('findInCatalog', () => {
  it('finds the entry naming the post id or the MCP endpoint in the reference shape', () => {
    const doc = { widgets: [{ postId: 'post_1', mcp: ref.mcpUrl, tools: [{ name: 'x' }] }, other] };
    expect(findInCatalog(doc, ref)).toEqual({ entries: [doc.widgets[0]], listed: 2 });
  });

  it('reads a bare array whose entries name the endpoint by path, the post nested', () => {
    const doc = [
      { title: 'a', endpoint: '/api/widgets/post_1/mcp' },
      { title: 'b', post: { id: 'post_2' } },
      { title: 'c', post: { id: 'post_3' } },
    ];
    expect(findInCatalog(doc, ref)).toEqual({ entries: [doc[0]], listed: 3 });
  });

  it('reads an object keyed by post id, nested in other members', () => {
    const doc = { data: { items: { post_1: { title: 'a' }, post_2: { title: 'b' } } }, meta: { count: 2 } };
    expect(findInCatalog(doc, ref)).toEqual({ entries: [{ title: 'a' }], listed: 2 });
  });

  it('names the catalog id the publish answered, when it named one', () => {
    const doc = { items: [{ id: 'catalog_9' }, { id: 'catalog_8' }] };
    expect(findInCatalog(doc, { ...ref, catalogId: 'catalog_9' })?.entries).toEqual([{ id: 'catalog_9' }]);
    expect(findInCatalog(doc, ref)).toBeUndefined();
  });

  it('takes the shallowest list: an array of links inside an entry is not the catalog', () => {
    const doc = { widgets: [{ links: [{ rel: 'mcp', href: ref.mcpUrl }] }, { links: [] }] };
    expect(findInCatalog(doc, ref)).toEqual({ entries: [doc.widgets[0]], listed: 2 });
  });

  it('counts every entry naming the widget (a duplicate listing)', () => {
    const entry = { postId: 'post_1' };
    expect(findInCatalog({ widgets: [entry, entry, other] }, ref)).toEqual({ entries: [entry, entry], listed: 3 });
  });

  it('finds nothing in an empty catalog, one naming other widgets only, or another origin or path', () => {
    expect(findInCatalog({ widgets: [] }, ref)).toBeUndefined();
    expect(findInCatalog([other], ref)).toBeUndefined();
    expect(findInCatalog([{ mcp: 'https://elsewhere.test/api/widgets/post_1/mcp' }, { mcp: '/api/widgets/post_10/mcp' }], ref)).toBeUndefined();
    expect(findInCatalog('not json', ref)).toBeUndefined();
  });

  it('does not take a relative string of another entry ("", "mcp") for the endpoint it would resolve to', () => {
    const doc = {
      widgets: [
        { postId: 'post_1', mcp: ref.mcpUrl },
        { postId: 'post_2', description: '', version: 'mcp' },
      ],
    };
    expect(findInCatalog(doc, ref)).toEqual({ entries: [doc.widgets[0]], listed: 2 });
  });
});
