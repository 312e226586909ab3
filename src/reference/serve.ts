import type { ErrorHook } from './error-hook.js';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isIP } from 'node:net';
import { isLoopbackAddress } from '../net/index.js';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createUndiciFetcher, type UndiciFetcher } from '../fetch/undici-fetcher.js';
import { createMemoryPorts, type MemoryPorts } from '../verifier/memory-ports.js';
import { ed25519VerifyOffThread } from '../httpsig/ed25519.js';
import type { Clock, DocumentFetcher, VerifierPorts } from '../verifier/ports.js';
import type { MemoryPurchaseStores, PurchaseStores, PurchaseStoresFactory } from './purchases.js';
import { normaliseClientAddress, requestUrl, toRequest, writeAnswer } from './node-http.js';
import { createReferencePlatform, type ReferencePlatform, type ReferencePlatformOptions } from './platform.js';
import { agentRoute, createMountedAgent, type ServedAgentOptions } from './agent/mount.js';
import type { StandardAgent } from './agent/standard-agent.js';
import { errorAnswer, type PlatformAnswer, render, renderAnswer } from './render.js';
import { hasSocketRoute } from './upgrade.js';
import { PLATFORM_ERROR_CODES } from './routes.js';
import { ReferenceTestControl } from './test-control.js';
import { answerTestControl } from './test-control-route.js';
import { TEST_CONTROL_PATH } from '../contract/test-control.js';
import { serviceNaming } from '../spec/naming.js';

import { DEFAULT_SERVE_HOST } from './defaults.js';

const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

/** Server-side time limits, so no client can hold a connection open forever. */
const SERVE_TIMEOUTS = Object.freeze({
  /** Headers must arrive within this. */
  headersMs: 10_000,
  /** The whole request (headers and body) must arrive within this. */
  requestMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: 5_000,
  /** A connection on which nothing moves for this long is destroyed (a stalled answer or a client that stopped reading). */
  idleMs: 60_000,
});

export interface ServeOptions<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores> {
  /** Address to bind; 127.0.0.1 by default. */
  readonly host?: string;
  /** 0 (the default) binds any free port. */
  readonly port?: number;
  /** `--allow-insecure-fixtures`: plain-http agent documents on loopback are fetched, http agent URLs accepted. */
  readonly allowInsecureFixtures?: boolean;
  /** The platform's own host; by default the bound `host:port`, the URL clients use. */
  readonly authority?: string;
  /**
   * A header naming the client's address, as a proxy in front of a deployment sets it. Honoured only from
   * loopback peers (the proxy); the first address listed is the client's.
   */
  readonly clientAddressHeader?: string;
  /** The reference agent served beside the platform at /agents/<name> on the same origin; none when absent. */
  readonly agent?: ServedAgentOptions;
  /** Called with every exception the platform or the agent catches while answering (they still answer 500). */
  readonly onError?: ErrorHook;
  /** The verifier's ports around the platform's clock and fetcher (stores shared by a fleet, src/stores/); in memory by default. */
  readonly ports?: (clock: Clock, fetcher: DocumentFetcher) => P;
  /** The purchase machine's stores (a database, src/stores/); in memory by default. */
  readonly purchaseStores?: PurchaseStoresFactory<T>;
  /**
   * `serve --test-control`: answer the test control of docs/contracts.md section 5 at TEST_CONTROL_PATH, to loopback
   * peers only. Off by default: without it that path is not the deployment's.
   */
  readonly testControl?: boolean;
  /** Anything else the platform takes (hosted agent keys, a clock, a fetcher, routes...). */
  readonly platform?: Omit<ReferencePlatformOptions<MemoryPorts>, 'authority' | 'allowInsecureAgentUrls' | 'ports' | 'purchaseStores'>;
}

export interface ServedReference<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores> {
  /** `http://HOST:PORT` as bound. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly platform: ReferencePlatform<P, T>;
  /** The agent served beside the platform, when asked for. */
  readonly agent?: StandardAgent;
  /** The node:http server (tests watch its connections). */
  readonly server: http.Server;
  /** Stops listening, ends every connection (keep-alive ones too) and releases the fetcher. */
  close(): Promise<void>;
}

