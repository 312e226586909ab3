import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADERS } from '../spec/headers.js';
import type { PlatformAnswer } from './render.js';

/** A Host header the URL parser cannot misread: a name or IPv4 address, or a bracketed IPv6 literal, and a port. */
const HOST_FIELD = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `::ffff:192.0.2.1` is the IPv4 client 192.0.2.1 on a dual-stack socket. */
export function normaliseClientAddress(address: string | undefined): string {
  if (address === undefined) return '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * The absolute URL the client asked for: `http://` + Host + the request target (origin-form), or the
 * absolute-form target itself. Undefined when neither gives a URL that can be trusted to parse as sent.
 */
export function requestUrl(message: IncomingMessage, fallbackAuthority: string): string | undefined {
  const target = message.url ?? '';
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).href;
    } catch {
      return undefined;
    }
  }
  if (!target.startsWith('/')) return undefined;
  const host = message.headers.host ?? fallbackAuthority;
  if (!HOST_FIELD.test(host)) return undefined;
  try {
    // Concatenated, never resolved against a base: a target such as //evil.example/x stays a path.
    const url = new URL(`http://${host}${target}`);
    return url.host === '' ? undefined : url.href;
  } catch {
    return undefined;
  }
}

function hasBody(message: IncomingMessage): boolean {
  if (message.headers['transfer-encoding'] !== undefined) return true;
  const length = message.headers[HEADERS.contentLength];
  return length !== undefined && length !== '0';
}

/**
 * A pull stream over the request body: at most one chunk is held ahead of the reader, so a reader that
 * stops (cancel) leaves the rest unread on the socket instead of buffered in memory.
 */
function bodyStream(message: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        message.pause();
        message.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) message.pause();
        });
        message.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        const fail = (error?: Error) => {
          if (settled) return;
          settled = true;
          controller.error(error ?? new Error('the client closed the connection before the body ended'));
        };
        message.once('error', fail);
        message.once('close', () => {
          if (!message.complete) fail();
        });
      },
      pull() {
        message.resume();
      },
      cancel() {
        settled = true;
        message.pause();
        message.removeAllListeners('data');
      },
    },
    { highWaterMark: 1 },
  );
}

/** node:http request to WHATWG Request. Header fields keep their received order into the Headers object. */
export function toRequest(message: IncomingMessage, url: string): Request {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const method = message.method ?? 'GET';
  // A WHATWG Request cannot carry a body on GET or HEAD; such a body is never read (and the connection closes).
  const body = method === 'GET' || method === 'HEAD' || !hasBody(message) ? null : bodyStream(message);
  return new Request(url, { method, headers, body, duplex: 'half' } as RequestInit & { duplex: 'half' });
}

/**
 * A platform answer to node:http: an answer the platform rendered itself goes out with its head in one write; a
 * Response is streamed (writeResponse).
 */
export async function writeAnswer(answer: PlatformAnswer, res: ServerResponse, options: { close: boolean }): Promise<void> {
  if (answer instanceof Response) return writeResponse(answer, res, options);
  res.statusCode = answer.status;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
  if (options.close) res.setHeader(HEADERS.connection, 'close');
  res.end(answer.body ?? undefined);
}

/** WHATWG Response to node:http, streaming the body with backpressure; stops when the client goes away. */
async function writeResponse(response: Response, res: ServerResponse, options: { close: boolean }): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (options.close) res.setHeader(HEADERS.connection, 'close');
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      // Held to the end of this turn of the event loop: a body that ends now goes out with its head in one write.
      res.cork();
      setImmediate(() => res.uncork());
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    reader.releaseLock();
  }
}
