import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import type { SignerJudge } from '../../client-judge/signer.js';
import { judgeTransfer } from '../../client-judge/transfer.js';
import type { ClientExchange, ClientFrame, ObservedRequest, ObservedResponse } from '../../client-judge/types.js';
import { purchaseAnswer, termsHeaders, type PaidSurface } from '../../purchase/machine/answers.js';
import { renderAnswer } from '../../reference/render.js';
import { createReferencePlatform, type ReferencePlatform } from '../../reference/platform.js';
import { REFERENCE_PRICED_PATH } from '../../reference/purchases.js';
import { requestUrl } from '../../reference/node-http.js';
import { writeRawAnswer } from '../../reference/serve.js';
import type { VerifiedRoute } from '../../reference/routes.js';
import type { ClientCase, ClientRoute } from '../../scenarios/clients/cases.js';
import { AGENT_MOUNT_PREFIX, AGENT_TRANSPORT_ROUTES } from '../../spec/agent-endpoints.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { PURCHASE_ERRORS, type PurchaseErrorCode } from '../../spec/purchase-errors.js';
import { PLATFORM_ROUTES, AUTH_SCHEMES } from '../../spec/wire.js';
import type { DocumentFetcher } from '../../verifier/ports.js';

/** The double's own route for a signed GET: 200 once the request verifies (not a path of the spec, which names none). */
const CLIENT_PROBE_PATH = '/api/client-probe';

/** The path of each route a case may name. */
export const CLIENT_ROUTE_PATHS: Readonly<Record<ClientRoute, string>> = Object.freeze({
  'cli-token': PLATFORM_ROUTES.cliToken,
  'mpp-credits': PLATFORM_ROUTES.mppCredits,
  priced: REFERENCE_PRICED_PATH,
  probe: CLIENT_PROBE_PATH,
  llm: PLATFORM_ROUTES.llmChatCompletions,
  uamp: `${AGENT_MOUNT_PREFIX}client-mode${AGENT_TRANSPORT_ROUTES.uamp}`,
});

/** Retry-After on the double's answers that carry one: a second, so a case waits little (7.4 gives no value). */
const DOUBLE_RETRY_AFTER_S = 1;
/** The most exchanges a case keeps; a client that goes on is still answered, but its report stays bounded. */
const MAX_EXCHANGES = 64;

/** The clock the double reads: the run's real one, or a virtual one shared with an in-process client. */
export interface DoubleClock {
  nowMs(): number;
}

export interface PlatformDoubleOptions {
  readonly clientCase: ClientCase;
  /** The double's origin, e.g. http://127.0.0.1:40123 (what APC_PLATFORM_URL says). */
  readonly origin: string;
  /** Reads the client's key sets and cards under the fetch rules of 5.2. */
  readonly fetcher: DocumentFetcher;
  /** The run's judge of signed requests, called as each request arrives. */
  readonly judge: SignerJudge;
  readonly clock: DoubleClock;
  /** The test token the case pays with (APC_CARD_TOKEN). */
  readonly cardToken: string;
  /** `--allow-insecure-fixtures`: plain-http agent URLs and documents on loopback are accepted. */
  readonly allowInsecureAgentUrls?: boolean;
}

/** What the double decided about an upgrade: refused (the answer it wrote), or accepted (hand it the socket). */
export type DoubleUpgrade = { readonly refused: ObservedResponse; readonly response: Response } | { readonly accept: (socket: WebSocket) => void };

export interface PlatformDouble {
  readonly origin: string;
  /** The host signatures must be made for. */
  readonly authority: string;
  /** The case's request URL (APC_REQUEST_URL). */
  readonly requestUrl: string;
  /** Every request of the case and its answer, in the order received. */
  readonly exchanges: readonly ClientExchange[];
  /** Every frame on the agent socket, either way, in order. */
  readonly frames: readonly ClientFrame[];
  /** Answers one request: the reference platform's answer, or the case's script. Never rejects. */
  handle(request: ObservedRequest): Promise<ObservedResponse>;
  /** Decides a WebSocket upgrade as the reference platform does (verified first), recorded as an exchange. */
  upgrade(request: ObservedRequest): Promise<DoubleUpgrade>;
}

function carriesCredential(request: ObservedRequest): boolean {
  return request.headers.some(([name, value]) => {
    const n = name.toLowerCase();
    return (
      n === HEADERS.paymentAuthorization || (n === HEADERS.authorization && value.trim().toLowerCase().startsWith(`${AUTH_SCHEMES.payment.toLowerCase()} `))
    );
  });
}

async function observed(response: Response): Promise<ObservedResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/**
 * A 503 may carry Retry-After (RFC 9110 10.2.3), and 7.4 tells a buyer asked for the same credential to re-present it
 * "after Retry-After": the double sends a second's Retry-After on every 503 of 7.4, so that the wait can be judged.
 */
