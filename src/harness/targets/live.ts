import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { SignedRequestCase } from '../../cases/types.js';
import { randomNonce } from '../../httpsig/index.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { checkSignal } from '../check-scope.js';
import { FailureBudget } from '../failure-budget.js';
import { closeDispatcher, DEFAULT_MAX_BODY_BYTES, exchangeName, liveRequest, targetFaultOf } from '../live-http.js';
import { openWebSocket, SOCKET_READ_TIMEOUT_MS } from '../socket-client.js';
import type { Capability, SocketOpening, Target, TargetRequest, TargetResponse } from '../target.js';

export interface LiveTargetOptions {
  /** The deployment's base URL, e.g. https://platform.example or http://127.0.0.1:8787. */
  readonly baseUrl: string;
  /** Where the deployment reaches the fixture host, and how the run publishes documents there. */
  readonly fixture: { readonly url: string; readonly adminUrl: string; readonly token: string };
  /** A header the deployment takes the client address from (only where it honours one, e.g. behind a proxy). */
  readonly clientAddressHeader?: string;
  readonly runId: string;
  /** Per-request timeout: for the answer's status and headers, then again for its whole body. */
  readonly timeoutMs?: number;
  /** `run --max-body`: an answer whose body passes this many bytes fails its check (DEFAULT_MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number;
  /** Purchase checks may pay, at most this much (minor units) in all; absent: they never present a credential. */
  readonly spend?: { readonly capMinorUnits: number };
}

const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']);
const ATTEMPTS = 3;
const DEFAULT_TIMEOUT_MS = 10_000;

/** A wait of the running check (pacing, a retry): it ends early, rejecting, when the check ends. */
function checkSleep(ms: number): Promise<void> {
  const signal = checkSignal();
  return signal ? sleep(ms, undefined, { signal }) : sleep(ms);
}

/** A per-case address in 198.18.0.0/15 (benchmarking range), so one case's failures never count against another's. */
function caseAddress(caseId: string): string {
  const h = createHash('sha256').update(caseId).digest();
  return `198.${18 + (h[0]! & 1)}.${h[1]}.${h[2]! || 1}`;
}

export class LiveTarget implements Target {
  readonly kind = 'live' as const;
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly environment: Target['environment'];
  private readonly dispatcher = new Agent({ connectTimeout: 5000, keepAliveTimeout: 2000 });
  private readonly budget = new FailureBudget(
    () => Date.now(),
    (ms) => checkSleep(ms),
  );
  private readonly origin: string;
  private currentCase = '';
  private spendLeft: number;

  constructor(private readonly options: LiveTargetOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.description = options.baseUrl;
    this.capabilities = new Set<Capability>([
      ...(options.clientAddressHeader ? ['client-address' as const] : []),
      ...(options.spend ? ['spend' as const] : []),
    ]);
    this.spendLeft = options.spend?.capMinorUnits ?? 0;
    this.environment = {
      authority: base.host,
      platformOrigin: base.origin,
      agentOrigin: (caseId) => `${options.fixture.url}/r/${options.runId}/c/${caseId}`,
      now: () => Math.floor(Date.now() / 1000),
      nonce: () => randomNonce(),
    };
  }

  spend(amount: number): boolean {
    if (!this.options.spend || !Number.isFinite(amount) || amount < 0 || amount > this.spendLeft) return false;
    this.spendLeft -= amount;
    return true;
  }

  async ready(expectedFailures: number): Promise<void> {
    if (!this.options.clientAddressHeader) await this.budget.reserve(expectedFailures);
  }

  async prepare(c: SignedRequestCase): Promise<void> {
    this.currentCase = c.id;
    await this.publish(c.documents);
  }

  async step(_at: number, documents: SignedRequestCase['documents'] | undefined): Promise<void> {
    if (documents) await this.publish(documents);
  }

