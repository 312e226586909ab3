import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultTreeAdapter, parse, type DefaultTreeAdapterTypes } from 'parse5';
import { SUITE_WIDGET_MARKER, suiteWidgetFiles } from '../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession } from '../src/harness/widget-session.js';
import { checkTimeout } from './lib/context.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { REFERENCE_ONLY_ROUTES } from '../src/spec/publish.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { MCP_APP_MIME_TYPE, WIDGET_MANIFEST, WIDGET_SDK } from '../src/spec/widgets.js';
import { READINGS } from '../src/spec/readings.js';
import { BRIDGE_ERRORS } from '../src/spec/bridge-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 4.4 over HTTP: the catalog and a published widget's MCP endpoint, read with the MCP SDK's client
 * (Streamable HTTP) through the target. The suite publishes its own widget first, from a folder made with the
 * reference's upload (REFERENCE_ONLY_ROUTES, not part of the spec); a deployment without it is not-run.
 */
const target = suiteTarget();
const session = new WidgetSession(target, 'widgets-4-4');
const TIMEOUT_MS = checkTimeout(60_000);
const WIDGET_NAME = 'Conformance MCP Widget';
let postId: string | undefined;
let unavailable: string | undefined;
let client: Client | undefined;

beforeAll(async () => {
  await session.open();
  const upload = await session.uploadFolder('alice', suiteWidgetFiles(WIDGET_NAME));
  const folderId = (jsonBody(upload.response) as { folderId?: unknown } | undefined)?.folderId;
  if (upload.response.status !== 201 || typeof folderId !== 'string') {
    unavailable = `needs a published widget: the deployment answered ${upload.response.status} to the reference-only upload ${REFERENCE_ONLY_ROUTES.folders}, and the spec gives no folder API the suite could use`;
    return;
  }
  const published = await session.publish('alice', folderId);
  const id = (jsonBody(published.response) as { postId?: unknown } | undefined)?.postId;
  if (published.response.status >= 300 || typeof id !== 'string') {
    unavailable = `needs a published widget: publishing the suite's folder answered ${published.response.status} without a post id`;
    return;
  }
  postId = id;
}, TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await target.close();
});

function ready(c: CheckContext): string {
  if (!postId) c.notRun(unavailable ?? 'needs a published widget');
  return postId;
}

/** Runs MCP calls with the session's exchanges recorded, so a failure shows the wire. */
async function withMcp<T>(c: CheckContext, fn: (client: Client) => Promise<T>): Promise<T> {
  const post = ready(c);
  const before = session.recorded().length;
  try {
    client ??= await session.mcpClient(post);
    return await fn(client);
  } finally {
    for (const e of session.recorded().slice(before)) c.record(e);
  }
}

function scriptSources(html: string): string[] {
  const sources: string[] = [];
  const walk = (node: DefaultTreeAdapterTypes.ParentNode) => {
    for (const child of defaultTreeAdapter.getChildNodes(node)) {
      if (!defaultTreeAdapter.isElementNode(child)) continue;
      const src = child.attrs.find((a) => a.name === 'src')?.value;
      if (child.tagName === 'script' && src !== undefined) sources.push(src);
      walk(child);
    }
  };
  walk(parse(html));
  return sources;
}

type UiTool = { name: string; _meta?: { ui?: { visibility?: unknown; resourceUri?: unknown } } };

