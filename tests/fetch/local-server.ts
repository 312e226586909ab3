import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

/** The self-signed loopback identity in tests/fixtures/tls (read only; generated once). */
export const TEST_CA = fixture('localhost.cert.pem');
const TEST_KEY = fixture('localhost.key.pem');

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface LocalServer {
  /** `https://127.0.0.1:PORT` (or http). */
  readonly origin: string;
  readonly port: number;
  /** Paths requested, in order. */
  readonly requests: string[];
  readonly headers: http.IncomingHttpHeaders[];
  /** TCP connections accepted (a refused fetch must leave this at 0). */
  readonly connections: () => number;
  close(): Promise<void>;
}

export interface ServerOptions {
  readonly tls?: boolean;
  readonly host?: string;
  readonly port?: number;
}

/** A server on a loopback address; close() drops every connection, so none outlives its test. */
export async function startServer(handler: Handler, options: ServerOptions = {}): Promise<LocalServer> {
  const tls = options.tls ?? true;
  const host = options.host ?? '127.0.0.1';
  const requests: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const listener: Handler = (request, response) => {
    requests.push(request.url ?? '');
    headers.push(request.headers);
    handler(request, response);
  };
  const server = tls ? https.createServer({ key: TEST_KEY, cert: TEST_CA }, listener) : http.createServer(listener);
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const printedHost = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `${tls ? 'https' : 'http'}://${printedHost}:${port}`,
    port,
    requests,
    headers,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => undefined, { tls: false });
  await server.close();
  return server.port;
}
