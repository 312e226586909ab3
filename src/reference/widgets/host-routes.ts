import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { REFERENCE_ONLY_ROUTES, widgetRoutePath } from '../../spec/publish.js';
import { WIDGET_SDK } from '../../spec/widgets.js';
import type { BridgeOperation } from '../../widgets/bridge/operations.js';
import { injectSdkScript } from '../../widgets/bundle/index.js';
import { BRIDGE_OPERATIONS } from '../../widgets/host/operations.js';
import { buildCspPolicy } from '../../widgets/csp/index.js';
import type { CspLists, WidgetCspPolicy } from '../../widgets/csp/policy.js';
import { createBridgeHost, type BridgeHost, type BridgeHostLimits, type FunctionRun, type HostSession } from '../../widgets/host/host-core.js';
import { manifestView, type CatalogRecord, type Clock, type PostRecord, type ToolView, type WidgetReader } from '../../widgets/publish/index.js';
import { errorAnswer, renderAnswer } from '../render.js';
import { PLATFORM_ERROR_CODES, type PublicRoute, type RouteContext } from '../routes.js';
import { browserAsset } from '../../widgets/browser-assets.js';
import { contentTypeOf, folderPath, folderPathUrl } from './folder-files.js';
import { widgetMcpServer } from './mcp-server.js';
import { templateMatcher } from './path-template.js';
import type { ToolCallRecorder } from './tool-calls.js';
import type { ToolRunner } from './tool-runner.js';

/** The sandbox of the widget iframe: scripts run, in an opaque origin (no allow-same-origin), so the widget cannot reach the host page. */
const WIDGET_SANDBOX = 'allow-scripts allow-forms allow-popups';
const PERMISSION_NAME = /^[a-z][a-z0-9-]*$/;
const NOT_FOUND = 404;
const CSP_HEADER = 'content-security-policy';
/** The render route's multi-segment parameter: a path in the published folder. */
const RENDER_PATH = 'path';

/** Where the host page's iframe loads a widget: its entry's path in the folder, so the entry's relative URLs resolve beside it. */
const renderPath = (postId: string, entryPath: string) =>
  widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetRender, postId).replace(`{${RENDER_PATH}}`, folderPathUrl(entryPath));

export interface HostRouteOptions {
  readonly reader: WidgetReader;
  readonly runner: ToolRunner;
  readonly clock: Clock;
  /** Where answered tool calls are written, as the MCP and HTTP routes write theirs (via: host). */
  readonly calls?: ToolCallRecorder;
  readonly limits?: BridgeHostLimits;
  /** Wraps the host core (the reference's own is used as it is). */
  readonly wrap?: (host: BridgeHost) => BridgeHost;
  /** The sandbox's policy from the manifest's lists; buildCspPolicy (2.5) by default. */
  readonly cspPolicy?: (csp: CspLists) => WidgetCspPolicy;
  /** The operations the host page dispatches, with their versions (BRIDGE_OPERATIONS by default). */
  readonly operations?: Readonly<Record<string, BridgeOperation>>;
  /** The iframe's allow attribute from the manifest's permissions; the valid names joined with "; " by default. */
  readonly allow?: (permissions: readonly string[]) => string;
  /** Which links bridge.openLink opens: those on a redirectDomains domain (2.5, the default), or any. */
  readonly openLinks?: 'allowlist' | 'any';
  /** The 7.1 code a link off the allowlist is refused with (permission by default: READING-OPEN-LINK-GATE). */
  readonly openLinkRefusal?: string;
  /** Whether the widget's calls of a tool whose visibility lacks app are refused (2.5; true by default). */
  readonly appVisibility?: boolean;
}

const defaultAllow = (permissions: readonly string[]) => permissions.filter((p) => PERMISSION_NAME.test(p)).join('; ');

const html = (text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status: 200, headers: { [HEADERS.contentType]: `${MEDIA_TYPES.html}; charset=utf-8`, [HEADERS.cacheControl]: 'no-store', ...headers } });

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** A published post and the catalog record of its widget. */
interface Published {
  readonly post: PostRecord;
  readonly catalog: CatalogRecord;
}

/**
 * The reference host (4.6), NOT part of the spec (REFERENCE_ONLY_ROUTES): a host page per published post that renders
 * its widget in a sandboxed iframe under the CSP merged from its manifest (2.5), with `allow` from its permissions,
 * and answers the bridge with ext-apps' AppBridge; the page forwards server-mediated calls to the bridge endpoint,
 * which the host core answers (src/widgets/host/host-core.ts). The page's query names the session the spec leaves
 * open: `user` (absent: no session), `content=catalog` (rendered on the app's own catalog row), `bridge=1` (an old
 * v1 host), `detached=1` (no platform server), `cache=down` (its cache store down: host.live fails closed).
 */
