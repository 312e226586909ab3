import { describe, expect, it } from 'vitest';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { REFERENCE_ONLY_ROUTES, WIDGET_ROUTES, widgetRoutePath } from '../../src/spec/publish.js';
import type { PublishResponse } from '../../src/reference/widgets/index.js';
import type { MemoryToolUsage } from '../../src/widgets/publish/index.js';
import { weatherFolder } from '../widgets/publish-fixtures.js';
import { widgetPlatform } from './helpers.js';

const ALICE = 'https://agents.example/a/alice';

/** The weather widget published by alice (forecast billable, refresh free), and its host page's bridge endpoint. */
async function published() {
  const w = widgetPlatform();
  const alice = await w.user(ALICE);
  w.widgets.folders.put(weatherFolder('folder_w', alice.userId));
  const response = await w.send('POST', widgetRoutePath(WIDGET_ROUTES.publish, 'folder_w'), { bearer: alice.bearer });
  expect(response.status).toBe(201);
  const body = (await response.json()) as PublishResponse;
  const bridge = (op: string, args: unknown, user?: string) =>
    w.send('POST', widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetBridge, body.postId), {
      headers: { [HEADERS.contentType]: MEDIA_TYPES.json },
      body: JSON.stringify({ op, args, session: user === undefined ? {} : { user } }),
    });
  return { bridge, usage: w.widgets.usage as MemoryToolUsage };
}

describe("tool calls through the reference host page's bridge", () => {
  it('write a billable call as a charge and a free call as an attribution row (via host), the caller the session user', async () => {
    const { bridge, usage } = await published();
    const paid = await bridge('callTool', { name: 'forecast', args: { city: 'Oslo' } }, 'alice');
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ result: { value: { city: 'Oslo', forecast: 'sunny in Oslo' } } });
    expect(usage.charges).toEqual([expect.objectContaining({ tool: 'forecast', payerId: 'alice', currency: 'usd', amountNanocents: 2500 })]);
    const free = await bridge('callTool', { name: 'refresh', args: {} });
    expect(free.status).toBe(200);
    expect(usage.attributions).toEqual([expect.objectContaining({ agentId: usage.charges[0]!.agentId, tool: 'refresh', callerId: null, via: 'host' })]);
  });

  it('write nothing for a call that fails (an unknown tool) or that is no tool call (host.kv)', async () => {
    const { bridge, usage } = await published();
    expect(await (await bridge('callTool', { name: 'no-such-tool', args: {} }, 'alice')).json()).toMatchObject({ error: { code: 'not_found' } });
    expect(await (await bridge('host.kv', { action: 'set', key: 'k', value: 1 }, 'alice')).json()).toMatchObject({ result: {} });
    expect([...usage.charges, ...usage.attributions]).toEqual([]);
  });
});
