import { describe, expect, it } from 'vitest';
import { REFERENCE_ONLY_ROUTES, WIDGET_ROUTES, widgetRoutePath } from '../../src/spec/publish.js';
import type { PublishResponse } from '../../src/reference/widgets/index.js';
import { weatherFiles, weatherFolder, weatherManifest } from '../widgets/publish-fixtures.js';
import { widgetPlatform } from './helpers.js';

const ALICE = 'https://agents.example/a/alice';
const APP_JS = `window.started = true;\n`;
const STYLE_CSS = `#app { color: red; }\n`;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

/** The weather widget with static assets beside its entry, `refresh`'s source moved out of tools/, and a helper under tools/. */
function assetFiles(extra: Record<string, string | Uint8Array> = {}) {
  const manifest = weatherManifest();
  const tools = manifest.tools as Array<Record<string, unknown>>;
  tools[1] = { ...tools[1], _meta: { platform: { file: 'server/refresh.js' } } };
  return weatherFiles(
    {
      'app.js': APP_JS,
      'css/style.css': STYLE_CSS,
      'img/logo.png': PNG,
      'data/blob.bin3': 'bytes',
      'tools/helper.js': 'module.exports = () => 1;',
      'server/refresh.js': 'module.exports = () => ({ refreshed: true });',
      ...extra,
    },
    manifest,
  );
}

async function published() {
  const w = widgetPlatform();
  const alice = await w.user(ALICE);
  w.widgets.folders.put(weatherFolder('folder_w', alice.userId, { files: assetFiles() }));
  const response = await w.send('POST', widgetRoutePath(WIDGET_ROUTES.publish, 'folder_w'), { bearer: alice.bearer });
  expect(response.status).toBe(201);
  const { postId } = (await response.json()) as PublishResponse;
  const base = widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetRender, postId).replace('{path}', '');
  const get = (tail: string) => w.send('GET', `${base}${tail}`);
  return { w, alice, postId, base, get };
}

async function expectNotFound(response: Response) {
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
}

describe("the reference host's render route: the published folder beside its entry", () => {
  it("loads the widget at its entry's path, so the entry's relative URLs resolve to the folder's files", async () => {
    const { w, postId, base } = await published();
    const page = await (await w.send('GET', widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetHost, postId))).text();
    const config = JSON.parse(/<script type="application\/json" id="host-config">(.*?)<\/script>/.exec(page)![1]!) as { widgetUrl: string };
    expect(config.widgetUrl).toBe(`${base}index.html`);
    expect(new URL('app.js', `https://platform.example${config.widgetUrl}`).pathname).toBe(`${base}app.js`);
  });

  it('serves each file typed by its extension, under the CSP of the entry, with nosniff', async () => {
    const { get } = await published();
    const entry = await get('index.html');
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = entry.headers.get('content-security-policy');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('connect-src https://api.weather.example wss://api.weather.example');
    expect(await entry.text()).toContain('/widgets/sdk.v2.js');

    const expected: Array<[string, string, string | Uint8Array]> = [
      ['app.js', 'text/javascript; charset=utf-8', APP_JS],
      ['css/style.css', 'text/css; charset=utf-8', STYLE_CSS],
      ['icon.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
      ['img/logo.png', 'image/png', PNG],
      ['data/blob.bin3', 'application/octet-stream', 'bytes'],
      ['widget.json', 'application/json', JSON.stringify(JSON.parse(new TextDecoder().decode(assetFiles().get('widget.json'))))],
    ];
    for (const [path, type, body] of expected) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('content-security-policy'), path).toBe(csp);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      if (typeof body === 'string') expect(await response.text(), path).toBe(body);
      else expect(new Uint8Array(await response.arrayBuffer()), path).toEqual(body);
    }
  });

  it('never serves a tool source: a declared one under tools/ or elsewhere, nor anything under tools/', async () => {
    const { get } = await published();
    for (const path of ['tools/forecast.js', 'server/refresh.js', 'tools/helper.js', 'tools/refresh.js']) await expectNotFound(await get(path));
  });

  it('answers 404 for a path not in the folder, and for a post with no widget', async () => {
    const { w, get } = await published();
    await expectNotFound(await get('missing.js'));
    await expectNotFound(await get('css'));
    await expectNotFound(await get(''));
    await expectNotFound(await w.send('GET', widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetRender, 'post_none').replace('{path}', 'app.js')));
  });

  it('refuses a path that climbs, is absolute or hides a separator in a segment', async () => {
    const { get } = await published();
    // Each of these names a served file once decoded as one string, or once its "..", "\" or "//" is resolved.
    for (const tail of [
      'css/..%2Fapp.js',
      'css%2Fstyle.css',
      '%2Fapp.js',
      '/app.js',
      'css//style.css',
      'img/%2E%2E%5Capp.js',
      'css/%5C..%5Capp.js',
      'app.js%00',
      '%E0%A4%A',
    ]) {
      await expectNotFound(await get(tail));
    }
    expect((await get('css/style.css')).status).toBe(200);
  });

  it('serves the folder as published, not as it is now', async () => {
    const { w, alice, get } = await published();
    w.widgets.folders.put(weatherFolder('folder_w', alice.userId, { files: assetFiles({ 'app.js': 'window.changed = true;' }) }));
    expect(await (await get('app.js')).text()).toBe(APP_JS);
    await w.send('POST', widgetRoutePath(WIDGET_ROUTES.publish, 'folder_w'), { bearer: alice.bearer });
    expect(await (await get('app.js')).text()).toBe('window.changed = true;');
  });
});
