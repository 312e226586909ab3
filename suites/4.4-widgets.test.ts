import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultTreeAdapter, parse, type DefaultTreeAdapterTypes } from 'parse5';
import { SUITE_WIDGET_MARKER, suiteWidgetFiles } from '../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession } from '../src/harness/widget-session.js';
import { recordRequest, recordResponse } from '../src/harness/exchange.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { BUNDLE_REQUIREMENTS } from '../src/spec/publish-requirements.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { MCP_APP_MIME_TYPE, WIDGET_MANIFEST, WIDGET_PROBLEMS, WIDGET_SDK } from '../src/spec/widgets.js';
import { READINGS } from '../src/spec/readings.js';
import { FUNCTION_SOURCE_OVER_BYTES, FUNCTION_SOURCE_WITHIN_BYTES } from '../src/spec/readings/widgets.js';
import { BRIDGE_ERRORS } from '../src/spec/bridge-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import type { CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';
import {
  catalogFinding,
  noFolderReason,
  stringsIn,
  stringMember,
  toolErrorCode,
  uiResources,
  WIDGET_CHECK_TIMEOUT_MS,
  widgetCheck,
  widgetRef,
  withManifest,
  withOwnSession,
} from './lib/widgets.js';

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

/** One token of each kind 2.5's validator rejects (none of them names api.conformance.example). */
const REJECTED_CSP_TOKENS = [
  '*.conformance.example',
  'https://other.conformance.example',
  'other.conformance.example:8443',
  'other.conformance.example/path',
  "'unsafe-inline'",
  "'unsafe-eval'",
  'data:',
  'blob:',
  '192.0.2.10',
  '[2001:db8::1]',
  '2001:db8::1',
] as const;

const ICON_PATH = 'assets/conformance-icon.svg';
const ICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#123456"/></svg>';
const ICON_WIDGET_DESCRIPTION = 'Summary of the conformance icon widget';

/**
 * Whether the strings of a catalog entry show the icon (READING-CATALOG-ICON): one names its folder path (as written,
 * or as the end of a path or URL), or one is a URL (absolute, a path on the deployment, or data:) whose content is the
 * icon file's bytes.
 */
async function showsIcon(session: WidgetSession, strings: readonly string[]): Promise<boolean> {
  const base = session.url('/');
  const named = (s: string) => {
    try {
      return s === ICON_PATH || decodeURIComponent(new URL(s, base).pathname).endsWith(`/${ICON_PATH}`);
    } catch {
      return false;
    }
  };
  if (strings.some(named)) return true;
  const urls = strings.filter((s) => /^(https?:\/\/|\/|data:)/.test(s)).slice(0, 10);
  for (const s of urls) {
    if (s.startsWith('data:')) {
      const body = await fetch(s).then(
        (r) => r.text(),
        () => '',
      );
      if (body === ICON_SVG) return true;
      continue;
    }
    const url = new URL(s, base);
    // In-process only the platform's own origin is there to ask; live, any host the entry names.
    if (url.origin !== new URL(base).origin && session.target.kind !== 'live') continue;
    const sent = await session.send('GET', url.href, [], null).catch(() => undefined);
    if (sent?.response.status === 200 && new TextDecoder().decode(sent.response.body) === ICON_SVG) return true;
  }
  return false;
}

