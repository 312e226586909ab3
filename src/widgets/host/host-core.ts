import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { LIMITS } from '../../spec/limits.js';
import type { BridgeErrorData } from './operations.js';

/** Who is calling: the signed-in user, if any, and where the widget is rendered (a post, or its own catalog row). */
export interface HostSession {
  readonly postId: string;
  readonly user?: string;
  readonly content: 'post' | 'catalog';
  /** The host's cache store is down (degraded mode): host.live fails closed (7.1 service_unavailable). */
  readonly cacheDown?: boolean;
}

export type HostAnswer = { readonly ok: true; readonly result: Record<string, unknown> } | ({ readonly ok: false; readonly message: string } & BridgeErrorData);

/** A published or host.fn function's run, as the reference's tool runner answers it. */
export type FunctionRun = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: string; readonly message: string };

export interface BridgeHostPorts {
  /** Seconds since the epoch. */
  readonly clock: { now(): number };
  /** Calls a tool of the session's post's widget (4.4) for its user, and answers its value or its 7.1 code. */
  callTool(session: HostSession, name: string, args: Record<string, unknown>): Promise<FunctionRun>;
  /** Runs a host.fn source under the handler time budget. */
  runFunction(fn: { readonly tool: string; readonly file: string; readonly source: string }, args: Record<string, unknown>): Promise<FunctionRun>;
  /** Whether the collaboration server (host.collab) is up; the reference runs none, so it fails closed by default. */
  collabAvailable?(): boolean;
}

/** The numbers 8 leaves to the platform ("not shown"), with the reference's values. */
export interface BridgeHostLimits {
  /** host.kv: the largest value, as UTF-8 JSON. */
  readonly kvValueBytes: number;
  /** host.kv: keys per scope and owner. */
  readonly kvKeys: number;
  /** Calls per session in one rate window. */
  readonly rateCalls: number;
  readonly rateWindowSeconds: number;
  /** host.live: attachments one session holds at once. */
  readonly liveCap: number;
  /** host.live: a live id's lifetime when its creator gives none. */
  readonly liveTtlSeconds: number;
  /** host.fn: the largest source published, in bytes (8: "64 KB"; READING-FUNCTION-SOURCE-KB). */
  readonly functionSourceBytes: number;
}

export const REFERENCE_HOST_LIMITS: BridgeHostLimits = Object.freeze({
  kvValueBytes: 16 * 1024,
  kvKeys: 100,
  rateCalls: 50,
  rateWindowSeconds: 10,
  liveCap: 2,
  liveTtlSeconds: 3600,
  functionSourceBytes: LIMITS.functionSourceSize.value,
});

/** host.kv scopes; any other name is reserved for the platform's own content (invalid_args). */
const KV_SCOPES = ['user', 'shared'] as const;
/** host.live kinds with a dispatcher, and the transports a producer can name. */
const LIVE_KINDS = ['stream', 'doc'] as const;
const LIVE_TRANSPORTS = ['sse', 'websocket', 'relay', 'webrtc'] as const;
const DEFAULT_LIVE_TRANSPORTS = ['sse', 'websocket'];
const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const refuse = (code: string, message: string, retryAfter?: number): never => {
  throw new Refusal(code, message, retryAfter);
};

interface LiveEntry {
  readonly owner: string;
  readonly kind: string;
  readonly transports: readonly string[];
  readonly expiresAt: number;
  readonly private: boolean;
}

/**
 * The reference host's side of the bridge (4.6, 7.1): one dispatch for every server-mediated operation, each
 * failure a stable 7.1 code. State is in memory, per published post. What the spec leaves open the reference does
 * the simplest way that lets every condition of 7.1 happen (docs/widget-host.md): no risk tier is ever granted
 * (host.shell and host.python answer permission to a signed-in user), no collaboration server runs (host.collab
 * fails closed with service_unavailable), and host.fn functions live per post, published through the bridge.
 */
