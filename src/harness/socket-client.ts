import { WebSocket } from 'ws';
import { checkSignal } from './check-scope.js';
import { DEFAULT_MAX_BODY_BYTES, exchangeName, readRefusal, TargetFault } from './live-http.js';
import type { SocketOpening, TargetSocket } from './target.js';

/** How long a check waits for the next frame before it fails (a deployment that never answers). */
export const SOCKET_READ_TIMEOUT_MS = 10_000;

/** `http(s)://` to `ws(s)://`. */
function webSocketUrl(url: string): string {
  return url.replace(/^http/i, 'ws');
}

class FrameReader implements TargetSocket {
  private readonly frames: string[] = [];
  private readonly waiters: Array<{ resolve: (text: string) => void; reject: (error: Error) => void }> = [];
  private ended: Error | undefined;
  /** Bytes of the frames received and not yet read: bounded, like any answer's body. */
  private queued = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly timeoutMs: number,
    private readonly maxQueuedBytes: number,
  ) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      const waiter = this.waiters.shift();
      if (waiter) return waiter.resolve(text);
      this.queued += text.length;
      if (this.queued > this.maxQueuedBytes) {
        this.end(new TargetFault(`the target sent more than ${this.maxQueuedBytes} bytes of frames nobody asked for (--max-body)`, 'BODY_OVER_CAP'));
        return void ws.terminate();
      }
      this.frames.push(text);
    });
    ws.on('close', (code) => this.end(new Error(`the socket closed (code ${code}) before the next frame`)));
    ws.on('error', (error) => this.end(new Error(`the socket failed: ${error.message}`)));
  }

  private end(error: Error): void {
    this.ended ??= error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.ended);
  }

  next(): Promise<string> {
    const queued = this.frames.shift();
    if (queued !== undefined) {
      this.queued -= queued.length;
      return Promise.resolve(queued);
    }
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new Error(`no frame arrived within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      const waiter = {
        resolve: (text: string) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.push(waiter);
    });
  }

  send(text: string): void {
    this.ws.send(text);
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Asks `url` to upgrade to a WebSocket with these header fields. A refusal (any HTTP answer but 101) is read in
 * full (up to `maxBodyBytes`, within the read timeout) and returned; a connection that fails outright rejects. A
 * socket opened within a check is closed when the check ends.
 */
export function openWebSocket(
  url: string,
  headers: ReadonlyArray<readonly [string, string]>,
  options: { readonly readTimeoutMs?: number; readonly connectTimeoutMs?: number; readonly maxBodyBytes?: number } = {},
): Promise<SocketOpening> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const readTimeoutMs = options.readTimeoutMs ?? SOCKET_READ_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(webSocketUrl(url), {
      headers: Object.fromEntries(headers.map(([n, v]) => [n, v])),
      handshakeTimeout: options.connectTimeoutMs ?? SOCKET_READ_TIMEOUT_MS,
      maxPayload: maxBodyBytes,
    });
    checkSignal()?.addEventListener('abort', () => ws.terminate(), { once: true });
    const reader = new FrameReader(ws, readTimeoutMs, maxBodyBytes);
    let settled = false;
    ws.once('open', () => {
      settled = true;
      resolve({ opened: true, socket: reader });
    });
    ws.once('unexpected-response', (_request, res) => {
      settled = true;
      readRefusal(res, { what: exchangeName('GET', url), timeoutMs: readTimeoutMs, maxBodyBytes }).then(
        (response) => resolve({ opened: false, response }),
        reject,
      );
    });
    ws.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}
