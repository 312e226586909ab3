import { WebSocket } from 'ws';
import type { SocketOpening, TargetSocket, TargetResponse } from './target.js';

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

  constructor(
    private readonly ws: WebSocket,
    private readonly timeoutMs: number,
  ) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(text);
      else this.frames.push(text);
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
    if (queued !== undefined) return Promise.resolve(queued);
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
 * full and returned; a connection that fails outright rejects.
 */
export function openWebSocket(
  url: string,
  headers: ReadonlyArray<readonly [string, string]>,
  options: { readonly readTimeoutMs?: number; readonly connectTimeoutMs?: number } = {},
): Promise<SocketOpening> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(webSocketUrl(url), {
      headers: Object.fromEntries(headers.map(([n, v]) => [n, v])),
      handshakeTimeout: options.connectTimeoutMs ?? SOCKET_READ_TIMEOUT_MS,
    });
    const reader = new FrameReader(ws, options.readTimeoutMs ?? SOCKET_READ_TIMEOUT_MS);
    let settled = false;
    ws.once('open', () => {
      settled = true;
      resolve({ opened: true, socket: reader });
    });
    ws.once('unexpected-response', (_request, res) => {
      settled = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer: TargetResponse = {
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).flatMap(([n, v]) => (v === undefined ? [] : [[n, Array.isArray(v) ? v.join(', ') : v]]))),
          body: new Uint8Array(Buffer.concat(chunks)),
        };
        resolve({ opened: false, response: answer });
      });
      res.on('error', reject);
    });
    ws.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}
