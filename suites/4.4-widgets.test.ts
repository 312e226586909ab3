import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultTreeAdapter, parse, type DefaultTreeAdapterTypes } from 'parse5';
import { SUITE_WIDGET_MARKER, suiteWidgetFiles } from '../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession } from '../src/harness/widget-session.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { MCP_APP_MIME_TYPE, WIDGET_MANIFEST, WIDGET_PROBLEMS, WIDGET_SDK } from '../src/spec/widgets.js';
import { READINGS } from '../src/spec/readings.js';
import { BRIDGE_ERRORS } from '../src/spec/bridge-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import type { CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';
import { noFolderReason, stringMember, toolErrorCode, uiResources, WIDGET_CHECK_TIMEOUT_MS, widgetCheck, withOwnSession } from './lib/widgets.js';

/**
 * Section 4.4 over HTTP: the catalog and a published widget's MCP endpoint, read with the MCP SDK's client
 * (Streamable HTTP) through the target. The suite publishes its own widget first, from a folder made with the
 * reference's upload (REFERENCE_ONLY_ROUTES, not part of the spec); a deployment without it is not-run.
 */
const target = suiteTarget();
const session = new WidgetSession(target, 'widgets-4-4');
const WIDGET_NAME = 'Conformance MCP Widget';
let postId: string | undefined;
let unavailable: string | undefined;
let client: Client | undefined;

beforeAll(async () => {
  await session.open();
  const upload = await session.uploadFolder('alice', suiteWidgetFiles(WIDGET_NAME));
  const folderId = stringMember(upload, 'folderId');
  if (upload.response.status !== 201 || folderId === undefined) {
    unavailable = noFolderReason(upload);
    return;
  }
  const published = await session.publish('alice', folderId);
  const id = stringMember(published, 'postId');
  if (published.response.status >= 300 || id === undefined) {
    unavailable = `needs a published widget: publishing the suite's folder answered ${published.response.status} without a post id`;
    return;
  }
  postId = id;
}, WIDGET_CHECK_TIMEOUT_MS);
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

/** A check that calling `tool` through the MCP endpoint answers a result holding `expected`. */
function toolCallCheck(id: string, title: string, tool: string, args: Record<string, unknown>, expected: string): void {
  widgetCheck({
    id,
    title,
    requirements: [REQUIREMENTS.widgetMcpToolCall.id],
    run: (c) =>
      withMcp(c, async (mcp) => {
        const result = await mcp.callTool({ name: tool, arguments: args });
        expect(result.isError ?? false, `isError (${JSON.stringify(result.content)})`).toBe(false);
        expect(JSON.stringify(result.content), "the tool's answer").toContain(expected);
      }),
  });
}

type UiTool = { name: string; _meta?: { ui?: { visibility?: unknown; resourceUri?: unknown } } };