export function createBridgeHost(ports: BridgeHostPorts, limits: BridgeHostLimits = REFERENCE_HOST_LIMITS) {
  const kv = new Map<string, Map<string, unknown>>();
  const functions = new Map<string, { readonly tool: string; readonly file: string; readonly source: string }>();
  const live = new Map<string, LiveEntry>();
  const attachments = new Map<string, { readonly owner: string; readonly liveId: string }>();
  const calls = new Map<string, number[]>();
  let serial = 0;

  const owner = (s: HostSession) => s.user ?? 'anonymous';
  const signedIn = (s: HostSession, what: string): string => s.user ?? refuse(BRIDGE_ERRORS.no_session.code, `${what} needs a signed-in user; sign in first`);
  const str = (args: Record<string, unknown>, name: string): string => {
    const v = args[name];
    return typeof v === 'string' && NAME.test(v) ? v : refuse(BRIDGE_ERRORS.invalid_args.code, `"${name}" must be a name of 1 to 128 letters, digits and _.:-`);
  };

  function rateLimit(s: HostSession): void {
    const key = `${s.postId}\u0000${owner(s)}`;
    const now = ports.clock.now();
    const recent = (calls.get(key) ?? []).filter((t) => t > now - limits.rateWindowSeconds);
    if (recent.length >= limits.rateCalls) {
      const retryAfter = Math.max(1, Math.ceil(recent[0]! + limits.rateWindowSeconds - now));
      calls.set(key, recent);
      refuse(BRIDGE_ERRORS.rate_limited.code, `more than ${limits.rateCalls} bridge calls in ${limits.rateWindowSeconds} s`, retryAfter);
    }
    calls.set(key, [...recent, now]);
  }

  function kvOp(s: HostSession, args: Record<string, unknown>): Record<string, unknown> {
    const scope = args.scope ?? 'user';
    if (typeof scope !== 'string' || !(KV_SCOPES as readonly string[]).includes(scope)) {
      refuse(BRIDGE_ERRORS.invalid_args.code, `scope ${JSON.stringify(scope)} is not user or shared; other content scopes are reserved`);
    }
    const action = args.action;
    const key = str(args, 'key');
    if (scope === 'shared' && s.content === 'catalog') {
      refuse(BRIDGE_ERRORS.scope_unavailable.code, "the shared scope does not exist for an app's own catalog row");
    }
    const writes = action === 'set' || action === 'delete';
    const user = scope === 'user' || writes ? signedIn(s, `host.kv ${scope} ${String(action)}`) : owner(s);
    const store = `${s.postId}\u0000${scope}\u0000${scope === 'user' ? user : ''}`;
    const values = kv.get(store) ?? new Map<string, unknown>();
    switch (action) {
      case 'get':
        if (!values.has(key)) refuse(BRIDGE_ERRORS.not_found.code, `no key ${JSON.stringify(key)} in the ${scope} scope`);
        return { key, value: values.get(key) };
      case 'set': {
        if (!('value' in args)) refuse(BRIDGE_ERRORS.invalid_args.code, 'host.kv set needs a value');
        const bytes = new TextEncoder().encode(JSON.stringify(args.value ?? null)).byteLength;
        if (bytes > limits.kvValueBytes) refuse(BRIDGE_ERRORS.quota_exceeded.code, `the value is ${bytes} bytes; the cap is ${limits.kvValueBytes}`);
        if (!values.has(key) && values.size >= limits.kvKeys)
          refuse(BRIDGE_ERRORS.quota_exceeded.code, `the ${scope} scope holds ${limits.kvKeys} keys, its cap`);
        values.set(key, args.value ?? null);
        kv.set(store, values);
        return { key };
      }
      case 'delete':
        if (!values.delete(key)) refuse(BRIDGE_ERRORS.not_found.code, `no key ${JSON.stringify(key)} in the ${scope} scope`);
        return { key };
      default:
        return refuse(BRIDGE_ERRORS.invalid_args.code, 'host.kv action must be get, set or delete');
    }
  }

  async function fnOp(s: HostSession, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const name = str(args, 'name');
    const id = `${s.postId}\u0000${name}`;
    if (args.action === 'publish') {
      signedIn(s, 'host.fn publish');
      if (typeof args.source !== 'string') refuse(BRIDGE_ERRORS.invalid_args.code, 'host.fn publish needs a source string');
      const bytes = new TextEncoder().encode(args.source as string).byteLength;
      if (bytes > limits.functionSourceBytes) {
        // Refused at publish, so a later call finds nothing (CODE_TOO_LARGE, then FN_NOT_FOUND).
        functions.delete(id);
        refuse(BRIDGE_ERRORS.CODE_TOO_LARGE.code, `the source is ${bytes} bytes; the cap is ${limits.functionSourceBytes}`);
      }
      functions.set(id, { tool: name, file: `fn/${name}.js`, source: args.source as string });
      return { name, bytes };
    }
    if (args.action !== 'call') refuse(BRIDGE_ERRORS.invalid_args.code, 'host.fn action must be publish or call');
    const fn = functions.get(id) ?? refuse(BRIDGE_ERRORS.FN_NOT_FOUND.code, `no function ${JSON.stringify(name)} is published`);
    const run = await ports.runFunction(fn, objectArg(args.args));
    return run.ok ? { value: run.value } : refuse(run.code, run.message);
  }

  function riskyOp(s: HostSession, op: string): never {
    signedIn(s, op);
    return refuse(BRIDGE_ERRORS.permission.code, `${op} needs a risk tier this host grants to no app`);
  }

  function liveOp(s: HostSession, args: Record<string, unknown>): Record<string, unknown> {
    if (s.cacheDown) refuse(BRIDGE_ERRORS.service_unavailable.code, 'the cache store is unavailable; host.live fails closed');
    const now = ports.clock.now();
    switch (args.action) {
      case 'create': {
        const user = signedIn(s, 'host.live create');
        const kind = str(args, 'kind');
        if (!(LIVE_KINDS as readonly string[]).includes(kind))
          refuse(BRIDGE_ERRORS.unsupported_kind.code, `no dispatcher for the kind ${JSON.stringify(kind)}`);
        const transports = Array.isArray(args.transports) ? args.transports : DEFAULT_LIVE_TRANSPORTS;
        if (!transports.every((t) => (LIVE_TRANSPORTS as readonly unknown[]).includes(t))) {
          refuse(BRIDGE_ERRORS.invalid_args.code, `transports must be among ${LIVE_TRANSPORTS.join(', ')}`);
        }
        const ttl = typeof args.ttlSeconds === 'number' && args.ttlSeconds >= 0 ? args.ttlSeconds : limits.liveTtlSeconds;
        const liveId = `${kind}:${s.postId}-${++serial}`;
        live.set(liveId, { owner: user, kind, transports: transports as string[], expiresAt: now + ttl, private: args.private === true });
        return { liveId, expiresAt: now + ttl };
      }
      case 'attach': {
        const liveId = typeof args.liveId === 'string' ? args.liveId : refuse(BRIDGE_ERRORS.invalid_args.code, 'host.live attach needs a liveId');
        const kind = /^([a-z]+):./.exec(liveId)?.[1];
        if (kind === undefined) refuse(BRIDGE_ERRORS.invalid_args.code, 'a liveId has the form <kind>:<id>');
        if (!(LIVE_KINDS as readonly string[]).includes(kind!))
          refuse(BRIDGE_ERRORS.unsupported_kind.code, `no dispatcher for the kind ${JSON.stringify(kind)}`);
        const entry = live.get(liveId) ?? refuse(BRIDGE_ERRORS.not_found.code, `no live id ${JSON.stringify(liveId)}`);
        if (now >= entry.expiresAt) refuse(BRIDGE_ERRORS.expired.code, `${liveId} expired`);
        if (entry.private && entry.owner !== owner(s)) refuse(BRIDGE_ERRORS.permission.code, `${liveId} is private to its creator`);
        const transport = args.transport ?? 'sse';
        if (typeof transport !== 'string' || !entry.transports.includes(transport)) {
          refuse(BRIDGE_ERRORS.unsupported_transport.code, `the producer of ${liveId} serves ${entry.transports.join(', ')}, not ${String(transport)}`);
        }
        const held = [...attachments.values()].filter((a) => a.owner === `${s.postId}\u0000${owner(s)}`).length;
        if (held >= limits.liveCap) refuse(BRIDGE_ERRORS.cap_exceeded.code, `this session holds ${held} live attachments, the cap; release one`);
        const attachId = `attach-${++serial}`;
        attachments.set(attachId, { owner: `${s.postId}\u0000${owner(s)}`, liveId });
        return { attachId, liveId, transport };
      }
      case 'release': {
        const attachId = typeof args.attachId === 'string' ? args.attachId : '';
        if (!attachments.delete(attachId)) refuse(BRIDGE_ERRORS.not_found.code, `no attachment ${JSON.stringify(attachId)}`);
        return { attachId };
      }
      default:
        return refuse(BRIDGE_ERRORS.invalid_args.code, 'host.live action must be create, attach or release');
    }
  }

  function collabOp(): never {
    if (ports.collabAvailable?.()) refuse(BRIDGE_ERRORS.internal.code, 'the reference has no collaboration client');
    return refuse(BRIDGE_ERRORS.service_unavailable.code, 'the collaboration server is unavailable; host.collab fails closed');
  }

  async function callToolOp(s: HostSession, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const name = typeof args.name === 'string' ? args.name : refuse(BRIDGE_ERRORS.invalid_args.code, 'callTool needs a tool name');
    const run = await ports.callTool(s, name, objectArg(args.args));
    return run.ok ? { value: run.value } : refuse(run.code, run.message);
  }

  return {
    /** Answers one bridge call; never rejects. */
    async dispatch(session: HostSession, op: string, args: unknown): Promise<HostAnswer> {
      try {
        if (args === null || typeof args !== 'object' || Array.isArray(args)) refuse(BRIDGE_ERRORS.invalid_args.code, 'the arguments must be an object');
        rateLimit(session);
        const a = args as Record<string, unknown>;
        switch (op) {
          case 'callTool':
            return { ok: true, result: await callToolOp(session, a) };
          case 'host.kv':
            return { ok: true, result: kvOp(session, a) };
          case 'host.fn':
            return { ok: true, result: await fnOp(session, a) };
          case 'host.shell':
          case 'host.python':
            return riskyOp(session, op);
          case 'host.live':
            return { ok: true, result: liveOp(session, a) };
          case 'host.collab':
            return collabOp();
          default:
            return refuse(BRIDGE_ERRORS.unknown_op.code, `this host has no operation ${JSON.stringify(op)}`);
        }
      } catch (error) {
        if (error instanceof Refusal)
          return { ok: false, code: error.code, message: error.message, ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }) };
        return { ok: false, code: BRIDGE_ERRORS.internal.code, message: `the ${op} handler threw: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

export type BridgeHost = ReturnType<typeof createBridgeHost>;

function objectArg(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