function withRetryAfter(response: Response): Response {
  if (response.status !== 503 || response.headers.has(HEADERS.retryAfter)) return response;
  const headers = new Headers(response.headers);
  headers.set(HEADERS.retryAfter, String(DOUBLE_RETRY_AFTER_S));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The probe: a verified GET answered 200 with the agent it verified as. */
function probeRoute(): VerifiedRoute {
  return {
    name: CLIENT_PROBE_PATH,
    path: CLIENT_PROBE_PATH,
    access: 'verified',
    methods: {
      GET: (ctx) => renderAnswer({ status: 200, body: { ok: true, agent_url: ctx.verdict.kind === 'signature' ? ctx.verdict.agentUrl : null } }),
    },
  };
}

/**
 * A platform double for one client case (client mode): the reference platform's fetch handler (its paid routes and
 * rails, no widgets), its purchases answering a second's Retry-After, scripted by the case (docs/client-mode.md), recording every exchange. Each request is judged
 * on arrival by the run's signer judge (its clock, the documents readable then); the buyer's rules are judged over the
 * exchanges once the case ends.
 */
export function createPlatformDouble(options: PlatformDoubleOptions): PlatformDouble {
  const origin = options.origin.replace(/\/+$/, '');
  const authority = new URL(origin).host;
  const clock = { now: () => Math.floor(options.clock.nowMs() / 1000) };
  const platform: ReferencePlatform = createReferencePlatform({
    authority,
    origin,
    clock,
    fetcher: options.fetcher,
    ...(options.allowInsecureAgentUrls ? { allowInsecureAgentUrls: true } : {}),
    purchases: { retryAfterSeconds: DOUBLE_RETRY_AFTER_S },
    widgets: false,
    routes: [probeRoute()],
  });
  const purchases = platform.purchases!;
  const surface: PaidSurface = { problemBases: purchases.config.problemBases, terms: purchases.config.terms };
  const script = options.clientCase.script;
  const { request: asked } = options.clientCase;
  const exchanges: ClientExchange[] = [];
  let paidSeen = 0;
  let lastScripted: PurchaseErrorCode | undefined;

  function scripted(code: PurchaseErrorCode): Response {
    const record = PURCHASE_ERRORS[code];
    const answer = purchaseAnswer(record, surface, {
      ...(record.retryAfter ? { retryAfterSeconds: DOUBLE_RETRY_AFTER_S } : {}),
      // The purchase block's fields are not shown (2.6): the double names the purchase it says was settled.
      ...(code === 'funding_failed' ? { purchase: { id: `pur_${options.clientCase.id}`, status: 'settled' } } : {}),
    });
    return renderAnswer(answer);
  }

  /** What the case's script answers, or undefined for the platform's own answer. */
  function scriptedAnswer(request: ObservedRequest): { response: Response; by: string } | undefined {
    if (carriesCredential(request)) {
      const paid = script.paid ?? [];
      const code = paidSeen < paid.length ? paid[paidSeen] : script.afterwards === 'repeat' ? lastScripted : undefined;
      paidSeen++;
      if (code === undefined) return undefined;
      lastScripted = code;
      return { response: withRetryAfter(scripted(code)), by: `script: ${PURCHASE_ERRORS[code].status} ${code}` };
    }
    if (lastScripted !== undefined && script.unpaidAfter === 'served') {
      const body = { served: true, case: options.clientCase.id };
      return {
        response: renderAnswer({
          status: 200,
          headers: { [HEADERS.contentType]: MEDIA_TYPES.json, ...termsHeaders(surface.terms.url, surface.terms.version) },
          body,
        }),
        by: 'script: 200 served from the balance',
      };
    }
    return undefined;
  }

  async function platformAnswer(request: ObservedRequest): Promise<Response> {
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const response = await platform.fetch(
      new Request(request.url, {
        method: request.method,
        headers: request.headers.map(([n, v]) => [n, v] as [string, string]),
        ...(hasBody ? { body: request.body } : {}),
      }),
      { clientAddress: '127.0.0.1' },
    );
    if (script.settleAfter503 && response.status === 503) {
      // The charge the 503 left neither settled nor declined settles at the processor: the same credential then resumes it.
      await purchases.processorFinishes(options.cardToken, 'settled');
    }
    return withRetryAfter(response);
  }

  const frames: ClientFrame[] = [];
  const recordFrame = (from: ClientFrame['from'], text: string) => {
    if (frames.length < MAX_EXCHANGES) frames.push({ from, text, atMs: options.clock.nowMs(), afterExchanges: exchanges.length });
  };
  /** The socket as the agent socket route uses it, every frame either way recorded. */
  const tapped = (socket: WebSocket): WebSocket => {
    const tap = {
      get readyState() {
        return socket.readyState;
      },
      OPEN: socket.OPEN,
      send: (data: string) => {
        recordFrame('platform', String(data));
        socket.send(data);
      },
      on: (event: string, listener: (...args: unknown[]) => void) => {
        if (event === 'message')
          socket.on('message', (data: Buffer, isBinary: boolean) => {
            recordFrame('client', isBinary ? '' : data.toString());
            listener(data, isBinary);
          });
        else socket.on(event, listener);
        return tap;
      },
    };
    return tap as unknown as WebSocket;
  };
  const path = `${CLIENT_ROUTE_PATHS[asked.route]}${asked.query ? `?${asked.query}` : ''}`;
  return {
    origin,
    authority,
    requestUrl: asked.route === 'uamp' ? `${origin.replace(/^http/, 'ws')}${path}` : `${origin}${path}`,
    exchanges,
    frames,
    async upgrade(request) {
      const receivedAtMs = options.clock.nowMs();
      const signer = await options.judge.judge(request, { nowS: Math.floor(receivedAtMs / 1000), authority });
      const httpUrl = request.url.replace(/^ws/, 'http');
      const decision = await platform.upgrade(new Request(httpUrl, { method: 'GET', headers: request.headers.map(([n, v]) => [n, v] as [string, string]) }), {
        clientAddress: '127.0.0.1',
      });
      const response: ObservedResponse =
        'refuse' in decision ? await observed(decision.refuse.clone()) : { status: 101, headers: { upgrade: 'websocket' }, body: new Uint8Array(0) };
      if (exchanges.length < MAX_EXCHANGES)
        exchanges.push({ request, receivedAtMs, response, answeredAtMs: options.clock.nowMs(), signer, answeredBy: 'platform (upgrade)' });
      if ('refuse' in decision) return { refused: response, response: decision.refuse };
      return { accept: (socket) => decision.accept(tapped(socket)) };
    },
    async handle(request) {
      const receivedAtMs = options.clock.nowMs();
      const signer = await options.judge.judge(request, { nowS: Math.floor(receivedAtMs / 1000), authority });
      const transfer = await judgeTransfer(request, Math.floor(receivedAtMs / 1000));
      const own = scriptedAnswer(request);
      const response = own ? own.response : await platformAnswer(request);
      const answer = await observed(response);
      if (exchanges.length < MAX_EXCHANGES)
        exchanges.push({
          request,
          receivedAtMs,
          response: answer,
          answeredAtMs: options.clock.nowMs(),
          signer,
          ...(transfer ? { transfer } : {}),
          answeredBy: own ? own.by : 'platform',
        });
      return answer;
    },
  };
}

/** Reads a request's body up to one byte over the signed-request cap: enough to judge it (5.2, 8), never more held. */
async function readBody(message: IncomingMessage): Promise<Uint8Array> {
  const cap = LIMITS.signedRequestBody.value + 1;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of message as AsyncIterable<Buffer>) {
    const take = chunk.subarray(0, Math.max(0, cap - length));
    chunks.push(take);
    length += take.length;
    if (length >= cap) break;
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The header fields as sent: names and values in order, repeated names kept apart. */
function rawHeaders(message: IncomingMessage): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < message.rawHeaders.length; i += 2) pairs.push([message.rawHeaders[i]!.toLowerCase(), message.rawHeaders[i + 1]!]);
  return pairs;
}

