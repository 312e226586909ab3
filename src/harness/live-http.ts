import { maxHeaderSize, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { awaiting, checkSignal } from './check-scope.js';
import type { TargetResponse } from './target.js';

/**
 * Reading a live target's answers with bounds, whatever it sends: each answer's body is read up to a cap, each phase
 * of an exchange (the status and headers, then the whole body) within the per-request timeout, and every read stops
 * when the check that made it ends. What a target does wrong on the wire (headers past undici's limit, bytes that are
 * not HTTP, a reset connection, an endless body) is a TargetFault: the check that met it fails with a sentence
 * naming the fault, and the run goes on; it is never mistaken for a fault of the harness.
 */

const MiB = 1024 * 1024;

/**
 * The largest answer body a live run reads (`run --max-body`). No check needs more than a few KiB of any answer; the
 * largest a conforming target may legitimately send is an echo probe reporting back a body of up to 50 MiB
 * (LIMITS.declaredEndpointBody), so the default leaves room above that, and bounds the run's memory.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * MiB;

/** What a run tells live targets beside its RunContext: handed to vitest with `provide`, read in suites/lib/target.ts. */
export interface LiveLimits {
  /** `run --max-body`: an answer whose body passes this many bytes fails its check. */
  readonly maxBodyBytes: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceLimits: LiveLimits;
  }
}

