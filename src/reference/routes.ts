import { storeOutageAnswer } from './store-outage.js';
import { reportError, type ErrorHook } from './error-hook.js';
import type { VerifierPorts } from '../verifier/ports.js';
import type { BearerAcceptance, SignatureAcceptance, Verdict, VerifierConfig } from '../verifier/types.js';
import { HEADERS } from '../spec/headers.js';
import { isSignedRequest, verifyRequest } from '../verifier/verify-request.js';
import { errorAnswer, type PlatformAnswer, readVerifierRequest, render, type ReadRequest } from './render.js';

/** Codes of the platform's own answers outside the spec's tables, in the 2.6 `{ error: { code, message } }` shape. */
export const PLATFORM_ERROR_CODES = Object.freeze({
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  badRequest: 'bad_request',
  internal: 'internal_error',
});

export type Acceptance = SignatureAcceptance | BearerAcceptance;

/** What a route handler is given. The body is read once, for verification; a handler uses `read()`, never `request.body`. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  readonly clientAddress: string;
  /** Path parameters of a matcher route; empty for an exact path. */
  readonly params: Readonly<Record<string, string>>;
  readonly ports: VerifierPorts;
  readonly config: VerifierConfig;
  /** The request as the verifier reads it, body included (read once, up to the verifier's limit). */
  read(): Promise<ReadRequest>;
  /** The reference verifier's verdict on this request (5.2, 5.3), computed once. */
  verify(): Promise<Verdict>;
}

export interface VerifiedContext extends RouteContext {
  /** The credential that verified: a signed request or a platform bearer. */
  readonly verdict: Acceptance;
}

export type Awaitable<T> = T | Promise<T>;
/** A path matcher: parameters when the path is this route's, null otherwise. */
export type PathMatcher = (pathname: string) => Readonly<Record<string, string>> | null;

interface RouteBase {
  /** For logs and reports. */
  readonly name: string;
  /** An exact path, or a matcher. Query strings never take part. */
  readonly path: string | PathMatcher;
}

/** Anyone may call it; the handler may still call ctx.verify() (paid routes answer unsigned callers themselves). */
export interface PublicRoute extends RouteBase {
  readonly access: 'public';
  /** Handlers by method (exact, upper case). A route with GET answers HEAD with the same headers and no body. */
  readonly methods: Readonly<Record<string, (ctx: RouteContext) => Awaitable<PlatformAnswer>>>;
}

/** Every request is verified first, whatever its method; a refusal is answered exactly as the verifier says. */
export interface VerifiedRoute extends RouteBase {
  readonly access: 'verified';
  readonly methods: Readonly<Record<string, (ctx: VerifiedContext) => Awaitable<PlatformAnswer>>>;
}

export type Route = PublicRoute | VerifiedRoute;

const HEAD = 'HEAD';
const GET = 'GET';

function allowedMethods(route: Route): string[] {
  const methods = new Set(Object.keys(route.methods));
  if (methods.has(GET)) methods.add(HEAD);
  return [...methods].sort();
}

function withoutBody(answer: PlatformAnswer): PlatformAnswer {
  if (!(answer instanceof Response)) return { ...answer, body: null };
  void answer.body?.cancel().catch(() => undefined);
  return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}

function match(route: Route, pathname: string): Readonly<Record<string, string>> | null {
  if (typeof route.path === 'string') return route.path === pathname ? {} : null;
  return route.path(pathname);
}

export interface DispatchEnvironment {
  readonly ports: VerifierPorts;
  readonly config: VerifierConfig;
  /** Fault injection: the body counts as read by a route before verification (7.3 request_body_consumed). */
  readonly bodyConsumed?: boolean;
  readonly onError?: ErrorHook;
}

/**
 * The platform's routes, in the order added; the first whose path matches answers. Later work adds
 * its routes (purchases, MCP, widgets, the reference agent) to the same table.
 */