export interface ListeningDouble {
  readonly double: PlatformDouble;
  close(): Promise<void>;
}

/**
 * A double on a loopback port: the port is bound first, so the double knows its own host; every request is read
 * (its body up to the cap), answered by `handle`, and written back. Closing drops every connection.
 */
export async function listenPlatformDouble(build: (origin: string) => PlatformDouble, host = '127.0.0.1'): Promise<ListeningDouble> {
  let double: PlatformDouble | undefined;
  const server: Server = createServer((message, res) => {
    void (async () => {
      try {
        const body = await readBody(message);
        const url = requestUrl(message, double!.authority);
        if (url === undefined) {
          res.writeHead(400, { [HEADERS.contentType]: MEDIA_TYPES.json }).end('{"error":{"code":"bad_request","message":"no request URL"}}');
          return;
        }
        const answer = await double!.handle({ method: message.method ?? 'GET', url, headers: rawHeaders(message), body });
        res.writeHead(answer.status, answer.headers);
        res.end(Buffer.from(answer.body));
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { [HEADERS.contentType]: MEDIA_TYPES.json });
        res.end(JSON.stringify({ error: { code: 'internal_error', message: error instanceof Error ? error.message : String(error) } }));
      }
    })();
  });
  // Upgrades (the agent socket): decided by the double as the platform decides them; a refusal is written as plain HTTP.
  const websockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (message: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = requestUrl(message, double!.authority);
      if (url === undefined) return socket.destroy();
      const decided = await double!.upgrade({ method: message.method ?? 'GET', url, headers: rawHeaders(message), body: new Uint8Array(0) });
      if ('refused' in decided) return void (await writeRawAnswer(socket, decided.response));
      websockets.handleUpgrade(message, socket, head, (ws) => decided.accept(ws));
    })().catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  double = build(`http://${host}:${port}`);
  return {
    double,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of websockets.clients) ws.terminate();
        websockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
