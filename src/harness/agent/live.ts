import { Readable } from 'node:stream';
import { Agent } from 'undici';
import WebSocket from 'ws';
import { checkSignal } from '../check-scope.js';
import { closeDispatcher, DEFAULT_MAX_BODY_BYTES, exchangeName, liveRequest, readRefusal, targetFaultOf } from '../live-http.js';
import type { TargetResponse } from '../target.js';
import { randomBytes } from 'node:crypto';
import { CALLER_IDS, type CallerRole } from '../../contract/callers.js';
import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import type { SdkJwtAlgorithm } from '../../spec/sdk-auth.js';
import { publishOnFixtureHost, type FixtureAccess } from '../fixture-client.js';
import { requestUrlOf, type AgentRequest, type AgentTarget, type TokenClient, type UpgradeOutcome } from './agent-target.js';
import { callerKeySets, issuersUnder, sdkToken, type IssuerDirectory, type SdkTokenRequest } from './callers.js';

/**
 * The callers of a live run: self-issued SDK agents (2.2) whose key sets the run publishes on its fixture host, under
 * `/r/<run id>/issuers/`. An agent whose allow list is empty (or admits that host) verifies their tokens, and one whose
 * access block places them as the contract says (src/contract/callers.ts) sees each in its role.
 */
export interface LiveCallers {
  readonly fixture: FixtureAccess;
  readonly runId: string;
}

/** Why a live check has no caller token: the run has no fixture host to publish the callers' key sets on. */
export const NO_CALLERS_REASON =
  "needs the run's fixture host, which publishes the callers' key sets: run the agent with --base-url (the platform that hosts it) so the run starts one, and --fixture-url where the agent reaches it";

/** Any agent at a base URL, over HTTP through undici (WebSocket upgrades through ws). It can mint no caller tokens. */
export class LiveAgentTarget implements AgentTarget {
  readonly kind = 'live' as const;
  readonly description: string;
  readonly agentUrl: string;
  readonly servesOriginDirectory = false;
  readonly knownTokenTtl = null;
  private readonly dispatcher = new Agent({ connectTimeout: 5000, keepAliveTimeout: 2000 });
  private readonly issuers: IssuerDirectory | undefined;
  private published: Promise<void> | undefined;

  constructor(
    agentUrl: string,
    private readonly timeoutMs = 30_000,
    /** `run --agent-client ID:SECRET`: a client of the agent's token endpoint; the target is the agent itself by default. */
    private readonly client?: { readonly id: string; readonly secret: string; readonly target?: string },
    /** `run --max-body`: an answer whose body passes this many bytes fails its check. */
    private readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    /** The run's fixture host, where the callers' key sets are published; without it no caller token can be made. */
    private readonly callers?: LiveCallers,
  ) {
    this.agentUrl = agentUrl.replace(/\/+$/, '');
    this.description = this.agentUrl;
    this.issuers = callers ? issuersUnder(`${callers.fixture.url}/r/${callers.runId}/issuers`) : undefined;
  }

  /** Publishes the callers' key sets on the fixture host now (a failure is met again by the first check that needs them). */
  async warmUp(): Promise<void> {
    if (!this.issuers) return;
    await (this.published ??= this.publishIssuers()).catch(() => undefined);
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

  /** A token of the caller (a self-issued agent whose key set the run published); null without a fixture host. */
  async token(role: CallerRole, algorithm?: SdkJwtAlgorithm): Promise<string | null> {
    return this.sdkToken({ issuer: role, ...(algorithm ? { algorithm } : {}) });
  }

  /**
   * A token of one of the callers the contract names (src/contract/callers.ts), good or broken as asked; null for
   * issuers whose fate depends on how the agent's auth skill is configured (denied, trusted, Portal authority), and
   * without a fixture host.
   */
  async sdkToken(request: SdkTokenRequest): Promise<string | null> {
    if (!this.issuers || !(request.issuer in CALLER_IDS)) return null;
    await (this.published ??= this.publishIssuers());
    const ports = { clock: { now: () => Math.floor(Date.now() / 1000) }, random: { bytes: (n: number) => new Uint8Array(randomBytes(n)) } };
    return sdkToken(request, this.agentUrl, ports, this.issuers);
  }

  private async publishIssuers(): Promise<void> {
    const documents = Object.fromEntries(
      Object.entries(await callerKeySets(this.issuers)).map(([url, set]) => [
        url,
        { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: JSON.stringify(set) },
      ]),
    );
    await publishOnFixtureHost(this.callers!.fixture, documents, this.dispatcher);
  }

  variant(): null {
    return null;
  }

  tokenClient(): TokenClient | null {
    if (!this.client) return null;
    const own = new URL(this.agentUrl).pathname.split('/').filter(Boolean).pop() ?? '';
    // The agent itself, unless told another name: then the URL it names is not known to the run.
    const target = this.client.target ?? `@${own}`;
    return { id: this.client.id, secret: this.client.secret, target, targetUrl: target === `@${own}` ? this.agentUrl : null };
  }

  controlled(): null {
    return null;
  }

  /** In-flight exchanges (an agent still sending) are not waited for: the dispatcher is destroyed after a moment. */
  async close(): Promise<void> {
    await closeDispatcher(this.dispatcher);
  }
}
