import { describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/spec/auth-errors.js';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { LIMITS } from '../../src/spec/limits.js';
import { CATALOG_RECORD_TYPES, PUBLISH_ERROR_CODES, PUBLISH_STEPS, REFERENCE_ONLY_ROUTES, WIDGET_ROUTES, widgetRoutePath } from '../../src/spec/publish.js';
import { MCP_APP_MIME_TYPE, WIDGET_SDK } from '../../src/spec/widgets.js';
import { WELL_KNOWN } from '../../src/spec/wire.js';
import { PLATFORM_ERROR_CODES } from '../../src/reference/routes.js';
import type { CatalogDocument, PublishResponse } from '../../src/reference/widgets/index.js';
import { weatherFiles, weatherFolder, weatherManifest } from '../widgets/publish-fixtures.js';
import { mcpAppsDefinition, mcpClient, ORIGIN, widgetPlatform } from './helpers.js';

const ALICE = 'https://agents.example/a/alice';
const BOB = 'https://agents.example/a/bob';
const publishPath = (folderId: string) => widgetRoutePath(WIDGET_ROUTES.publish, folderId);

async function published(options: { files?: Map<string, Uint8Array> } = {}) {
  const w = widgetPlatform();
  const alice = await w.user(ALICE);
  w.widgets.folders.put(weatherFolder('folder_w', alice.userId, options));
  const response = await w.send('POST', publishPath('folder_w'), { bearer: alice.bearer });
  expect(response.status).toBe(201);
  return { w, alice, body: (await response.json()) as PublishResponse };
}

describe('POST /api/folders/{folderId}/publish-as-widget', () => {
  it('publishes with 201, naming the post, its MCP endpoint and the six steps', async () => {
    const { body } = await published();
    expect(body.created).toBe(true);
    expect(body.mcp).toBe(`${ORIGIN}${widgetRoutePath(WIDGET_ROUTES.mcp, body.postId)}`);
    expect(body.steps.map((s) => s.step)).toEqual([...PUBLISH_STEPS]);
    expect(body.problems).toEqual([]);
  });

  it('re-publishing answers 200 with the same post and catalog record, and the catalog lists the folder once', async () => {
    const { w, alice, body } = await published();
    const again = await w.send('POST', publishPath('folder_w'), { bearer: alice.bearer });
    expect(again.status).toBe(200);
    const second = (await again.json()) as PublishResponse;
    expect([second.created, second.postId, second.catalogId, second.agentSlug]).toEqual([false, body.postId, body.catalogId, body.agentSlug]);
    const catalog = (await (await w.send('GET', WELL_KNOWN.mcpWidgets)).json()) as CatalogDocument;
    expect(catalog.widgets.map((e) => e.postId)).toEqual([body.postId]);
  });

  it('refuses an unauthenticated caller as the verifier does (401)', async () => {
    const w = widgetPlatform();
    const response = await w.send('POST', publishPath('folder_w'));
    expect(response.status).toBe(AUTH_ERRORS.missing_credential.status);
    expect(((await response.json()) as { error_code: string }).error_code).toBe(AUTH_ERRORS.missing_credential.code);
  });

  it('refuses a caller who does not own the folder (403 not_folder_owner)', async () => {
    const { w } = await published();
    const bob = await w.user(BOB);
    const response = await w.send('POST', publishPath('folder_w'), { bearer: bob.bearer });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(PUBLISH_ERROR_CODES.notFolderOwner);
  });

  it('answers 404 folder_not_found for a folder that does not exist', async () => {
    const w = widgetPlatform();
    const alice = await w.user(ALICE);
    const response = await w.send('POST', publishPath('folder_none'), { bearer: alice.bearer });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(PUBLISH_ERROR_CODES.folderNotFound);
  });

  it('answers 405 with Allow for another method', async () => {
    const w = widgetPlatform();
    const alice = await w.user(ALICE);
    const response = await w.send('GET', publishPath('folder_w'), { bearer: alice.bearer });
    expect(response.status).toBe(405);
    expect(response.headers.get(HEADERS.allow)).toBe('POST');
  });
});

describe('GET /.well-known/mcp/widgets.json', () => {
  it('is empty before anything is published', async () => {
    const w = widgetPlatform();
    const response = await w.send('GET', WELL_KNOWN.mcpWidgets);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ widgets: [] });
  });

  it('lists a published widget with its MCP endpoint and ui:// resource', async () => {
    const { w, body, alice } = await published();
    const catalog = (await (await w.send('GET', WELL_KNOWN.mcpWidgets)).json()) as CatalogDocument;
    expect(catalog.widgets).toEqual([
      {
        id: body.catalogId,
        type: CATALOG_RECORD_TYPES.widget,
        name: 'Weather Card',
        version: '1.0.0',
        description: 'Shows the weather for a city',
        authorId: alice.userId,
        agentSlug: body.agentSlug,
        postId: body.postId,
        mcp: body.mcp,
        resourceUri: `ui://widgets/${body.postId}/index.html`,
        iconRef: 'icon.svg',
        remixOf: null,
        updatedAt: 1_800_000_000,
      },
    ]);
  });
});

