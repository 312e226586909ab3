import { Readable } from 'node:stream';
import { Agent } from 'undici';
import WebSocket from 'ws';
import { checkSignal } from '../check-scope.js';
import { closeDispatcher, DEFAULT_MAX_BODY_BYTES, exchangeName, liveRequest, readRefusal, targetFaultOf } from '../live-http.js';
import type { TargetResponse } from '../target.js';
import { requestUrlOf, type AgentRequest, type AgentTarget, type TokenClient, type UpgradeOutcome } from './agent-target.js';

/** Any agent at a base URL, over HTTP through undici (WebSocket upgrades through ws). It can mint no caller tokens. */
export class LiveAgentTarget implements AgentTarget {
  readonly kind = 'live' as const;
  readonly description: string;
  readonly agentUrl: string;
  readonly servesOriginDirectory = false;
  private readonly dispatcher = new Agent({ connectTimeout: 5000, keepAliveTimeout: 2000 });

  constructor(
    agentUrl: string,
    private readonly timeoutMs = 30_000,
    /** `run --agent-client ID:SECRET`: a client of the agent's token endpoint; the target is the agent itself by default. */
    private readonly client?: { readonly id: string; readonly secret: string; readonly target?: string },
    /** `run --max-body`: an answer whose body passes this many bytes fails its check. */
    private readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  ) {
    this.agentUrl = agentUrl.replace(/\/+$/, '');
    this.description = this.agentUrl;
  }

  async send(r: AgentRequest): Promise<TargetResponse> {
    const body = r.body ?? null;
    return liveRequest({
      url: requestUrlOf(this.agentUrl, r.path),
      method: r.method,
      headers: (r.headers ?? []).flat(),
      body: body instanceof ReadableStream ? Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>) : body ? Buffer.from(body) : null,
      dispatcher: this.dispatcher,
      timeoutMs: this.timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
    });
  }

  upgrade(path: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<UpgradeOutcome> {
    const url = (this.agentUrl + path).replace(/^http/, 'ws');
    const what = exchangeName('GET', this.agentUrl + path);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: Object.fromEntries(headers), handshakeTimeout: this.timeoutMs, maxPayload: this.maxBodyBytes });
      const signal = checkSignal();
      signal?.addEventListener('abort', () => socket.terminate(), { once: true });
      socket.once('open', () => {
        socket.close();
        resolve({ opened: true });
      });
      socket.once('unexpected-response', (_req, res) => {
        readRefusal(res, { what, timeoutMs: this.timeoutMs, maxBodyBytes: this.maxBodyBytes }).then((response) => resolve({ opened: false, response }), reject);
      });
      socket.on('error', (error) => reject(targetFaultOf(error, what, this.timeoutMs, signal)));
    });
  }

  async token(): Promise<null> {
    return null;
  }

  async sdkToken(): Promise<null> {
    return null;
  }

  variant(): null {
    return null;
  }

  tokenClient(): TokenClient | null {
    if (!this.client) return null;
    const own = new URL(this.agentUrl).pathname.split('/').filter(Boolean).pop() ?? '';
    return { id: this.client.id, secret: this.client.secret, target: this.client.target ?? `@${own}` };
  }

  controlled(): null {
    return null;
  }

  /** In-flight exchanges (an agent still sending) are not waited for: the dispatcher is destroyed after a moment. */
  async close(): Promise<void> {
    await closeDispatcher(this.dispatcher);
  }
}