/** Something the target did wrong on the wire; the message names it in words a person can act on. */
export class TargetFault extends Error {
  override readonly name = 'TargetFault';
  constructor(
    message: string,
    /** The network error's code (ECONNRESET, UND_ERR_HEADERS_OVERFLOW...) or BODY_OVER_CAP, when there is one. */
    readonly code?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `POST /conformance/echo`: how a message names an exchange (the query cut short). */
export function exchangeName(method: string, url: string): string {
  let path = url;
  try {
    const parsed = new URL(url);
    path = parsed.pathname + parsed.search;
  } catch {}
  return `${method.toUpperCase()} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`;
}

function overCap(what: string, maxBodyBytes: number, announced?: number): TargetFault {
  return new TargetFault(
    `the answer's body passed ${maxBodyBytes} bytes (${what}${announced === undefined ? '' : `, whose Content-Length announced ${announced}`}): no check reads more than --max-body ${maxBodyBytes}, so the target sent an answer no check can judge`,
    'BODY_OVER_CAP',
  );
}

/** The plain sentence for a network error undici or node:http raised while talking to the target; undefined if it is not the target's. */
function describeNetworkFault(name: string, code: string, message: string, what: string, timeoutMs: number): string | undefined {
  switch (code) {
    case 'UND_ERR_HEADERS_OVERFLOW':
    case 'HPE_HEADER_OVERFLOW':
      return `the target's response headers to ${what} exceed undici's limit (${maxHeaderSize} bytes, Node's --max-http-header-size): the answer cannot be read`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `the target sent no answer (status and headers) to ${what} within ${timeoutMs} ms (the per-request timeout, run --timeout)`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `the target stopped sending the body of its answer to ${what} for ${timeoutMs} ms (the per-request timeout, run --timeout)`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `the target did not accept a connection for ${what} in time`;
    case 'UND_ERR_SOCKET':
      return `the target closed the connection during ${what} before its answer was complete`;
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return `the target's answer to ${what} does not have the length its Content-Length announced`;
    case 'ECONNRESET':
      return `the target reset the connection during ${what}`;
    case 'EPIPE':
      return `the target closed the connection while ${what} was being sent`;
    case 'ECONNREFUSED':
      return `the target refused the connection for ${what}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${what} could not reach the target (${code})`;
  }
  if (code.startsWith('HPE_') || name === 'HTTPParserError')
    return `the target's answer to ${what} is not HTTP/1.1: the parser refused it (${[code, message].filter(Boolean).join(': ')})`;
  return undefined;
}

/**
 * The error a check sees for `error`, raised during `what`: a TargetFault naming the target's fault, the reason a
 * read was stopped (its own timer, the cap, the check's end), or `error` itself when it is not the target's doing.
 */
export function targetFaultOf(error: unknown, what: string, timeoutMs: number, signal?: AbortSignal): unknown {
  if (error instanceof TargetFault) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof TargetFault) return reason;
    return new TargetFault(`${what} was abandoned: its check ended (${reason instanceof Error ? reason.message : String(reason)})`, 'CHECK_ENDED', {
      cause: error,
    });
  }
  const e = error as { name?: unknown; code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const described = describeNetworkFault(typeof e?.name === 'string' ? e.name : '', code, typeof e?.message === 'string' ? e.message : '', what, timeoutMs);
  return described ? new TargetFault(described, code || undefined, { cause: error }) : error;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

export interface LiveRequest {
  readonly url: string;
  readonly method: string;
  /** Name, value, name, value... */
  readonly headers: string[];
  readonly body: Buffer | Readable | null;
  readonly dispatcher: Dispatcher;
  /** Each phase of the exchange (the answer's status and headers, then its whole body) within this long. */
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

/**
 * One exchange with a live target, read in full within bounds: at most `maxBodyBytes` of body (an answer announcing
 * or sending more fails at once, unread), the headers within `timeoutMs`, the whole body within `timeoutMs` after them
 * (undici's bodyTimeout alone measures only silences, which a trickling body never makes), and nothing after the
 * running check ended. Redirects are not followed and bodies are not decompressed: the answer is what came.
 */
export async function liveRequest(r: LiveRequest): Promise<TargetResponse> {
  const what = exchangeName(r.method, r.url);
  const own = new AbortController();
  const scope = checkSignal();
  const signal = scope ? AbortSignal.any([scope, own.signal]) : own.signal;
  if (signal.aborted) throw targetFaultOf(signal.reason, what, r.timeoutMs, signal);
  const done = awaiting(what);
  try {
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(r.url, {
        method: r.method as Dispatcher.HttpMethod,
        headers: r.headers,
        body: r.body,
        dispatcher: r.dispatcher,
        headersTimeout: r.timeoutMs,
        bodyTimeout: r.timeoutMs,
        signal,
      });
    } catch (error) {
      throw targetFaultOf(error, what, r.timeoutMs, signal);
    }
    const headers = flatten(answer.headers);
    const body = await readCapped(answer.body, {
      what,
      contentLength: headers['content-length'],
      own,
      signal,
      timeoutMs: r.timeoutMs,
      maxBodyBytes: r.maxBodyBytes,
    });
    return { status: answer.statusCode, headers, body };
  } finally {
    done();
  }
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  o: {
    readonly what: string;
    readonly contentLength: string | undefined;
    readonly own: AbortController;
    readonly signal: AbortSignal;
    readonly timeoutMs: number;
    readonly maxBodyBytes: number;
  },
): Promise<Uint8Array> {
  const announced = o.contentLength !== undefined && /^\d+$/.test(o.contentLength.trim()) ? Number(o.contentLength.trim()) : undefined;
  if (announced !== undefined && announced > o.maxBodyBytes) {
    const fault = overCap(o.what, o.maxBodyBytes, announced);
    o.own.abort(fault);
    body.on('error', () => undefined);
    body.destroy();
    throw fault;
  }
  const timer = setTimeout(
    () =>
      o.own.abort(
        new TargetFault(`the target's answer to ${o.what} did not end within ${o.timeoutMs} ms of its headers (the per-request timeout, run --timeout)`),
      ),
    o.timeoutMs,
  );
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > o.maxBodyBytes) {
        const fault = overCap(o.what, o.maxBodyBytes);
        o.own.abort(fault);
        throw fault;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw targetFaultOf(error, o.what, o.timeoutMs, o.signal);
  } finally {
    clearTimeout(timer);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/**
 * The answer of a refused WebSocket upgrade (node:http's response, as ws hands it over), read with the same bounds
 * as any answer: at most `maxBodyBytes`, within `timeoutMs`, and not after the running check ended.
 */
export function readRefusal(
  res: IncomingMessage,
  o: { readonly what: string; readonly timeoutMs: number; readonly maxBodyBytes: number },
): Promise<TargetResponse> {
  return new Promise((resolve, reject) => {
    const signal = checkSignal();
    const done = awaiting(o.what);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const fail = (error: unknown) => {
      if (settled) return;
      finish();
      res.destroy();
      reject(error);
    };
    const onAbort = () => fail(targetFaultOf(signal?.reason, o.what, o.timeoutMs, signal));
    const timer = setTimeout(
      () =>
        fail(new TargetFault(`the target's answer to ${o.what} did not end within ${o.timeoutMs} ms of its headers (the per-request timeout, run --timeout)`)),
      o.timeoutMs,
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const declared = res.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > o.maxBodyBytes) return fail(overCap(o.what, o.maxBodyBytes, Number(declared)));
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > o.maxBodyBytes) fail(overCap(o.what, o.maxBodyBytes));
      else chunks.push(chunk);
    });
    res.on('end', () => {
      if (settled) return;
      finish();
      resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: new Uint8Array(Buffer.concat(chunks, size)) });
    });
    res.on('error', (error) => fail(targetFaultOf(error, o.what, o.timeoutMs)));
  });
}

/** Closes a dispatcher, destroying whatever it still holds after a moment (a target still sending is not waited for). */
export async function closeDispatcher(dispatcher: Dispatcher, graceMs = 1000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    dispatcher.close().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(timer);
  if (!closed) await dispatcher.destroy().catch(() => undefined);
}