describe('/api/widgets/{postId}/mcp (MCP SDK client)', () => {
  it("lists the ui:// resource with the MCP Apps mimeType and metadata MCP Apps' schema accepts", async () => {
    const { w, body } = await published();
    const client = await mcpClient(w.platform, body.mcp);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(1);
    expect(resources[0]).toMatchObject({ uri: `ui://widgets/${body.postId}/index.html`, mimeType: MCP_APP_MIME_TYPE, name: 'Weather Card' });
    const ui = (resources[0]!._meta as { ui: unknown }).ui;
    const valid = mcpAppsDefinition('McpUiResourceMeta');
    expect(valid(ui), JSON.stringify(valid.errors)).toBe(true);
    expect(ui).toEqual({
      csp: { connectDomains: ['https://api.weather.example', 'wss://api.weather.example'], resourceDomains: [ORIGIN] },
      permissions: { clipboardWrite: {} },
    });
    await client.close();
  });

  it('reads the resource: the HTML entry with the widget SDK injected first in <head>', async () => {
    const { w, body } = await published();
    const client = await mcpClient(w.platform, body.mcp);
    const uri = `ui://widgets/${body.postId}/index.html`;
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [content] = contents as Array<{ uri: string; mimeType: string; text: string }>;
    expect([content!.uri, content!.mimeType]).toEqual([uri, MCP_APP_MIME_TYPE]);
    expect(content!.text).toContain(`<head><script src="${ORIGIN}${WIDGET_SDK.path}"></script><title>Weather</title>`);
    await expect(client.readResource({ uri: `ui://widgets/${body.postId}/other.html` })).rejects.toThrow(/not found/i);
    await client.close();
  });

  it('lists every tool with its visibility written out (app-only tools included, for the host to keep from the model)', async () => {
    const { w, body } = await published();
    const client = await mcpClient(w.platform, body.mcp);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, (t._meta as { ui: { visibility: string[] } }).ui.visibility])).toEqual([
      ['forecast', ['app', 'model']],
      ['refresh', ['app']],
    ]);
    const valid = mcpAppsDefinition('McpUiToolMeta');
    for (const tool of tools) expect(valid((tool._meta as { ui: unknown }).ui), JSON.stringify(valid.errors)).toBe(true);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    await client.close();
  });

  it('calls a tool: its published source runs with the arguments', async () => {
    const { w, body } = await published();
    const client = await mcpClient(w.platform, body.mcp);
    expect(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ city: 'Oslo', forecast: 'sunny in Oslo' }) }],
      structuredContent: { city: 'Oslo', forecast: 'sunny in Oslo' },
    });
    expect((await client.callTool({ name: 'refresh', arguments: {} })).structuredContent).toEqual({ refreshed: true });
    await client.close();
  });

  it('answers arguments that miss the inputSchema with an invalid_args tool error', async () => {
    const { w, body } = await published();
    const client = await mcpClient(w.platform, body.mcp);
    const result = await client.callTool({ name: 'forecast', arguments: { town: 'Oslo' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe(BRIDGE_ERRORS.invalid_args.code);
    await client.close();
  });

  it('answers a tool whose source was refused at publish (CODE_TOO_LARGE) with FN_NOT_FOUND', async () => {
    const big = `module.exports = () => 1;//${'x'.repeat(LIMITS.functionSourceSize.value)}`;
    const { w, body } = await published({ files: weatherFiles({ 'tools/forecast.js': big }) });
    expect(body.problems.map((p) => [p.tool, p.code])).toEqual([['forecast', BRIDGE_ERRORS.CODE_TOO_LARGE.code]]);
    const client = await mcpClient(w.platform, body.mcp);
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe(BRIDGE_ERRORS.FN_NOT_FOUND.code);
    await client.close();
  });

  it('leaves `user` out of MCP Apps visibility (it has none) and keeps the 2.5 list under _meta.platform', async () => {
    const manifest = weatherManifest();
    (manifest.tools as Array<Record<string, unknown>>)[1] = {
      name: 'refresh',
      description: 'Reloads the card',
      _meta: { ui: { visibility: ['user', 'app'] } },
    };
    const { w, body } = await published({ files: weatherFiles({}, manifest) });
    const client = await mcpClient(w.platform, body.mcp);
    const refresh = (await client.listTools()).tools.find((t) => t.name === 'refresh')!;
    expect(refresh._meta).toEqual({
      ui: { resourceUri: `ui://widgets/${body.postId}/index.html`, visibility: ['app'] },
      platform: { visibility: ['user', 'app'] },
    });
    expect(refresh.inputSchema).toEqual({ type: 'object' });
    await client.close();
  });

  it('refuses a signed request that does not verify, like every platform route', async () => {
    const { w, body } = await published();
    const response = await w.send('POST', new URL(body.mcp).pathname, {
      body: '{}',
      headers: { [HEADERS.signatureInput]: 'sig1=("@method");created=1', [HEADERS.signature]: 'sig1=:AAAA:' },
    });
    expect(response.status).toBe(401);
    const catalog = await w.send('GET', WELL_KNOWN.mcpWidgets, {
      headers: { [HEADERS.signatureInput]: 'sig1=("@method");created=1', [HEADERS.signature]: 'sig1=:AAAA:' },
    });
    expect(catalog.status).toBe(401);
  });

  it('answers GET with 405 and Allow POST (no server stream in stateless mode), and an unknown post with 404', async () => {
    const { w, body } = await published();
    const get = await w.send('GET', new URL(body.mcp).pathname);
    expect(get.status).toBe(405);
    expect(get.headers.get(HEADERS.allow)).toBe('POST');
    const missing = await w.send('POST', widgetRoutePath(WIDGET_ROUTES.mcp, 'post_none'), {
      body: '{}',
      headers: { [HEADERS.contentType]: 'application/json' },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(PLATFORM_ERROR_CODES.notFound);
  });
});

describe('reference-only folder upload', () => {
  it('creates a folder the caller owns, which the caller can then publish', async () => {
    const w = widgetPlatform();
    const alice = await w.user(ALICE);
    const files = Object.fromEntries([...weatherFiles()].map(([path, bytes]) => [path, new TextDecoder().decode(bytes)]));
    const upload = await w.send('POST', REFERENCE_ONLY_ROUTES.folders, {
      bearer: alice.bearer,
      body: JSON.stringify({ files }),
      headers: { [HEADERS.contentType]: 'application/json' },
    });
    expect(upload.status).toBe(201);
    const { folderId } = (await upload.json()) as { folderId: string };
    expect((await w.widgets.folders.getFolder(folderId))?.ownerId).toBe(alice.userId);
    expect((await w.send('POST', publishPath(folderId), { bearer: alice.bearer })).status).toBe(201);
  });

  it('refuses a body that is not { files }, naming what is wrong (400)', async () => {
    const w = widgetPlatform();
    const alice = await w.user(ALICE);
    const response = await w.send('POST', REFERENCE_ONLY_ROUTES.folders, { bearer: alice.bearer, body: JSON.stringify({ files: { '../escape.js': 'x' } }) });
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe(PLATFORM_ERROR_CODES.badRequest);
    expect(error.message).toContain('/files');
  });
});
