import { jcsBase64url } from '../../purchase/wire/canonical-json.js';
import { createChallenge, serializeChallenge } from '../../purchase/wire/challenge.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { PAYMENT_METHODS } from '../../spec/payments.js';
import type { AgentHttpEndpoint, AgentSocketEndpoint } from './endpoint-context.js';
import {
  AUTH_MODE_PROBES,
  OWNER_SOCKET_PROBE,
  PAYMENT_SEEN_MEMBER,
  PROBE_BYTES_MAX,
  PROBE_CALL_MARK,
  PROBE_CALLS_MEMBER,
  PROBES,
  SCOPE_PROBES,
  SOCKET_PROBE,
  STREAM_PROBE_FRAMES,
} from '../../contract/probes.js';

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
  // Runs of the echo, small and scoped handlers by ?mark=, for the calls probe; kept per set of endpoints (per agent).
  const calls = new Map<string, number>();
  const counted = (ctx: Parameters<AgentHttpEndpoint['handler']>[0]) => {
    const mark = ctx.query.get(PROBE_CALL_MARK);
    if (mark) calls.set(mark, (calls.get(mark) ?? 0) + 1);
  };
  const who = (ctx: Parameters<AgentHttpEndpoint['handler']>[0]) => ({
    endpoint: ctx.url.pathname,
    caller: ctx.auth.caller?.id ?? null,
    authenticated: ctx.auth.authenticated,
  });
  const countedWho = (ctx: Parameters<AgentHttpEndpoint['handler']>[0]) => {
    counted(ctx);
    return who(ctx);
  };
  return [
    { ...PROBES.open, handler: (ctx) => who(ctx) },
    { ...PROBES.all, handler: (ctx) => who(ctx) },
    {
      ...PROBES.echo,
      handler: (ctx) => {
        counted(ctx);
        return { ...who(ctx), bytes: ctx.body.byteLength, json: decoded(ctx.body) };
      },
    },
    {
      ...PROBES.small,
      handler: (ctx) => {
        counted(ctx);
        return { ...who(ctx), bytes: ctx.body.byteLength };
      },
    },
    { ...PROBES.calls, handler: (ctx) => ({ [PROBE_CALL_MARK]: ctx.params.mark, [PROBE_CALLS_MEMBER]: calls.get(ctx.params.mark ?? '') ?? 0 }) },
    { ...PROBES.item, handler: (ctx) => ({ ...who(ctx), params: ctx.params, query: Object.fromEntries(ctx.query) }) },
    { ...PROBES.user, handler: countedWho },
    { ...PROBES.owner, handler: countedWho },
    { ...PROBES.admin, handler: countedWho },
    { ...PROBES.group, handler: countedWho },
    { ...PROBES.list, handler: countedWho },
    { ...PROBES.stream, handler: () => frames() },
    { ...PROBES.paymentChallenge, handler: (ctx) => ownPaymentChallenge(ctx.url) },
    { ...PROBES.paymentReceipt, handler: () => ownPaymentReceipt() },
    ...Object.values(SCOPE_PROBES).map((probe) => ({ ...probe, handler: who })),
    ...Object.values(AUTH_MODE_PROBES).map((probe) => ({ ...probe, handler: who })),
    { ...PROBES.paymentSeen, handler: (ctx) => ({ [PAYMENT_SEEN_MEMBER]: ctx.request.headers.has(HEADERS.paymentAuthorization) }) },
    { ...PROBES.bytes, handler: (ctx) => sizedAnswer(ctx.params.size ?? '') },
  ];
}

/** `size` bytes of "a", made as they are read (never held whole), with their Content-Length; 400 for a size it does not make. */
function sizedAnswer(size: string): Response {
  const n = /^\d{1,9}$/.test(size) ? Number(size) : Number.NaN;
  if (!(n <= PROBE_BYTES_MAX))
    return Response.json({ error: { code: 'bad_request', message: `The size must be a whole number of bytes up to ${PROBE_BYTES_MAX}.` } }, { status: 400 });
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= n) return controller.close();
      const length = Math.min(chunk.byteLength, n - sent);
      sent += length;
      controller.enqueue(length === chunk.byteLength ? chunk : chunk.subarray(0, length));
    },
  });
  return new Response(body, { headers: { [HEADERS.contentType]: 'application/octet-stream', [HEADERS.contentLength]: String(n) } });
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

/** The scoped socket probes: each echoes every text message back. */
export function conformanceSockets(): AgentSocketEndpoint[] {
  return [SOCKET_PROBE, OWNER_SOCKET_PROBE].map((probe) => ({
    ...probe,
    accept: (socket) => {
      socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
    },
  }));
}
