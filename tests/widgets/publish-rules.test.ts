import { describe, expect, it } from 'vitest';
import { remixNumberOf, splitSlugPair } from '../../src/harness/widget-slug.js';
import { WIDGET_MANIFEST } from '../../src/spec/widgets.js';
import {
  counterIds,
  MemoryFolderSource,
  MemoryPublishStore,
  MemoryToolUsage,
  PUBLISH_RULES,
  publishWidget,
  recordToolCall,
  wrapSingleFile,
} from '../../src/widgets/publish/index.js';

const encoder = new TextEncoder();
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, encoder.encode(t)] as const));

describe('wrapSingleFile (2.5: a single HTML file is wrapped into a one-child folder)', () => {
  it("makes the file the folder's only child, index.html, with a manifest named after the page's title", () => {
    const wrapped = wrapSingleFile(files({ 'page.html': '<html><head><title> My Page </title></head></html>' }));
    expect([...wrapped!.files.keys()]).toEqual([WIDGET_MANIFEST.defaultEntry]);
    expect(JSON.parse(wrapped!.manifestText)).toMatchObject({ name: 'My Page', version: '1.0.0', _meta: { platform: { v: 1 } }, tools: [] });
  });

  it('names the manifest after the file when the page has no title', () => {
    expect(JSON.parse(wrapSingleFile(files({ 'pages/Card.HTM': '<p>hi</p>' }))!.manifestText).name).toBe('Card');
  });

  it('wraps nothing else: a folder of two files, a single file that is not HTML, an empty folder', () => {
    expect(wrapSingleFile(files({ 'index.html': '<p/>', 'widget.json': '{}' }))).toBeNull();
    expect(wrapSingleFile(files({ 'tool.js': '' }))).toBeNull();
    expect(wrapSingleFile(new Map())).toBeNull();
  });

  it('publishes a folder of one HTML file as a widget whose entry is that file', async () => {
    const folders = new MemoryFolderSource();
    const html = '<html><head><title>Solo</title></head><body>solo</body></html>';
    folders.put({ id: 'f1', ownerId: 'user-abcdef', files: files({ 'solo.html': html }) });
    const outcome = await publishWidget(
      { callerId: 'user-abcdef', folderId: 'f1' },
      { folders, store: new MemoryPublishStore(), clock: { now: () => 1 }, ids: counterIds() },
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.catalog.snapshot.entryPath).toBe(WIDGET_MANIFEST.defaultEntry);
    expect(outcome.catalog.snapshot.entryHtml).toBe(html);
    expect(outcome.agent.slug).toBe('widget-user-a-solo');
  });
});

describe('recordToolCall (2.5: billable tools are charged, free tools attributed)', () => {
  const ports = () => ({ ledger: new MemoryToolUsage(), clock: { now: () => 100 }, ids: counterIds(), rules: PUBLISH_RULES });
  const call = { agentId: 'agent_1', authorId: 'author', callerId: 'caller', via: 'mcp' as const };

  it('writes a charge of the price for a billable tool and no attribution row', async () => {
    const p = ports();
    await recordToolCall({ ...call, tool: { name: 'buy', billing: { currency: 'USD', amountNanocents: 7 } } }, p);
    expect(p.ledger.charges).toEqual([{ id: 'charge_1', agentId: 'agent_1', tool: 'buy', payerId: 'caller', currency: 'USD', amountNanocents: 7, at: 100 }]);
    expect(p.ledger.attributions).toEqual([]);
  });

  it('writes an attribution row only for a free tool', async () => {
    const p = ports();
    await recordToolCall({ ...call, tool: { name: 'look', billing: null } }, p);
    expect(p.ledger.charges).toEqual([]);
    expect(p.ledger.attributions).toEqual([
      { id: 'attribution_1', agentId: 'agent_1', tool: 'look', authorId: 'author', callerId: 'caller', via: 'mcp', at: 100 },
    ]);
  });
});

describe('splitSlugPair and remixNumberOf (how suite 4.5 reads slugs)', () => {
  it('splits two users’ slugs of one bundle into one prefix, six-character user parts and one bundle slug', () => {
    expect(splitSlugPair('widget-abc123-my-card', 'widget-def456-my-card')).toEqual({ prefix: 'widget', users: ['abc123', 'def456'], bundle: 'my-card' });
    expect(splitSlugPair('w-x-abc123-card', 'w-x-def456-card')).toEqual({ prefix: 'w-x', users: ['abc123', 'def456'], bundle: 'card' });
  });

  it('finds no split for slugs without a user part, with user parts of another length, or that are the same', () => {
    expect(splitSlugPair('widget-my-card', 'widget-my-card')).toBeNull();
    expect(splitSlugPair('widget-abc1234-card', 'widget-def4567-card')).toBeNull();
    expect(splitSlugPair('widget-abc123-card', 'widget-abc123-card')).toBeNull();
    expect(splitSlugPair('widget-abc123-card', 'widget-def456-other')).toBeNull();
  });

  it('reads N of <slug>-r<N>, N a positive integer', () => {
    expect(remixNumberOf('widget-abc123-card-r2', 'widget-abc123-card')).toBe(2);
    for (const remix of ['widget-abc123-card-2', 'widget-abc123-card-r0', 'widget-abc123-card', 'other-r1'])
      expect(remixNumberOf(remix, 'widget-abc123-card'), remix).toBeNull();
  });
});