describe(`4.4 widget endpoints (${target.description})`, () => {
  check({
    id: 'widgets.catalog-listing',
    title: 'the catalog lists the published widget',
    requirements: [REQUIREMENTS.widgetCatalogListing.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      const post = ready(c);
      const sent = await session.catalog();
      c.record(sent.exchange);
      expect(sent.response.status, 'status').toBe(200);
      const widgets = (jsonBody(sent.response) as { widgets?: Array<Record<string, unknown>> } | undefined)?.widgets;
      expect(Array.isArray(widgets), 'the catalog document has a "widgets" list').toBe(true);
      const entries = widgets!.filter((w) => w.postId === post || w.mcp === session.mcpUrl(post));
      expect(entries, 'entries for the published post').toHaveLength(1);
      expect(entries[0]!.name, 'the entry names the widget').toBe(WIDGET_NAME);
    },
  });

  check({
    id: 'widgets.mcp-app-resource',
    title: 'the MCP endpoint exposes the widget as a ui:// resource of the MCP Apps type, its HTML entry',
    requirements: [REQUIREMENTS.widgetMcpAppResource.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      withMcp(c, async (mcp) => {
        const { resources } = await mcp.listResources();
        const ui = resources.filter((r) => r.uri.startsWith('ui://'));
        expect(ui, 'ui:// resources listed').toHaveLength(1);
        expect(ui[0]!.mimeType, 'resource mimeType').toBe(MCP_APP_MIME_TYPE);
        const { contents } = await mcp.readResource({ uri: ui[0]!.uri });
        const html = contents.find((item): item is typeof item & { text: string } => typeof (item as { text?: unknown }).text === 'string');
        expect(html, 'a text content item').toBeDefined();
        expect(html!.mimeType, 'content mimeType').toBe(MCP_APP_MIME_TYPE);
        expect(html!.text, 'the HTML entry of the published folder').toContain(SUITE_WIDGET_MARKER);
      }),
  });

  check({
    id: 'widgets.sdk-injected',
    title: 'the served HTML entry loads the widget SDK /widgets/sdk.v2.js',
    requirements: [REQUIREMENTS.widgetSdkInjected.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      withMcp(c, async (mcp) => {
        const { resources } = await mcp.listResources();
        const uri = resources.find((r) => r.uri.startsWith('ui://'))?.uri;
        if (!uri) return void expect.fail('no ui:// resource is listed');
        const { contents } = await mcp.readResource({ uri });
        const text = (contents[0] as { text?: unknown } | undefined)?.text;
        expect(typeof text, 'text content').toBe('string');
        const paths = scriptSources(text as string).map((src) => new URL(src, session.url('/')).pathname);
        expect(paths, 'script sources of the entry').toContain(WIDGET_SDK.path);
      }),
  });

  check({
    id: 'widgets.function-source-too-large',
    title: 'a tool source over 64 KB is not published: calling the tool answers FN_NOT_FOUND',
    requirements: [LIMITS.functionSourceSize.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      ready(c);
      const files = suiteWidgetFiles('Conformance Oversized Widget');
      const oversized = `module.exports = () => ({ ok: true });\n//${'x'.repeat(LIMITS.functionSourceSize.value)}\n`;
      const upload = await session.uploadFolder('alice', { ...files, [WIDGET_MANIFEST.defaultToolFile('refresh')]: oversized });
      const folderId = (jsonBody(upload.response) as { folderId?: unknown } | undefined)?.folderId;
      if (typeof folderId !== 'string') return void expect.fail(`the upload answered ${upload.response.status} without a folder id`);
      const published = await session.publish('alice', folderId);
      c.record(published.exchange);
      const post = (jsonBody(published.response) as { postId?: unknown } | undefined)?.postId;
      if (typeof post !== 'string') return void expect.fail(`the publish answered ${published.response.status} without a post id`);
      const before = session.recorded().length;
      const mcp = await session.mcpClient(post);
      try {
        const small = await mcp.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        expect(small.isError ?? false, 'a tool whose source is within the limit runs').toBe(false);
        const large = await mcp.callTool({ name: 'refresh', arguments: {} });
        expect(large.isError, 'the oversized tool answers an error').toBe(true);
        expect((large.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code, 'error code (7.1)').toBe(BRIDGE_ERRORS.FN_NOT_FOUND.code);
      } finally {
        await mcp.close();
        for (const e of session.recorded().slice(before)) c.record(e);
      }
    },
  });

  check({
    id: 'widgets.sdk-served',
    title: 'the widget SDK is served at /widgets/sdk.v2.js as JavaScript',
    requirements: [REQUIREMENTS.widgetSdkServed.id],
    level: 'MUST',
    run: async (c) => {
      const request = { method: 'GET', url: session.url(WIDGET_SDK.path), headers: [] as Array<[string, string]>, body: null };
      const response = await target.send(request);
      c.record({ request: recordRequest(request), response: recordResponse(response) });
      expect(response.status, 'status').toBe(200);
      expect((response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase(), 'Content-Type').toBe(MEDIA_TYPES.javascript);
      expect(response.body.byteLength, 'a script body').toBeGreaterThan(0);
    },
  });

  check({
    id: 'widgets.tool-visibility',
    title: 'the tools are listed with their visibility written out and linked to the resource',
    requirements: [REQUIREMENTS.widgetMcpToolVisibility.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      withMcp(c, async (mcp) => {
        const { resources } = await mcp.listResources();
        const uri = resources.find((r) => r.uri.startsWith('ui://'))?.uri;
        const tools = (await mcp.listTools()).tools as UiTool[];
        const byName = new Map(tools.map((t) => [t.name, t]));
        expect([...byName.keys()].sort(), 'tool names').toEqual(['forecast', 'refresh']);
        const visibility = (name: string) => [...((byName.get(name)?._meta?.ui?.visibility as string[] | undefined) ?? [])].sort();
        expect(visibility('forecast'), 'forecast: declared [app, model]').toEqual(['app', 'model']);
        expect(visibility('refresh'), 'refresh: no visibility declared, so the 2.5 default [app], written out').toEqual(['app']);
        for (const tool of tools) expect(tool._meta?.ui?.resourceUri, `${tool.name} links the ui:// resource`).toBe(uri);
      }),
  });

  check({
    id: 'widgets.model-tool-call',
    title: 'a model tool can be called through the MCP endpoint',
    requirements: [REQUIREMENTS.widgetMcpToolCall.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      withMcp(c, async (mcp) => {
        const result = await mcp.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        expect(result.isError ?? false, `isError (${JSON.stringify(result.content)})`).toBe(false);
        expect(JSON.stringify(result.content), "the tool's answer").toContain('sunny in Oslo');
      }),
  });

  check({
    id: 'widgets.app-tool-call',
    title: "an app tool can be called through the MCP endpoint (the view's calls reach it via the host)",
    requirements: [REQUIREMENTS.widgetMcpToolCall.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      withMcp(c, async (mcp) => {
        const result = await mcp.callTool({ name: 'refresh', arguments: {} });
        expect(result.isError ?? false, `isError (${JSON.stringify(result.content)})`).toBe(false);
        expect(JSON.stringify(result.content), "the tool's answer").toContain('refreshed');
      }),
  });

  check({
    id: 'widgets.mcp-app-schema-version',
    title: "a published widget's MCP App carries the manifest schema version: _meta.platform.v is 1",
    requirements: [REQUIREMENTS.widgetMcpAppSchemaVersion.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      ready(c);
      // A session of its own: the widget is published by the deployment as it stands now (so a fault switched on for the
      // self-test is in it), on a target of its own, which the rest of the file's published widget does not share.
      const own = suiteTarget();
      const versioned = new WidgetSession(own, 'widgets-4-4-version');
      let mcp: Client | undefined;
      try {
        await versioned.open();
        const upload = await versioned.uploadFolder('alice', suiteWidgetFiles('Conformance Versioned Widget'));
        const folderId = (jsonBody(upload.response) as { folderId?: unknown } | undefined)?.folderId;
        if (typeof folderId !== 'string') return void expect.fail(`the upload answered ${upload.response.status} without a folder id`);
        const published = await versioned.publish('alice', folderId);
        const post = (jsonBody(published.response) as { postId?: unknown } | undefined)?.postId;
        if (typeof post !== 'string') return void expect.fail(`the publish answered ${published.response.status} without a post id`);
        mcp = await versioned.mcpClient(post);
        const { resources } = await mcp.listResources();
        const ui = resources.find((r) => r.uri.startsWith('ui://'));
        if (!ui) return void expect.fail('no ui:// resource is listed');
        const { contents } = await mcp.readResource({ uri: ui.uri });
        const versionOf = (meta: unknown) => (meta as { platform?: { v?: unknown } } | undefined)?.platform?.v;
        const found = [versionOf(ui._meta), ...contents.map((item) => versionOf(item._meta))].filter((v) => v !== undefined);
        // READING-MCP-APP-PLATFORM-META: on the resource as listed or as read, either; where it is given, it is 1.
        expect(found.length, `_meta.platform.v on the ui:// resource, listed or read (${READINGS.mcpAppPlatformMeta.id})`).toBeGreaterThan(0);
        for (const v of found) expect(v, '_meta.platform.v').toBe(WIDGET_MANIFEST.schemaVersion);
      } finally {
        await mcp?.close();
        for (const e of versioned.recorded()) c.record(e);
        await own.close();
      }
    },
  });
});
