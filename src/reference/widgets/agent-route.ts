import { AGENT_MOUNT_PREFIX } from '../../spec/agent-endpoints.js';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { isSignedRequest } from '../../verifier/verify-request.js';
import { manifestView, type WidgetReader } from '../../widgets/publish/index.js';
import { errorAnswer, type PlatformAnswer, render } from '../render.js';
import { PLATFORM_ERROR_CODES, type PublicRoute, type RouteContext } from '../routes.js';
import type { ToolRunner } from './tool-runner.js';
import type { UserDirectory } from './users.js';
import type { ToolCallRecorder } from './tool-calls.js';

const AGENT_PATH = new RegExp(`^${AGENT_MOUNT_PREFIX}([^/]+)(/.*)$`);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const STATUS = Object.freeze({ ok: 200, badRequest: 400, notFound: 404, methodNotAllowed: 405, unsupported: 415, internal: 500, timeout: 504 });
const decoder = new TextDecoder('utf-8', { fatal: true });

function notFound(ctx: RouteContext, what: string): PlatformAnswer {
  return render(errorAnswer(STATUS.notFound, PLATFORM_ERROR_CODES.notFound, `Nothing is served at ${ctx.url.pathname}: ${what}.`));
}

/** The JSON object a tool is called with: the request body, or no members when there is none. */
function argumentsOf(body: Uint8Array | null): { ok: true; args: unknown } | { ok: false } {
  if (!body?.length) return { ok: true, args: {} };
  try {
    const args: unknown = JSON.parse(decoder.decode(body));
    return args !== null && typeof args === 'object' && !Array.isArray(args) ? { ok: true, args } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * The custom HTTP endpoints 4.5 step 4 stamps on a widget's agent (a tool with expose http, 2.5), served on the
 * agent's base path as 4.1 says the platform reaches an agent: /agents/<slug>/<path>. The path and method are the
 * reference's (AGENT_STAMP: POST /tools/<name>); the request body is the tool's arguments as a JSON object, the answer
 * its JSON value. Added after every other route, so a mounted agent of the same name keeps its own paths.
 */
export function widgetAgentRoute(reader: WidgetReader, runner: ToolRunner, users: UserDirectory, calls: ToolCallRecorder): PublicRoute {
  const handler = async (ctx: RouteContext): Promise<PlatformAnswer> => {
    const read = await ctx.read();
    let callerId: string | null = null;
    if (isSignedRequest(read.request) || ctx.request.headers.has(HEADERS.authorization)) {
      const verdict = await ctx.verify();
      if (!verdict.ok) return render(verdict);
      callerId = users.userIdOf(verdict);
    }
    const agent = await reader.findAgentBySlug(ctx.params.slug!);
    if (!agent) return notFound(ctx, `no agent is named ${JSON.stringify(ctx.params.slug)}`);
    const endpoints = agent.configuration.httpEndpoints.filter((e) => e.path === ctx.params.path);
    const endpoint = endpoints.find((e) => e.method === ctx.request.method);
    if (!endpoint) {
      if (endpoints.length === 0) return notFound(ctx, `agent ${agent.slug} declares no endpoint ${ctx.params.path}`);
      const allow = endpoints.map((e) => e.method).join(', ');
      return render(
        errorAnswer(STATUS.methodNotAllowed, PLATFORM_ERROR_CODES.methodNotAllowed, `${ctx.params.path} answers ${allow}.`, { [HEADERS.allow]: allow }),
      );
    }
    const body = read.request.body;
    const type = (ctx.request.headers.get(HEADERS.contentType) ?? '').split(';')[0]!.trim().toLowerCase();
    if (body?.length && type !== MEDIA_TYPES.json) {
      return render(
        errorAnswer(STATUS.unsupported, PLATFORM_ERROR_CODES.badRequest, `${ctx.params.path} takes ${MEDIA_TYPES.json}, not ${type || 'no Content-Type'}.`),
      );
    }
    const args = argumentsOf(body);
    if (!args.ok) return render(errorAnswer(STATUS.badRequest, BRIDGE_ERRORS.invalid_args.code, 'The body is not a JSON object of the tool arguments.'));
    const source = (await reader.getFunctionSources(agent.id)).find((s) => s.tool === endpoint.function);
    if (!source) return render(errorAnswer(STATUS.notFound, BRIDGE_ERRORS.FN_NOT_FOUND.code, `${endpoint.function} has no published function.`));
    const result = await runner.run(source, args.args);
    if (!result.ok) {
      const status = result.code === BRIDGE_ERRORS.timeout.code ? STATUS.timeout : STATUS.internal;
      return render(errorAnswer(status, result.code, result.message));
    }
    const catalog = (await reader.listCatalog()).find((c) => c.agentId === agent.id);
    const tool = catalog ? manifestView(catalog.snapshot.manifest).tools.find((t) => t.name === endpoint.function) : undefined;
    if (tool) await calls({ agentId: agent.id, authorId: agent.authorId, tool, callerId, via: 'http' });
    return render({ status: STATUS.ok, headers: { [HEADERS.cacheControl]: 'no-store' }, body: result.value ?? null });
  };
  return {
    name: 'widget agent endpoints',
    path: (pathname) => {
      const match = AGENT_PATH.exec(pathname);
      if (!match) return null;
      try {
        return { slug: decodeURIComponent(match[1]!), path: match[2]! };
      } catch {
        return null;
      }
    },
    access: 'public',
    methods: Object.fromEntries(METHODS.map((m) => [m, handler])),
  };
}
