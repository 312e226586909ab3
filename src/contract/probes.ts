import type { HttpEndpointDeclaration, SocketEndpointDeclaration } from '../access/endpoint-declaration.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { ENDPOINT_AUTH_MODES, SDK_SCOPE_PREFIXES, type EndpointAuthMode } from '../spec/sdk-auth.js';

/**
 * The conformance probes: the declared endpoints the agent suites call (4.1, 5.4, 7.2). The reference agent
 * declares exactly these (src/reference/agent/conformance-endpoints.ts gives their handlers); an agent under test
 * declares them too, under its agent URL, so a live run knows what each one must answer.
 */

/** The access group the probes' `group:` scope names. */
export const PROBE_GROUP = 'testers';
/** The smaller body cap of the capped probe (an endpoint may declare a cap below 50 MiB, section 8). */
export const PROBE_SMALL_CAP = 1024;

/** Each probe's declaration: path, method and what it accepts, caps or asks of the caller. */
export const PROBES = Object.freeze({
  open: { path: '/conformance/open', method: 'GET' },
  /** 5.4: the literal scope `all`, which asks nothing of the caller. */
  all: { path: '/conformance/all', method: 'GET', scopes: 'all' },
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
  /**
   * How many times the handlers of echo, small and the scoped probes (user, owner, admin, group, list) ran for requests
   * carrying ?mark=<mark> (7.2: on 413 "the agent is never called"; 5.4: "A scoped endpoint is checked before its
   * handler runs"): `{ mark, calls }`.
   */
  calls: { path: '/conformance/calls/:mark', method: 'GET' },
  /** Answers :size bytes (application/octet-stream, with Content-Length), so a check can ask an answer past the cap of 7.2. */
  bytes: { path: '/conformance/bytes/:size', method: 'GET' },
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
  Object.fromEntries(Object.values(ENDPOINT_AUTH_MODES).map((auth) => [auth, { path: `/conformance/auth/${auth}`, method: 'GET', auth }])) as Record<
    EndpointAuthMode,
    HttpEndpointDeclaration
  >,
);

/** What the payment-seen probe answers: whether the request it received carried Payment-Authorization. */
export const PAYMENT_SEEN_MEMBER = 'paymentAuthorization';

export const SOCKET_PROBE = Object.freeze({ path: '/conformance/socket', scopes: 'user' } satisfies SocketEndpointDeclaration);

/** A socket only the owner (or an admin) may open: a verified caller it does not include is refused 403 (4.1, 7.2). */
export const OWNER_SOCKET_PROBE = Object.freeze({ path: '/conformance/socket/owner', scopes: 'owner' } satisfies SocketEndpointDeclaration);

/** The query parameter by which the calls probe counts a handler's runs, and the member it answers them in. */
export const PROBE_CALL_MARK = 'mark';
export const PROBE_CALLS_MEMBER = 'calls';

/** The largest answer the bytes probe makes: room above the 50 MiB answer cap, and no more. */
export const PROBE_BYTES_MAX = 64 * 1024 * 1024;

/** The frames the stream probe sends before data: [DONE]. */
export const STREAM_PROBE_FRAMES: readonly unknown[] = Object.freeze([{ n: 1 }, { n: 2 }, { n: 3 }]);