/** An HTTP answer on a socket that asked to upgrade: status line, headers, body, then the connection closes. */
export async function writeRawAnswer(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers].filter(([n]) => n !== 'content-length' && n !== 'connection');
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`,
    ...headers.map(([n, v]) => `${n}: ${v}`),
    `content-length: ${body.length}`,
    'connection: close',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
}

function signaturesOffThread<P extends VerifierPorts>(ports: P): P {
  return { ...ports, ed25519: ed25519VerifyOffThread };
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function clientAddressOf(message: http.IncomingMessage, header: string | undefined): string {
  const peer = normaliseClientAddress(message.socket.remoteAddress);
  if (!header || !isLoopbackAddress(peer)) return peer;
  const named = message.headers[header.toLowerCase()];
  const first = (Array.isArray(named) ? named[0] : named)?.split(',')[0]?.trim();
  return first && isIP(first) ? normaliseClientAddress(first) : peer;
}

/**
 * Binds the reference platform to node:http. Request bodies are read only as far as the verifier needs
 * (never past the signed-request cap plus one byte); a request whose body was not read to the end is answered
 * with Connection: close and its connection is closed after the answer.
 */
export async function serveReference<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores>(
  options: ServeOptions<P, T> = {},
): Promise<ServedReference<P, T>> {
  const host = options.host ?? DEFAULT_SERVE_HOST;
  const sockets = new Set<Socket>();
  let platform: ReferencePlatform<P, T> | undefined;
  let agent: StandardAgent | undefined;
  let fallbackAuthority = '';
  const control = options.testControl ? new ReferenceTestControl() : undefined;

  const server = http.createServer(
    { requestTimeout: SERVE_TIMEOUTS.requestMs, headersTimeout: SERVE_TIMEOUTS.headersMs, keepAliveTimeout: SERVE_TIMEOUTS.keepAliveMs },
    (message, res) => {
      void answer(message, res);
    },
  );
  server.setTimeout(SERVE_TIMEOUTS.idleMs);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function respond(message: http.IncomingMessage): Promise<PlatformAnswer> {
    const url = requestUrl(message, fallbackAuthority);
    if (url === undefined || !platform) {
      return render(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, 'The request target or Host header is not one this platform can read.'));
    }
    let request: Request;
    try {
      request = toRequest(message, url);
    } catch {
      return render(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, 'The request header fields are not ones this platform can read.'));
    }
    if (control && url !== undefined && new URL(url).pathname === TEST_CONTROL_PATH) {
      // The peer itself, never a header a proxy sets: the control answers this machine only.
      return answerTestControl(request, normaliseClientAddress(message.socket.remoteAddress), control, platform.purchases);
    }
    return platform.answer(request, { clientAddress: clientAddressOf(message, options.clientAddressHeader) });
  }

  /** WebSocket upgrades: decided by the platform before the handshake; a refusal is written as plain HTTP. */
  const websockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (message: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = requestUrl(message, fallbackAuthority);
      if (url === undefined || !platform)
        return void writeRawAnswer(
          socket,
          renderAnswer(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, 'The upgrade target or Host header is not one this platform can read.')),
        );
      const request = toRequest(message, url);
      // The platform's own sockets (the agent socket /agents/NAME/uamp) are not the mounted agent's, though under its path.
      const pathname = new URL(url).pathname;
      const decision =
        agent?.owns(pathname) && !hasSocketRoute(platform.sockets, pathname)
          ? await agent.upgrade(request)
          : await platform.upgrade(request, { clientAddress: clientAddressOf(message, options.clientAddressHeader) });
      if ('refuse' in decision) return void writeRawAnswer(socket, decision.refuse);
      websockets.handleUpgrade(message, socket, head, (ws) => decision.accept(ws));
    })().catch(() => socket.destroy());
  });

  async function answer(message: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const response = await respond(message);
      // A body not read to the end stays on the socket: answer, then close rather than read the rest.
      await writeAnswer(response, res, { close: !message.complete });
    } catch {
      res.destroy();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const bound = `${urlHost(host)}:${port}`;
  fallbackAuthority = options.authority ?? bound;

  let fetcher: UndiciFetcher | undefined;
  try {
    const given = options.platform ?? {};
    if (!given.fetcher) fetcher = createUndiciFetcher({ allowInsecureLoopback: options.allowInsecureFixtures === true });
    /** What fetches agents' documents: the one given, or this serve's own. */
    const documents = given.fetcher ?? fetcher!;
    const origin = given.origin ?? `http://${options.authority ?? bound}`;
    if (options.agent)
      agent = await createMountedAgent(
        origin,
        {
          ...options.agent,
          ...(options.onError ? { onError: options.onError } : {}),
          ...(options.allowInsecureFixtures ? { allowInsecureIssuers: true } : {}),
          // The agent beside the platform answers 401s under the deployment's name for Service, as the platform does.
          ...(given.serviceName === undefined ? {} : { realm: serviceNaming(given.serviceName).realm }),
        },
        documents,
      );
    const served = agent;
    const clock = given.clock ?? systemClock;
    platform = createReferencePlatform<P, T>({
      ...given,
      // The agents the test control blocks join any the deployment blocks itself.
      ...(control ? { blockedAgents: control.blocking(given.blockedAgents ?? []) } : {}),
      // Signatures are checked off the event loop (libuv's thread pool): serve answers many requests at once.
      ports: signaturesOffThread(options.ports ? options.ports(clock, documents) : (createMemoryPorts(clock, documents) as VerifierPorts as P)),
      ...(options.purchaseStores ? { purchaseStores: options.purchaseStores } : {}),
      ...(served
        ? {
            routes: [...(given.routes ?? []), agentRoute(served, () => platform?.purchases?.config)],
            // The origin's key directory (2.4) lists the hosted agent's key beside any others given.
            hostedAgentKeys: () => [
              ...(typeof given.hostedAgentKeys === 'function' ? given.hostedAgentKeys() : (given.hostedAgentKeys ?? [])),
              ...(served.publicKey ? [served.publicKey] : []),
            ],
          }
        : {}),
      authority: options.authority ?? bound,
      origin: given.origin ?? `http://${options.authority ?? bound}`,
      ...(fetcher ? { fetcher } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      allowInsecureAgentUrls: options.allowInsecureFixtures === true,
    });
    if (control && platform.purchases) platform.purchases.testControl = control;
  } catch (error) {
    server.close();
    await fetcher?.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${bound}`,
    host,
    port,
    platform,
    ...(agent ? { agent } : {}),
    server,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        for (const client of websockets.clients) client.terminate();
        websockets.close();
        for (const socket of sockets) socket.destroy();
        await closed;
        await fetcher?.close();
      })()),
  };
}
