import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import type { TargetResponse } from '../target.js';
import { requestUrlOf, type AgentRequest, type AgentTarget, type TokenClient, type UpgradeOutcome } from './agent-target.js';

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

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
  ) {
    this.agentUrl = agentUrl.replace(/\/+$/, '');
    this.description = this.agentUrl;
  }

  async send(r: AgentRequest): Promise<TargetResponse> {
    const body = r.body ?? null;
    const answer = await request(requestUrlOf(this.agentUrl, r.path), {
      method: r.method as 'GET',
      headers: (r.headers ?? []).flat(),
      body: body instanceof ReadableStream ? Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>) : body ? Buffer.from(body) : null,
      dispatcher: this.dispatcher,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    return { status: answer.statusCode, headers: flatten(answer.headers), body: new Uint8Array(await answer.body.arrayBuffer()) };
  }

  upgrade(path: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<UpgradeOutcome> {
    const url = (this.agentUrl + path).replace(/^http/, 'ws');
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: Object.fromEntries(headers), handshakeTimeout: this.timeoutMs });
      socket.once('open', () => {
        socket.close();
        resolve({ opened: true });
      });
      socket.once('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ opened: false, response: { status: res.statusCode ?? 0, headers: flatten(res.headers), body: new Uint8Array(Buffer.concat(chunks)) } }),
        );
        res.on('error', reject);
      });
      socket.once('error', (error) => reject(error));
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

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
