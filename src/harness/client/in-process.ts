import type { CaseDocuments } from '../../cases/types.js';
import { SignerJudge } from '../../client-judge/signer.js';
import { testToken } from '../../contract/test-tokens.js';
import { createMemoryFetcher } from '../../fetch/memory-fetcher.js';
import type { WebSocket } from 'ws';
import type { ClientClock, ClientEnvironment, ClientSocket, SocketConnect } from '../../reference/client/types.js';
import { CASE_WALLET_KEY, DEFAULT_CASE_BUYER, ELSEWHERE_HOST, type ClientCase } from '../../scenarios/clients/cases.js';
import { createPlatformDouble, type PlatformDouble } from './double.js';
import type { ClientCaseRun } from './results.js';

/** A clock for a client and a double in one process: sleeping moves it at once, so a Retry-After costs no time. */
export class VirtualClock implements ClientClock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  sleep(ms: number): Promise<void> {
    this.ms += Math.max(0, ms);
    return Promise.resolve();
  }
}

/** The fetch of a client in this process: straight to the double's handler, header fields in the order given. */
export type DoubleFetch = (
  url: string,
  init?: { method?: string; headers?: Array<[string, string]> | Record<string, string>; body?: Uint8Array | string },
) => Promise<Response>;

export function fetchOf(double: PlatformDouble): DoubleFetch {
  return async (url, init = {}) => {
    const headers = Array.isArray(init.headers) ? init.headers : Object.entries(init.headers ?? {});
    const body = init.body === undefined ? new Uint8Array(0) : typeof init.body === 'string' ? new TextEncoder().encode(init.body) : init.body;
    const answer = await double.handle({
      method: (init.method ?? 'GET').toUpperCase(),
      url: new URL(url).href,
      headers: headers.map(([n, v]) => [n.toLowerCase(), v] as const),
      body,
    });
    const nullBody = answer.status === 204 || answer.status === 304;
    return new Response(nullBody ? null : Buffer.from(answer.body), { status: answer.status, headers: answer.headers });
  };
}

/**
 * A socket pair in memory: the platform's side is what the double's agent socket route takes (send, on('message'),
 * readyState), the client's side what the reference client holds. Frames pass at once, in order.
 */
function socketPair(): { platform: WebSocket; client: ClientSocket } {
  const toClient: string[] = [];
  const waiting: Array<(text: string | null) => void> = [];
  const listeners: Array<(data: Buffer, isBinary: boolean) => void> = [];
  let open = true;
  const deliver = (text: string | null) => {
    const waiter = waiting.shift();
    if (waiter) waiter(text);
    else if (text !== null) toClient.push(text);
  };
  const platform = {
    OPEN: 1,
    get readyState() {
      return open ? 1 : 3;
    },
    send: (data: string) => deliver(String(data)),
    on: (event: string, listener: (data: Buffer, isBinary: boolean) => void) => {
      if (event === 'message') listeners.push(listener);
      return platform;
    },
  };
  const client: ClientSocket = {
    send: (text) => {
      // The platform reads frames one after another; handing each over on its own turn keeps that order.
      if (open) for (const listener of listeners) listener(Buffer.from(text), false);
    },
    next: (timeoutMs) => {
      const queued = toClient.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (!open) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        waiting.push((text) => {
          clearTimeout(timer);
          resolve(text);
        });
      });
    },
    close: () => {
      open = false;
      while (waiting.length) waiting.shift()!(null);
    },
  };
  return { platform: platform as unknown as WebSocket, client };
}

/** The agent socket of a client in this process: the double decides the upgrade; an accepted one gets a socket pair. */
function connectOf(double: PlatformDouble): SocketConnect {
  return async (url, headers) => {
    const decided = await double.upgrade({
      method: 'GET',
      url: new URL(url).href,
      headers: headers.map(([n, v]) => [n.toLowerCase(), v] as const),
      body: new Uint8Array(0),
    });
    if ('refused' in decided) return { refused: decided.refused.status };
    const { platform, client } = socketPair();
    decided.accept(platform);
    return client;
  };
}

/** A client run in this process (the self-test's reference clients, tests' independent clients): the case's environment, a fetch, a clock. */
export type InProcessClient = (
  env: ClientEnvironment,
  ports: { readonly fetch: DoubleFetch; readonly clock: ClientClock; readonly connect: SocketConnect },
) => Promise<unknown>;

/** What a case tells its buyer (APC_ALLOWED_HOSTS, APC_DAILY_CAP), for a double at `origin`. */
export function caseBuyer(clientCase: ClientCase, origin: string): { readonly allowedHosts: readonly string[]; readonly dailyCap: number | null } {
  const buyer = clientCase.buyer ?? DEFAULT_CASE_BUYER;
  return { allowedHosts: buyer.allowedHosts === 'platform' ? [new URL(origin).hostname] : [ELSEWHERE_HOST], dailyCap: buyer.dailyCap };
}

/** The environment a case gives its client (the APC_* variables, read). */
export function caseEnvironment(clientCase: ClientCase, double: PlatformDouble, cardToken: string): ClientEnvironment {
  return {
    ...caseBuyer(clientCase, double.origin),
    walletKey: clientCase.wallet ? CASE_WALLET_KEY : undefined,
    platformUrl: double.origin,
    caseId: clientCase.id,
    requestUrl: double.requestUrl,
    requestMethod: clientCase.request.method,
    requestBody: new TextEncoder().encode(clientCase.request.body ?? ''),
    requestContentType: clientCase.request.contentType,
    cardToken,
  };
}

export interface InProcessRunOptions {
  readonly cases: readonly ClientCase[];
  readonly client: InProcessClient;
  /** What the client publishes at its agent URL (key sets, cards), read under the fetch rules of 5.2 from memory. */
  readonly documents: CaseDocuments;
  /** Where the virtual clock starts; now by default. */
  readonly startMs?: number;
  /** The double's origin; https://platform.test by default. */
  readonly origin?: string;
  /** Real milliseconds a case may take before its client is given up on. */
  readonly timeLimitMs?: number;
}

/**
 * Runs client cases in this process, one double per case and one judge for the run, on a virtual clock: what the
 * self-test does with the reference client and its faults, and what tests do with independent clients.
 */
export async function runCasesInProcess(options: InProcessRunOptions): Promise<ClientCaseRun[]> {
  const fetcher = createMemoryFetcher(options.documents);
  const judge = new SignerJudge({ fetcher });
  const clock = new VirtualClock(options.startMs ?? Date.now());
  const runs: ClientCaseRun[] = [];
  let serial = 0;
  for (const clientCase of options.cases) {
    const cardToken = testToken(clientCase.token, `in-process-${serial++}`);
    const double = createPlatformDouble({ clientCase, origin: options.origin ?? 'https://platform.test', fetcher, judge, clock, cardToken });
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('stopped at its time limit'), options.timeLimitMs ?? 10_000)));
    const ended = await Promise.race([
      options.client(caseEnvironment(clientCase, double, cardToken), { fetch: fetchOf(double), clock, connect: connectOf(double) }).then(
        () => 'returned',
        (error: unknown) => `threw: ${error instanceof Error ? error.message : String(error)}`,
      ),
      limit,
    ]);
    clearTimeout(timer);
    runs.push({
      clientCase,
      exchanges: [...double.exchanges],
      frames: [...double.frames],
      ended,
      durationMs: Date.now() - started,
      buyer: caseBuyer(clientCase, double.origin),
    });
  }
  return runs;
}