/** `prefix` padded with x to exactly `bytes` bytes of ASCII. */
function sourceOfBytes(prefix: string, bytes: number): string {
  return prefix + 'x'.repeat(bytes - prefix.length);
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
    title: 'the catalog lists the published widget once, naming it by its post id or its MCP endpoint',
    requirements: [REQUIREMENTS.widgetCatalogListing.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-catalog', async (own) => {
        const p = await own.published('alice', suiteWidgetFiles('Conformance Listed Widget'));
        const ref = widgetRef(own.session, p.postId, p.published);
        const { sent, found } = await catalogFinding(own.session, ref);
        expect(sent.response.status, 'status of the catalog').toBe(200);
        expect(jsonBody(sent.response), 'a JSON catalog document').toBeDefined();
        expect(found?.entries.length ?? 0, `entries naming post ${p.postId} or ${ref.mcpUrl}, in any shape (${READINGS.catalogShape.id})`).toBe(1);
      }),
  });

  widgetCheck({
    id: 'widgets.catalog-icon-description',
    title: "the catalog entry shows the manifest's description and its iconRef icon, by its path or a URL serving it",
    requirements: [BUNDLE_REQUIREMENTS.catalogIcon.id, BUNDLE_REQUIREMENTS.catalogDescription.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-icon', async (own) => {
        const files = withManifest(
          'Conformance Icon Widget',
          (m) => {
            m.description = ICON_WIDGET_DESCRIPTION;
            (m._meta as { platform: Record<string, unknown> }).platform.iconRef = ICON_PATH;
          },
          { [ICON_PATH]: ICON_SVG },
        );
        const p = await own.published('alice', files);
        const ref = widgetRef(own.session, p.postId, p.published);
        const { found } = await catalogFinding(own.session, ref);
        if (!found)
          return c.notRun(
            `the catalog names the widget nowhere by its post id or MCP endpoint (widgets.catalog-listing judges that; ${READINGS.catalogShape.id})`,
          );
        const strings = stringsIn(found.entries[0]);
        expect(strings, 'the entry shows the description ("short summary shown in the catalog")').toContain(ICON_WIDGET_DESCRIPTION);
        expect(
          await showsIcon(own.session, strings),
          `the entry shows the icon ${ICON_PATH}: by its path, or by a URL serving its bytes (${READINGS.catalogIcon.id})`,
        ).toBe(true);
      }),
  });

  widgetCheck({
    id: 'widgets.mcp-app-resource',
    title: 'the MCP endpoint exposes the widget as a ui:// resource of the MCP Apps type, its HTML entry',
    requirements: [REQUIREMENTS.widgetMcpAppResource.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-resource', async (own) => {
        const mcp = await own.mcp((await own.published('alice', suiteWidgetFiles('Conformance Resource Widget'))).postId);
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
    title:
      'a tool source of 64,000 bytes publishes and runs; one over 65,536 bytes is refused at publish, or its tool answers FN_NOT_FOUND while the others run',
    requirements: [LIMITS.functionSourceSize.id, BRIDGE_ERRORS.FN_NOT_FOUND.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-oversized', async (own) => {
        const READ = READINGS.functionSourceKb.id;
        const withRefresh = (name: string, bytes: number) => ({
          ...suiteWidgetFiles(name),
          [WIDGET_MANIFEST.defaultToolFile('refresh')]: sourceOfBytes('module.exports = () => ({ refreshed: true });\n//', bytes),
        });
        const within = await own.published('alice', withRefresh('Conformance Full Source Widget', FUNCTION_SOURCE_WITHIN_BYTES));
        const ran = await (await own.mcp(within.postId)).callTool({ name: 'refresh', arguments: {} });
        expect(toolErrorCode(ran), `a source of ${FUNCTION_SOURCE_WITHIN_BYTES} bytes is within 64 KB on any reading (${READ})`).toBeUndefined();
        expect(ran.isError ?? false, `the tool of ${FUNCTION_SOURCE_WITHIN_BYTES} bytes runs`).toBe(false);

        const over = await own.publish('alice', withRefresh('Conformance Oversized Widget', FUNCTION_SOURCE_OVER_BYTES));
        if (over.published.response.status >= 300) {
          expect(over.published.response.status, `a publish refused for the oversized source (${READ})`).toBeGreaterThanOrEqual(400);
          expect(over.published.response.status, 'a 401 would refuse the credential, not the source').not.toBe(401);
          expect(over.published.response.status, 'a refusal, not a failure of the platform').toBeLessThan(500);
          return;
        }
        if (over.postId === undefined) return void expect.fail('the publish succeeded without a post id');
        const mcp = await own.mcp(over.postId);
        const small = await mcp.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        expect(small.isError ?? false, 'a tool whose source is within the limit runs').toBe(false);
        const large = await mcp.callTool({ name: 'refresh', arguments: {} });
        expect(large.isError, `the tool of ${FUNCTION_SOURCE_OVER_BYTES} bytes answers an error`).toBe(true);
        expect(toolErrorCode(large), `error code (7.1: CODE_TOO_LARGE at publish, then FN_NOT_FOUND; ${READ})`).toBe(BRIDGE_ERRORS.FN_NOT_FOUND.code);
      }),
  });

  widgetCheck({
    id: 'widgets.csp-fallback',
    title:
      "a bundle with one rejected CSP token (a wildcard, scheme, port, path, unsafe-* keyword, data:, blob:, IPv4 or IPv6 literal) falls back whole: its MCP App carries none of the author's domains",
    requirements: [WIDGET_PROBLEMS.cspDomainRejected.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-csp', async (own) => {
        const domain = 'api.conformance.example';
        const metaOf = async (name: string, csp: Readonly<Record<string, readonly string[]>>) => {
          const mcp = await own.mcp((await own.published('alice', suiteWidgetFiles(name, { csp }))).postId);
          const listed = await uiResources(mcp);
          const read = listed[0] ? (await mcp.readResource({ uri: listed[0].uri })).contents.map((item) => item._meta) : [];
          return JSON.stringify([listed.map((r) => r._meta), read]);
        };
        if (!(await metaOf('Conformance Csp Widget', { connectDomains: [domain] })).includes(domain))
          c.notRun("the MCP App of a bundle with only bare domains carries none of them (MCP Apps' _meta.ui.csp), so a fallback cannot be told apart");
        // Each rejected token in another list than the good domain: 2.5 falls back for the whole bundle, not the list.
        const lists = ['resourceDomains', 'frameDomains', 'connectDomains', 'redirectDomains'] as const;
        for (const [i, token] of REJECTED_CSP_TOKENS.entries()) {
          const list = lists[i % lists.length]!;
          const csp = list === 'connectDomains' ? { connectDomains: [domain, token] } : { connectDomains: [domain], [list]: [token] };
          expect(await metaOf(`Conformance Rejected Csp Widget ${i}`, csp), `${domain} after a rejected ${token} in ${list}`).not.toContain(domain);
        }
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

  widgetCheck({
    id: 'widgets.app-tool-not-offered-to-model',
    title: 'to an MCP client that renders no apps, an app-only tool is not listed, or is listed with its visibility written out without model',
    requirements: [BUNDLE_REQUIREMENTS.toolVisibility.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-app-only', async (own) => {
        const p = await own.published('alice', suiteWidgetFiles('Conformance App Only Widget'));
        const tools = (await (await own.mcp(p.postId, false)).listTools()).tools as UiTool[];
        expect(
          tools.map((t) => t.name),
          'forecast ([app, model]) is offered to the model',
        ).toContain('forecast');
        const refresh = tools.find((t) => t.name === 'refresh');
        if (refresh === undefined) return;
        const visibility = refresh._meta?.ui?.visibility;
        expect(
          Array.isArray(visibility) ? visibility : `no _meta.ui.visibility (${JSON.stringify(refresh._meta)}): MCP Apps would read [model, app]`,
          `refresh declares no visibility, so 2.5's default [app]: listed, it must say so without model (${READINGS.toolVisibility.id})`,
        ).toEqual(expect.not.arrayContaining(['model']));
        expect(visibility, 'refresh: its visibility written out').toEqual(expect.arrayContaining(['app']));
      }),
  });

  widgetCheck({
    id: 'widgets.tool-description-schema',
    title: 'tools/list gives each tool the description and the inputSchema its manifest declares',
    requirements: [BUNDLE_REQUIREMENTS.mcpToolSchema.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-tool-schema', async (own) => {
        const manifest = JSON.parse(suiteWidgetFiles('Conformance Schema Widget')[WIDGET_MANIFEST.fileName]!) as {
          tools: Array<{ name: string; description: string; inputSchema: { properties?: Record<string, unknown>; required?: string[] } }>;
        };
        const p = await own.published('alice', suiteWidgetFiles('Conformance Schema Widget'));
        const listed = (await (await own.mcp(p.postId)).listTools()).tools;
        for (const declared of manifest.tools) {
          const tool = listed.find((t) => t.name === declared.name);
          if (!tool) return void expect.fail(`tools/list does not list ${declared.name}`);
          expect(tool.description, `${declared.name}: its description`).toBe(declared.description);
          expect(tool.inputSchema.type, `${declared.name}: its inputSchema takes an object`).toBe('object');
          expect(tool.inputSchema.properties ?? {}, `${declared.name}: the properties of its inputSchema`).toEqual(declared.inputSchema.properties ?? {});
          expect([...(tool.inputSchema.required ?? [])].sort(), `${declared.name}: the required members of its inputSchema`).toEqual(
            [...(declared.inputSchema.required ?? [])].sort(),
          );
        }
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
    title: "where a published widget's MCP App carries _meta.platform.v, it is the manifest's schema version 1",
    requirements: [REQUIREMENTS.widgetMcpAppSchemaVersion.id],
    run: (c) =>
      withOwnSession(c, 'widgets-4-4-version', async (own) => {
        const mcp = await own.mcp((await own.published('alice', suiteWidgetFiles('Conformance Versioned Widget'))).postId);
        const ui = (await uiResources(mcp))[0];
        if (!ui) return void expect.fail('no ui:// resource is listed');
        const { contents } = await mcp.readResource({ uri: ui.uri });
        const versionOf = (meta: unknown) => (meta as { platform?: { v?: unknown } } | undefined)?.platform?.v;
        const found = [versionOf(ui._meta), ...contents.map((item) => versionOf(item._meta))].filter((v) => v !== undefined);
        // READING-MCP-APP-PLATFORM-META: 9 makes v a manifest field; the App need not carry it, and where it does it is 1.
        if (found.length === 0)
          c.notRun(
            `the MCP App carries no _meta.platform.v on its ui:// resource, listed or read; 9 makes it a manifest field, which the App need not repeat (${READINGS.mcpAppPlatformMeta.id})`,
          );
        for (const v of found) expect(v, '_meta.platform.v').toBe(WIDGET_MANIFEST.schemaVersion);
      }),
  });
});
