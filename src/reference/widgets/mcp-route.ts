import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { WIDGET_ROUTES } from '../../spec/publish.js';
import { isSignedRequest } from '../../verifier/verify-request.js';
import type { ToolView, WidgetReader } from '../../widgets/publish/index.js';
import { errorAnswer, type PlatformAnswer, render } from '../render.js';
import { PLATFORM_ERROR_CODES, type PublicRoute, type RouteContext } from '../routes.js';
import { widgetMcpServer } from './mcp-server.js';
import { templateMatcher } from './path-template.js';
import type { ToolRunner } from './tool-runner.js';
import type { ToolCallRecorder } from './tool-calls.js';
import type { UserDirectory } from './users.js';

const STATUS = Object.freeze({ notFound: 404, tooLarge: 413 });

/** Who calls the widget's tools, and where their calls are written. */
export interface McpCallers {
  readonly users: UserDirectory;
  readonly calls: ToolCallRecorder;
  /** Whether the ui:// resource repeats the manifest's _meta.platform (true by default). */
  readonly platformMeta?: boolean;
}

async function answer(ctx: RouteContext, reader: WidgetReader, runner: ToolRunner, callers: McpCallers): Promise<PlatformAnswer> {
  const read = await ctx.read();
  let callerId: string | null = null;
  if (isSignedRequest(read.request)) {
    const verdict = await ctx.verify();
    if (!verdict.ok) return render(verdict);
    callerId = callers.users.userIdOf(verdict);
  }
  if (read.truncated)
    return render(errorAnswer(STATUS.tooLarge, PLATFORM_ERROR_CODES.badRequest, 'The MCP message is larger than the platform reads (section 8).'));
  const postId = ctx.params.postId!;
  const post = await reader.getPost(postId);
  const catalog = post ? await reader.getCatalogRecord(post.metadata.catalogId) : undefined;
  if (!post || !catalog)
    return render(errorAnswer(STATUS.notFound, PLATFORM_ERROR_CODES.notFound, `No widget is published as post ${JSON.stringify(postId)}.`));
  const sources = await reader.getFunctionSources(catalog.agentId);

  const answered = (tool: ToolView) => callers.calls({ agentId: catalog.agentId, authorId: catalog.authorId, tool, callerId, via: 'mcp' });
  const server = widgetMcpServer({ post, catalog, sources, platformOrigin: ctx.url.origin, answered, platformMeta: callers.platformMeta ?? true }, runner);
  // Stateless (no session id) and plain JSON answers: every POST is answered whole, on its own.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const body = read.request.body;
    const request = new Request(ctx.request.url, { method: ctx.request.method, headers: ctx.request.headers, ...(body?.length ? { body } : {}) });
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/**
 * /api/widgets/{postId}/mcp (4.4): the post's widget as an MCP App, over MCP Streamable HTTP in stateless mode
 * (@modelcontextprotocol/sdk's Web-standard transport, on the platform's WHATWG Request). POST carries every MCP
 * method; GET (no server-initiated stream in stateless mode) and other methods answer 405 with Allow, as the
 * transport specification lets a server do. Public: hosts consume widgets without a platform credential; a request
 * that is signed is verified first, like everywhere on the platform.
 */
export function mcpRoute(reader: WidgetReader, runner: ToolRunner, callers: McpCallers): PublicRoute {
  return {
    name: WIDGET_ROUTES.mcp,
    path: templateMatcher(WIDGET_ROUTES.mcp),
    access: 'public',
    methods: { POST: (ctx) => answer(ctx, reader, runner, callers) },
  };
}
