import { describe, expect, it } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { PLATFORM_ERROR_CODES } from '../../src/reference/routes.js';
import { WIDGET_ROUTES, widgetRoutePath } from '../../src/spec/publish.js';
import type { PublishResponse } from '../../src/reference/widgets/index.js';
import type { MemoryToolUsage } from '../../src/widgets/publish/index.js';
import { weatherFiles, weatherFolder } from '../widgets/publish-fixtures.js';
import { widgetPlatform } from './helpers.js';

const ALICE = 'https://agents.example/a/alice';
const JSON_TYPE = { [HEADERS.contentType]: MEDIA_TYPES.json };

/** The weather widget published by alice: forecast is exposed over http (and billable), refresh is not. */
async function published() {
  const w = widgetPlatform();
  const alice = await w.user(ALICE);
  w.widgets.folders.put(weatherFolder('folder_w', alice.userId));
  const response = await w.send('POST', widgetRoutePath(WIDGET_ROUTES.publish, 'folder_w'), { bearer: alice.bearer });
  expect(response.status).toBe(201);
  const body = (await response.json()) as PublishResponse;
  return { w, alice, slug: body.agentSlug, usage: w.widgets.usage as MemoryToolUsage };
}

describe("a widget agent's custom HTTP endpoints at /agents/<slug>/<path>", () => {
  it("runs the exposed tool with the JSON body as its arguments and answers its value, writing the billable call's charge", async () => {
    const { w, slug, usage } = await published();
    const response = await w.send('POST', `/agents/${slug}/tools/forecast`, { headers: JSON_TYPE, body: JSON.stringify({ city: 'Oslo' }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ city: 'Oslo', forecast: 'sunny in Oslo' });
    expect(usage.charges).toEqual([expect.objectContaining({ tool: 'forecast', currency: 'usd', amountNanocents: 2500, payerId: null })]);
    expect(usage.attributions).toEqual([]);
  });

  it('names the caller a signed or bearer request maps to as the payer', async () => {
    const { w, alice, slug, usage } = await published();
    const response = await w.send('POST', `/agents/${slug}/tools/forecast`, { bearer: alice.bearer, headers: JSON_TYPE, body: '{"city":"Rome"}' });
    expect(response.status).toBe(200);
    expect(usage.charges.map((c) => c.payerId)).toEqual([alice.userId]);
  });

  it('refuses a bearer that does not verify with the 401 of 7.3', async () => {
    const { w, slug } = await published();
    const response = await w.send('POST', `/agents/${slug}/tools/forecast`, { bearer: 'not-a-token', headers: JSON_TYPE, body: '{}' });
    expect(response.status).toBe(401);
  });

  it('answers 405 with Allow for another method, 415 for a body that is not JSON, 400 for JSON that is not an object', async () => {
    const { w, slug } = await published();
    const get = await w.send('GET', `/agents/${slug}/tools/forecast`);
    expect(get.status).toBe(405);
    expect(get.headers.get(HEADERS.allow)).toBe('POST');
    const text = await w.send('POST', `/agents/${slug}/tools/forecast`, { headers: { [HEADERS.contentType]: 'text/plain' }, body: 'Oslo' });
    expect(text.status).toBe(415);
    const list = await w.send('POST', `/agents/${slug}/tools/forecast`, { headers: JSON_TYPE, body: '["Oslo"]' });
    expect(list.status).toBe(400);
    expect(((await list.json()) as { error: { code: string } }).error.code).toBe(BRIDGE_ERRORS.invalid_args.code);
  });

  it('answers 404 for a tool not exposed over http, a path not declared and an agent that does not exist', async () => {
    const { w, slug } = await published();
    for (const path of [`/agents/${slug}/tools/refresh`, `/agents/${slug}/nothing`, '/agents/widget-nobody-nothing/tools/forecast']) {
      const response = await w.send('POST', path, { headers: JSON_TYPE, body: '{}' });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe(PLATFORM_ERROR_CODES.notFound);
    }
  });

  it('answers a tool that throws with 500 and the 7.1 code internal, writing nothing', async () => {
    const w = widgetPlatform();
    const alice = await w.user(ALICE);
    w.widgets.folders.put(
      weatherFolder('folder_t', alice.userId, { files: weatherFiles({ 'tools/forecast.js': 'module.exports = () => { throw new Error("no"); };' }) }),
    );
    const body = (await (await w.send('POST', widgetRoutePath(WIDGET_ROUTES.publish, 'folder_t'), { bearer: alice.bearer })).json()) as PublishResponse;
    const response = await w.send('POST', `/agents/${body.agentSlug}/tools/forecast`, { headers: JSON_TYPE, body: '{"city":"Oslo"}' });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(BRIDGE_ERRORS.internal.code);
    expect((w.widgets.usage as MemoryToolUsage).charges).toEqual([]);
  });
});