describe(`4.4 widget endpoints (${target.description})`, () => {
  widgetCheck({
    id: 'widgets.catalog-listing',
    title: 'the catalog lists the published widget',
    requirements: [REQUIREMENTS.widgetCatalogListing.id],
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

  widgetCheck({
    id: 'widgets.mcp-app-resource',
    title: 'the MCP endpoint exposes the widget as a ui:// resource of the MCP Apps type, its HTML entry',
    requirements: [REQUIREMENTS.widgetMcpAppResource.id],
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

  widgetCheck({
    id: 'widgets.sdk-injected',
    title: 'the served HTML entry loads the widget SDK /widgets/sdk.v2.js',
    requirements: [REQUIREMENTS.widgetSdkInjected.id],
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

  widgetCheck({
    id: 'widgets.function-source-too-large',
    title: 'a tool source over 64 KB is not published: calling the tool answers FN_NOT_FOUND',
    requirements: [LIMITS.functionSourceSize.id, BRIDGE_ERRORS.FN_NOT_FOUND.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-oversized', async (own) => {
        const oversized = `module.exports = () => ({ ok: true });\n//${'x'.repeat(LIMITS.functionSourceSize.value)}\n`;
        const files = { ...suiteWidgetFiles('Conformance Oversized Widget'), [WIDGET_MANIFEST.defaultToolFile('refresh')]: oversized };
        const mcp = await own.mcp((await own.published('alice', files)).postId);
        const small = await mcp.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        expect(small.isError ?? false, 'a tool whose source is within the limit runs').toBe(false);
        const large = await mcp.callTool({ name: 'refresh', arguments: {} });
        expect(large.isError, 'the oversized tool answers an error').toBe(true);
        expect(toolErrorCode(large), 'error code (7.1)').toBe(BRIDGE_ERRORS.FN_NOT_FOUND.code);
      }),
  });

  widgetCheck({
    id: 'widgets.csp-fallback',
    title: "a bundle with a rejected CSP entry falls back whole: its MCP App carries none of the author's domains",
    requirements: [WIDGET_PROBLEMS.cspDomainRejected.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-csp', async (own) => {
        const domain = 'api.conformance.example';
        const metaOf = async (name: string, connectDomains: readonly string[]) => {
          const mcp = await own.mcp((await own.published('alice', suiteWidgetFiles(name, { csp: { connectDomains } }))).postId);
          const listed = await uiResources(mcp);
          const read = listed[0] ? (await mcp.readResource({ uri: listed[0].uri })).contents.map((item) => item._meta) : [];
          return JSON.stringify([listed.map((r) => r._meta), read]);
        };
        if (!(await metaOf('Conformance Csp Widget', [domain])).includes(domain))
          c.notRun("the MCP App of a bundle with only bare domains carries none of them (MCP Apps' _meta.ui.csp), so a fallback cannot be told apart");
        expect(
          await metaOf('Conformance Wildcard Csp Widget', [domain, '*.conformance.example']),
          `${domain} after a rejected *.conformance.example`,
        ).not.toContain(domain);
      }),
  });

  widgetCheck({
    id: 'widgets.sdk-served',
    title: 'the widget SDK is served at /widgets/sdk.v2.js as JavaScript',
    requirements: [REQUIREMENTS.widgetSdkServed.id],
    run: async (c) => {
      const request = { method: 'GET', url: session.url(WIDGET_SDK.path), headers: [] as Array<[string, string]>, body: null };
      const response = await target.send(request);
      c.record({ request: recordRequest(request), response: recordResponse(response) });
      expect(response.status, 'status').toBe(200);
      expect((response.headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase(), 'Content-Type').toBe(MEDIA_TYPES.javascript);
      expect(response.body.byteLength, 'a script body').toBeGreaterThan(0);
    },
  });

  widgetCheck({
    id: 'widgets.tool-visibility',
    title: 'the tools are listed with their visibility written out and linked to the resource',
    requirements: [REQUIREMENTS.widgetMcpToolVisibility.id],
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

  toolCallCheck('widgets.model-tool-call', 'a model tool can be called through the MCP endpoint', 'forecast', { city: 'Oslo' }, 'sunny in Oslo');
  toolCallCheck(
    'widgets.app-tool-call',
    "an app tool can be called through the MCP endpoint (the view's calls reach it via the host)",
    'refresh',
    {},
    'refreshed',
  );

  widgetCheck({
    id: 'widgets.mcp-app-schema-version',
    title: "a published widget's MCP App carries the manifest schema version: _meta.platform.v is 1",
    requirements: [REQUIREMENTS.widgetMcpAppSchemaVersion.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-version', async (own) => {
        ready(c);
        const mcp = await own.mcp((await own.published('alice', suiteWidgetFiles('Conformance Versioned Widget'))).postId);
        const ui = (await uiResources(mcp))[0];
        if (!ui) return void expect.fail('no ui:// resource is listed');
        const { contents } = await mcp.readResource({ uri: ui.uri });
        const versionOf = (meta: unknown) => (meta as { platform?: { v?: unknown } } | undefined)?.platform?.v;
        const found = [versionOf(ui._meta), ...contents.map((item) => versionOf(item._meta))].filter((v) => v !== undefined);
        // READING-MCP-APP-PLATFORM-META: on the resource as listed or as read, either; where it is given, it is 1.
        expect(found.length, `_meta.platform.v on the ui:// resource, listed or read (${READINGS.mcpAppPlatformMeta.id})`).toBeGreaterThan(0);
        for (const v of found) expect(v, '_meta.platform.v').toBe(WIDGET_MANIFEST.schemaVersion);
      }),
  });
});
