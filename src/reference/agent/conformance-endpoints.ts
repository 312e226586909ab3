import type { HttpEndpointDeclaration, SocketEndpointDeclaration } from '../../access/endpoint-declaration.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import type { AgentHttpEndpoint, AgentSocketEndpoint } from './endpoint-context.js';

/** The access group the probes' `group:` scope names. */
export const PROBE_GROUP = 'testers';
/** The smaller body cap of the capped probe (an endpoint may declare a cap below 50 MiB, section 8). */
export const PROBE_SMALL_CAP = 1024;

/**
 * The declared endpoints the agent suites call (4.1, 5.4, 7.2). The reference agent declares exactly these; an
 * agent under test declares them too, under its agent URL, so a live run knows what each one must answer.
 */
export const PROBES = Object.freeze({
  open: { path: '/conformance/open', method: 'GET' },
  echo: { path: '/conformance/echo', method: 'POST', accepts: [MEDIA_TYPES.json] },
  small: { path: '/conformance/small', method: 'POST', accepts: [MEDIA_TYPES.json], maxBodyBytes: PROBE_SMALL_CAP },
  item: { path: '/conformance/items/:id', method: 'GET' },
  user: { path: '/conformance/user', method: 'GET', scopes: 'user' },
  owner: { path: '/conformance/owner', method: 'GET', scopes: 'owner' },
  admin: { path: '/conformance/admin', method: 'GET', scopes: 'admin' },
  group: { path: '/conformance/group', method: 'GET', scopes: `group:${PROBE_GROUP}` },
  list: { path: '/conformance/list', method: 'GET', scopes: [`group:${PROBE_GROUP}`, 'owner'] },
  stream: { path: '/conformance/stream', method: 'GET', contentType: MEDIA_TYPES.eventStream },
} satisfies Record<string, HttpEndpointDeclaration>);

export const SOCKET_PROBE = Object.freeze({ path: '/conformance/socket', scopes: 'user' } satisfies SocketEndpointDeclaration);

/** The frames the stream probe sends before data: [DONE]. */
export const STREAM_PROBE_FRAMES: readonly unknown[] = Object.freeze([{ n: 1 }, { n: 2 }, { n: 3 }]);

async function* frames(): AsyncIterable<unknown> {
  for (const frame of STREAM_PROBE_FRAMES) yield frame;
}

function decoded(body: Uint8Array): unknown {
  if (body.byteLength === 0) return null;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}

/** The reference handlers of the probes: each says what it received, so a check can see the handler ran. */
export function conformanceEndpoints(): AgentHttpEndpoint[] {
  const who = (ctx: Parameters<AgentHttpEndpoint['handler']>[0]) => ({ endpoint: ctx.url.pathname, caller: ctx.auth.caller?.id ?? null });
  return [
    { ...PROBES.open, handler: (ctx) => who(ctx) },
    { ...PROBES.echo, handler: (ctx) => ({ ...who(ctx), bytes: ctx.body.byteLength, json: decoded(ctx.body) }) },
    { ...PROBES.small, handler: (ctx) => ({ ...who(ctx), bytes: ctx.body.byteLength }) },
    { ...PROBES.item, handler: (ctx) => ({ ...who(ctx), params: ctx.params, query: Object.fromEntries(ctx.query) }) },
    { ...PROBES.user, handler: (ctx) => who(ctx) },
    { ...PROBES.owner, handler: (ctx) => who(ctx) },
    { ...PROBES.admin, handler: (ctx) => who(ctx) },
    { ...PROBES.group, handler: (ctx) => who(ctx) },
    { ...PROBES.list, handler: (ctx) => who(ctx) },
    { ...PROBES.stream, handler: () => frames() },
  ];
}

/** The scoped socket probe: echoes every text message back. */
export function conformanceSockets(): AgentSocketEndpoint[] {
  return [
    {
      ...SOCKET_PROBE,
      accept: (socket) => {
        socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
      },
    },
  ];
}