export class RouteTable {
  private readonly routes: Route[] = [];

  constructor(routes: readonly Route[] = []) {
    for (const route of routes) this.add(route);
  }

  add(route: Route): this {
    this.routes.push(route);
    return this;
  }

  list(): readonly Route[] {
    return [...this.routes];
  }

  async dispatch(request: Request, clientAddress: string, env: DispatchEnvironment): Promise<PlatformAnswer> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return render(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, 'The request URL is not an absolute URL.'));
    }
    let found: { route: Route; params: Readonly<Record<string, string>> } | undefined;
    for (const route of this.routes) {
      const params = match(route, url.pathname);
      if (params) {
        found = { route, params };
        break;
      }
    }
    const params = found?.params ?? {};
    let reading: Promise<ReadRequest> | undefined;
    let verifying: Promise<Verdict> | undefined;
    const ctx: RouteContext = {
      request,
      url,
      clientAddress,
      params,
      ports: env.ports,
      config: env.config,
      read: () =>
        (reading ??= readVerifierRequest(request, clientAddress, { bodyConsumed: env.bodyConsumed === true }).catch((error: unknown) => {
          throw new BodyUnreadable(`The request body could not be read: ${error instanceof Error ? error.message : String(error)}.`);
        })),
      verify: () => (verifying ??= ctx.read().then((read) => verifyRequest(read.request, env.ports, env.config))),
    };

    try {
      if (!found) return await this.notFound(ctx);
      const { route } = found;
      if (route.access === 'verified') {
        const verdict = await ctx.verify();
        if (!verdict.ok) return render(verdict);
        return await this.answer(route, request.method, { ...ctx, verdict });
      }
      return await this.answer(route, request.method, ctx);
    } catch (error) {
      if (error instanceof BodyUnreadable) return render(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, error.message));
      reportError(env.onError, error, `${request.method} ${url.pathname} (route ${found?.route.name ?? 'none'})`);
      return (
        storeOutageAnswer(error) ??
        render(errorAnswer(500, PLATFORM_ERROR_CODES.internal, `The platform failed while answering ${found?.route.name ?? url.pathname}.`))
      );
    }
  }

  /**
   * No route: a request that carries a credential (a signature or an Authorization header) is still judged
   * first, so a signed request that does not verify is refused 401 wherever it is sent (5.2, 7.3); anything
   * else is 404.
   */
  private async notFound(ctx: RouteContext): Promise<PlatformAnswer> {
    if (carriesCredential(ctx.request)) {
      const verdict = await ctx.verify();
      if (!verdict.ok) return render(verdict);
    }
    return render(errorAnswer(404, PLATFORM_ERROR_CODES.notFound, `Nothing is served at ${ctx.url.pathname} on this platform.`));
  }

  private async answer<C extends RouteContext>(route: Route, method: string, ctx: C): Promise<PlatformAnswer> {
    const methods = route.methods as Readonly<Record<string, (ctx: C) => Awaitable<PlatformAnswer>>>;
    const own = (name: string) => (Object.hasOwn(methods, name) ? methods[name] : undefined);
    const handler = own(method) ?? (method === HEAD ? own(GET) : undefined);
    if (!handler) {
      const allow = allowedMethods(route).join(', ');
      return render(errorAnswer(405, PLATFORM_ERROR_CODES.methodNotAllowed, `${route.name} answers ${allow}, not ${method}.`, { [HEADERS.allow]: allow }));
    }
    const response = await handler(ctx);
    return method === HEAD ? withoutBody(response) : response;
  }
}

function carriesCredential(request: Request): boolean {
  return (
    request.headers.has(HEADERS.authorization) ||
    isSignedRequest({ method: request.method, url: request.url, headers: [...request.headers], body: null, clientAddress: '' })
  );
}

/** The body stream failed while the platform read it (the client went away or sent a broken body). */
class BodyUnreadable extends Error {
  override readonly name = 'BodyUnreadable';
}