export function widgetHostRoutes(options: HostRouteOptions): PublicRoute[] {
  const { reader, runner } = options;
  const cspPolicy = options.cspPolicy ?? buildCspPolicy;
  const allow = options.allow ?? defaultAllow;
  const widget = async (postId: string) => {
    const post = await reader.getPost(postId);
    const catalog = post ? await reader.getCatalogRecord(post.metadata.catalogId) : undefined;
    return post && catalog ? { post, catalog } : undefined;
  };
  const missing = (postId: string) =>
    renderAnswer(errorAnswer(NOT_FOUND, PLATFORM_ERROR_CODES.notFound, `No widget is published as post ${JSON.stringify(postId)}.`));
  /** A handler of a post's route, given its published widget; a post with none answers 404. */
  const forWidget =
    (handler: (ctx: RouteContext, found: Published, postId: string) => Promise<Response> | Response) =>
    async (ctx: RouteContext): Promise<Response> => {
      const postId = ctx.params.postId!;
      const found = await widget(postId);
      return found ? handler(ctx, found, postId) : missing(postId);
    };

  async function callTool(session: HostSession, name: string, args: Record<string, unknown>): Promise<FunctionRun> {
    const found = await widget(session.postId);
    if (!found) return { ok: false, code: BRIDGE_ERRORS.not_found.code, message: `no widget is published as post ${session.postId}` };
    const { catalog } = found;
    // 2.5: app in a tool's visibility is what lets the widget UI invoke it (MCP Apps: a host rejects an app's call otherwise).
    const declared = manifestView(catalog.snapshot.manifest).tools.find((t) => t.name === name);
    if (declared && !declared.visibility.includes('app') && options.appVisibility !== false)
      return {
        ok: false,
        code: BRIDGE_ERRORS.permission.code,
        message: `${name} is not visible to the widget: its visibility ${JSON.stringify(declared.visibility)} lacks app`,
      };
    // The page's user, as the page was given it: the reference host trusts its session (docs/widget-host.md).
    const answered = options.calls
      ? (tool: ToolView) => options.calls!({ agentId: catalog.agentId, authorId: catalog.authorId, tool, callerId: session.user ?? null, via: 'host' })
      : undefined;
    const sources = await reader.getFunctionSources(catalog.agentId);
    const server = widgetMcpServer({ ...found, sources, platformOrigin: '', ...(answered ? { answered } : {}) }, runner);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'reference-host', version: String(WIDGET_SDK.version) });
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name, arguments: args });
      const error = (result.structuredContent as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      if (result.isError) {
        return {
          ok: false,
          code: typeof error?.code === 'string' ? error.code : BRIDGE_ERRORS.internal.code,
          message: String(error?.message ?? 'the tool failed'),
        };
      }
      return { ok: true, value: result.structuredContent ?? JSON.parse((result.content as Array<{ text?: string }>)[0]?.text ?? 'null') };
    } catch (error) {
      return { ok: false, code: BRIDGE_ERRORS.not_found.code, message: error instanceof Error ? error.message : String(error) };
    } finally {
      await client.close();
      await server.close();
    }
  }

  const built = createBridgeHost(
    {
      clock: options.clock,
      callTool,
      runFunction: (fn, args) => runner.run({ id: fn.tool, agentId: '', runtime: 'node20', bytes: fn.source.length, ...fn }, args),
    },
    options.limits,
  );
  const host = options.wrap ? options.wrap(built) : built;

  const hostPage: PublicRoute = {
    name: REFERENCE_ONLY_ROUTES.widgetHost,
    path: templateMatcher(REFERENCE_ONLY_ROUTES.widgetHost),
    access: 'public',
    methods: {
      GET: forWidget((ctx, found, postId) => {
        const q = ctx.url.searchParams;
        const ui = found.catalog.snapshot.manifest._meta.ui;
        const csp = cspPolicy(ui.csp);
        const user = q.get('user');
        const config = {
          widgetUrl: renderPath(postId, found.catalog.snapshot.entryPath),
          bridgeUrl: widgetRoutePath(REFERENCE_ONLY_ROUTES.widgetBridge, postId),
          sandbox: WIDGET_SANDBOX,
          allow: allow(ui.permissions),
          version: q.get('bridge') === '1' ? 1 : WIDGET_SDK.version,
          operations: options.operations ?? BRIDGE_OPERATIONS,
          detached: q.get('detached') === '1',
          redirectDomains: csp.openLinkAllowlist,
          openLinks: options.openLinks ?? 'allowlist',
          openLinkRefusal: options.openLinkRefusal ?? BRIDGE_ERRORS.permission.code,
          session: {
            ...(user ? { user } : {}),
            content: q.get('content') === 'catalog' ? 'catalog' : 'post',
            ...(q.get('cache') === 'down' ? { cache: 'down' } : {}),
          },
        };
        return html(
          `<!doctype html><html><head><meta charset="utf-8"><title>${found.catalog.name.replace(/[<&]/g, '')} (reference host)</title>` +
            `<script type="application/json" id="host-config">${escapeJson(config)}</script></head>` +
            `<body><script src="${REFERENCE_ONLY_ROUTES.widgetHostScript}"></script></body></html>`,
        );
      }),
    },
  };

  const render: PublicRoute = {
    name: REFERENCE_ONLY_ROUTES.widgetRender,
    path: templateMatcher(REFERENCE_ONLY_ROUTES.widgetRender, RENDER_PATH),
    access: 'public',
    methods: {
      // The folder as published (the snapshot), never the folder as it is now: a widget changes when it is re-published.
      GET: forWidget((ctx, found, postId) => {
        const { snapshot } = found.catalog;
        const csp = { [CSP_HEADER]: cspPolicy(snapshot.manifest._meta.ui.csp).policy };
        const path = folderPath(ctx.params[RENDER_PATH]!);
        if (path === snapshot.entryPath && snapshot.entryHtml !== null) return html(injectSdkScript(snapshot.entryHtml), csp);
        // Never a tool source: they are not among the assets (PublishRules.staticAssets says why).
        const file = path === null ? undefined : snapshot.assets.get(path);
        if (path === null || file === undefined) {
          const named = JSON.stringify(ctx.params[RENDER_PATH]);
          return renderAnswer(errorAnswer(NOT_FOUND, PLATFORM_ERROR_CODES.notFound, `The widget of post ${JSON.stringify(postId)} has no file ${named}.`));
        }
        return new Response(file, {
          status: 200,
          headers: {
            [HEADERS.contentType]: contentTypeOf(path),
            [HEADERS.cacheControl]: 'no-store',
            'x-content-type-options': 'nosniff',
            // The widget's frame has an opaque origin (no allow-same-origin): a module script or a font it loads is a
            // CORS request from origin null. The files are public, as the catalog is.
            'access-control-allow-origin': '*',
            ...csp,
          },
        });
      }),
    },
  };

  const bridge: PublicRoute = {
    name: REFERENCE_ONLY_ROUTES.widgetBridge,
    path: templateMatcher(REFERENCE_ONLY_ROUTES.widgetBridge),
    access: 'public',
    methods: {
      POST: forWidget(async (ctx, _found, postId) => {
        const read = await ctx.read();
        let body: { op?: unknown; args?: unknown; session?: { user?: unknown; content?: unknown; cache?: unknown } };
        try {
          body = JSON.parse(new TextDecoder().decode(read.request.body ?? new Uint8Array())) as typeof body;
        } catch {
          body = {};
        }
        const user = typeof body.session?.user === 'string' && body.session.user !== '' ? body.session.user : undefined;
        const session: HostSession = {
          postId,
          ...(user ? { user } : {}),
          content: body.session?.content === 'catalog' ? 'catalog' : 'post',
          ...(body.session?.cache === 'down' ? { cacheDown: true } : {}),
        };
        const answer = await host.dispatch(session, typeof body.op === 'string' ? body.op : '', body.args);
        const json = answer.ok
          ? { result: answer.result }
          : { error: { code: answer.code, message: answer.message, ...(answer.retryAfter === undefined ? {} : { retryAfter: answer.retryAfter }) } };
        const headers: Record<string, string> = { [HEADERS.contentType]: MEDIA_TYPES.json, [HEADERS.cacheControl]: 'no-store' };
        if (!answer.ok && answer.retryAfter !== undefined) headers[HEADERS.retryAfter] = String(answer.retryAfter);
        return new Response(JSON.stringify(json), { status: 200, headers });
      }),
    },
  };

  const script: PublicRoute = {
    name: REFERENCE_ONLY_ROUTES.widgetHostScript,
    path: REFERENCE_ONLY_ROUTES.widgetHostScript,
    access: 'public',
    methods: {
      GET: () =>
        new Response(browserAsset('host.v2.js'), {
          status: 200,
          headers: { [HEADERS.contentType]: `${MEDIA_TYPES.javascript}; charset=utf-8`, [HEADERS.cacheControl]: 'public, max-age=300' },
        }),
    },
  };

  return [hostPage, render, bridge, script];
}
