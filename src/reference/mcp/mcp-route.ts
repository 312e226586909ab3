import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { HEADERS } from '../../spec/headers.js';
import { PLATFORM_ROUTES } from '../../spec/wire.js';
import { acceptSignatureValue } from '../../verifier/refusal.js';
import type { Verdict } from '../../verifier/types.js';
import type { Delegate } from '../paid/delegate.js';
import { payerOf } from '../paid/caller.js';
import { renderAnswer } from '../render.js';
import type { PublicRoute, RouteContext } from '../routes.js';
import { platformMcpServer } from './delegate-server.js';

const UNAUTHORIZED = 401;

/**
 * The verifier's refusal as the MCP endpoint answers it: a 401 to a request that carried Signature-Input always
 * carries Accept-Signature (5.3), whichever check refused it (the verifier adds it only to some rows, 7.3).
 */
export function mcpRefusal(verdict: Extract<Verdict, { ok: false }>, request: { readonly headers: Headers; readonly hasBody: boolean }): Response {
  const response = renderAnswer(verdict);
  if (response.status === UNAUTHORIZED && request.headers.has(HEADERS.signatureInput) && !response.headers.has(HEADERS.acceptSignature)) {
    response.headers.set(HEADERS.acceptSignature, acceptSignatureValue(request.hasBody));
  }
  return response;
}

async function answer(ctx: RouteContext, delegate: Delegate): Promise<Response> {
  const read = await ctx.read();
  const verdict = await ctx.verify();
  const body = read.request.body;
  if (!verdict.ok) return mcpRefusal(verdict, { headers: ctx.request.headers, hasBody: body !== null && body.length > 0 });
  const server = platformMcpServer(delegate, payerOf(verdict));
  // Stateless (no session id) and plain JSON answers: every POST is answered whole, on its own.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const request = new Request(ctx.request.url, { method: ctx.request.method, headers: ctx.request.headers, ...(body?.length ? { body } : {}) });
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/**
 * The platform's MCP endpoint, POST /mcp (4.2), over MCP Streamable HTTP in stateless mode
 * (@modelcontextprotocol/sdk's Web-standard transport on the platform's WHATWG Request, as the widget MCP route
 * serves). Every request is verified first: a signed request or a platform bearer (5.2, 5.3); a refusal is the
 * verifier's, with Accept-Signature on every 401 to a request that carried Signature-Input. Its tool is the
 * delegate operation (4.7), paid from the caller's balance.
 */
export function platformMcpRoute(delegate: Delegate): PublicRoute {
  return {
    name: PLATFORM_ROUTES.mcp,
    path: PLATFORM_ROUTES.mcp,
    access: 'public',
    methods: { POST: (ctx) => answer(ctx, delegate) },
  };
}