  async send(r: TargetRequest): Promise<TargetResponse> {
    // A request signed for another host (an alias) still goes to the target, naming that host in Host.
    const url = new URL(r.url);
    const headers: Array<[string, string]> = r.headers.map(([n, v]) => [n, v]);
    if (url.origin !== this.origin) headers.push([HEADERS.host, url.host]);
    const sendTo = `${this.origin}${url.pathname}${url.search}`;
    const addressHeader = this.options.clientAddressHeader;
    if (addressHeader) headers.push([addressHeader, r.clientAddress ?? caseAddress(this.currentCase)]);
    const signed = r.headers.some(([n]) => n.toLowerCase() === HEADERS.signatureInput);
    if (signed && !addressHeader) await this.budget.reserve();
    let response = await this.exchange({ ...r, url: sendTo }, headers);
    if (signed && !addressHeader && response.status === 401) {
      this.budget.record();
      // Failures the run could not see (an earlier run, another client) tripped the throttle. A throttled request
      // was refused before reading, so nothing of it was spent: wait out the window and send it once more.
      if (errorCodeOf(response) === AUTH_CODES.too_many_failed_signatures) {
        await checkSleep((LIMITS.failedSignaturesWindow.value + 2) * 1000);
        response = await this.exchange({ ...r, url: sendTo }, headers);
      }
    }
    return response;
  }

  /** Upgrades at the deployment itself; a signed upgrade counts against the failure budget like any signed request. */
  async openSocket(url: string, headers: ReadonlyArray<readonly [string, string]>): Promise<SocketOpening> {
    const { pathname, search } = new URL(url);
    const sent: Array<[string, string]> = headers.map(([n, v]) => [n, v]);
    const addressHeader = this.options.clientAddressHeader;
    if (addressHeader) sent.push([addressHeader, caseAddress(this.currentCase)]);
    const signed = headers.some(([n]) => n.toLowerCase() === HEADERS.signatureInput);
    if (signed && !addressHeader) await this.budget.reserve();
    const timeoutMs = this.options.timeoutMs ?? SOCKET_READ_TIMEOUT_MS;
    let opening: SocketOpening;
    try {
      opening = await openWebSocket(`${this.origin}${pathname}${search}`, sent, {
        readTimeoutMs: timeoutMs,
        connectTimeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      });
    } catch (error) {
      throw targetFaultOf(error, exchangeName('GET', url), timeoutMs, checkSignal());
    }
    if (signed && !addressHeader && !opening.opened && opening.response.status === 401) this.budget.record();
    return opening;
  }

  private async exchange(r: TargetRequest, headers: Array<[string, string]>): Promise<TargetResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await liveRequest({
          url: r.url,
          method: r.method,
          headers: headers.flat(),
          body: r.body?.length ? Buffer.from(r.body) : null,
          dispatcher: this.dispatcher,
          timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        });
      } catch (error) {
        // Only a connection that never carried the request is retried: a signed request sent twice is a replay.
        const code = (error as { code?: string }).code ?? '';
        if (attempt >= ATTEMPTS || !RETRYABLE.has(code) || code === 'ECONNRESET') throw error;
        await checkSleep(200 * attempt);
      }
    }
  }

  /** Documents outside the fixture host (another origin, the platform's own) cannot be published; the cases that name them never fetch them. */
  private async publish(all: SignedRequestCase['documents']): Promise<void> {
    const { adminUrl, token, url } = this.options.fixture;
    const documents = Object.fromEntries(Object.entries(all).filter(([documentUrl]) => documentUrl.startsWith(`${url}/`)));
    const answer = await request(adminUrl, {
      method: 'POST',
      headers: { [HEADERS.authorization]: `Bearer ${token}`, [HEADERS.contentType]: MEDIA_TYPES.json },
      body: JSON.stringify(documents),
      dispatcher: this.dispatcher,
    });
    await answer.body.dump();
    if (answer.statusCode !== 204) throw new Error(`the fixture host refused the documents (${answer.statusCode})`);
  }

  /** In-flight exchanges (a target still sending) are not waited for: the dispatcher is destroyed after a moment. */
  async close(): Promise<void> {
    await closeDispatcher(this.dispatcher);
  }
}

function errorCodeOf(response: TargetResponse): unknown {
  try {
    return (JSON.parse(Buffer.from(response.body).toString('utf8')) as { error_code?: unknown }).error_code;
  } catch {
    return undefined;
  }
}
