import type { HttpEndpointDeclaration, SocketEndpointDeclaration } from '../../access/endpoint-declaration.js';
import { jcsBase64url } from '../../purchase/canonical-json.js';
import { createChallenge, serializeChallenge } from '../../purchase/challenge.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { PAYMENT_METHODS } from '../../spec/payments.js';
import { ENDPOINT_AUTH_MODES, SDK_SCOPE_PREFIXES, type EndpointAuthMode } from '../../spec/sdk-auth.js';
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
  /** Answers 402 with the agent's own Payment challenge: a platform relaying it answers 502 upstream_payment_not_relayed instead (7.4). */
  paymentChallenge: { path: '/conformance/payment-challenge', method: 'GET' },
  /** Answers 200 with a Payment-Receipt of the agent's own: a platform relaying it answers 502 upstream_payment_not_relayed instead (7.4). */
  paymentReceipt: { path: '/conformance/payment-receipt', method: 'GET' },
  /** Says whether a Payment-Authorization reached the agent (a platform never relays a buyer's credential, 7.4). */
  paymentSeen: { path: '/conformance/payment-seen', method: 'GET' },
} satisfies Record<string, HttpEndpointDeclaration>);

/** A scope allowed_scopes accepts through its `namespace:*` entry (2.1), and one it does not accept. */
export const PROBE_GRANTED_SCOPE = `${SDK_SCOPE_PREFIXES.namespace}${PROBE_GROUP}`;
export const PROBE_DROPPED_SCOPE = `${SDK_SCOPE_PREFIXES.tools}conformance`;

/** Probes scoped by a plain scope string the caller's token must carry (2.1 allowed_scopes, 5.4). */
export const SCOPE_PROBES = Object.freeze({
  granted: { path: '/conformance/scoped/granted', method: 'GET', scopes: PROBE_GRANTED_SCOPE },
  dropped: { path: '/conformance/scoped/dropped', method: 'GET', scopes: PROBE_DROPPED_SCOPE },
} satisfies Record<string, HttpEndpointDeclaration>);

/** 5.4: one unscoped probe per TypeScript auth mode, at /conformance/auth/<mode>. */
export const AUTH_MODE_PROBES: Readonly<Record<EndpointAuthMode, HttpEndpointDeclaration>> = Object.freeze(
  Object.fromEntries(Object.values(ENDPOINT_AUTH_MODES).map((auth) => [auth, { path: `/conformance/auth/${auth}`, method: 'GET', auth }])) as Record<EndpointAuthMode, HttpEndpointDeclaration>,
);

/** What the payment-seen probe answers: whether the request it received carried Payment-Authorization. */
export const PAYMENT_SEEN_MEMBER = 'paymentAuthorization';

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
  const who = (ctx: Parameters<AgentHttpEndpoint['handler']>[0]) => ({ endpoint: ctx.url.pathname, caller: ctx.auth.caller?.id ?? null, authenticated: ctx.auth.authenticated });
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
    { ...PROBES.paymentChallenge, handler: (ctx) => ownPaymentChallenge(ctx.url) },
    { ...PROBES.paymentReceipt, handler: () => ownPaymentReceipt() },
    ...Object.values(SCOPE_PROBES).map((probe) => ({ ...probe, handler: who })),
    ...Object.values(AUTH_MODE_PROBES).map((probe) => ({ ...probe, handler: who })),
    { ...PROBES.paymentSeen, handler: (ctx) => ({ [PAYMENT_SEEN_MEMBER]: ctx.request.headers.has(HEADERS.paymentAuthorization) }) },
  ];
}

/** The agent charging for itself: a 402 with a Payment challenge of its own (card, a fixed price), as an agent must never be relayed doing. */
function ownPaymentChallenge(url: URL): Response {
  const challenge = createChallenge({
    realm: url.host,
    method: PAYMENT_METHODS.stripe,
    request: { amount: '100', currency: 'usd' },
    createdAt: Math.floor(Date.now() / 1000),
  });
  return new Response(JSON.stringify({ error: 'payment_required' }), {
    status: 402,
    headers: { [HEADERS.wwwAuthenticate]: serializeChallenge(challenge), [HEADERS.contentType]: MEDIA_TYPES.json },
  });
}

/** The agent claiming a payment of its own: 200 with a Payment-Receipt. */
function ownPaymentReceipt(): Response {
  const receipt = jcsBase64url({ method: PAYMENT_METHODS.stripe, reference: 'agent_own_payment', status: 'success', timestamp: new Date(0).toISOString() });
  return new Response(JSON.stringify({ paid: true }), { status: 200, headers: { [HEADERS.paymentReceipt]: receipt, [HEADERS.contentType]: MEDIA_TYPES.json } });
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
