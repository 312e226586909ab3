import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CaseDocuments, CaseRequest } from '../../src/cases/types.js';
import { caseRequestBody as caseBody } from '../../src/cases/request-body.js';

/** A case request as a WHATWG Request (an empty body is no body). */
export function fetchRequest(request: CaseRequest, extraHeaders: ReadonlyArray<readonly [string, string]> = []): Request {
  const body = caseBody(request);
  const headers = new Headers();
  for (const [name, value] of [...request.headers, ...extraHeaders]) headers.append(name, value);
  return new Request(request.url, { method: request.method, headers, body: body && body.length > 0 ? body : null });
}

export interface FixtureHost {
  readonly origin: string;
  readonly port: number;
  /** Documents by absolute URL; change it at will. */
  documents: CaseDocuments;
  readonly requested: string[];
  close(): Promise<void>;
}

/** A plain-http agent host on 127.0.0.1 serving documents by URL path (the agent's key set and card). */
export async function startFixtureHost(): Promise<FixtureHost> {
  const sockets = new Set<Socket>();
  const host: FixtureHost = {
    origin: '',
    port: 0,
    documents: {},
    requested: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const url = `${host.origin}${req.url ?? ''}`;
    host.requested.push(url);
    const document = host.documents[url];
    if (!document) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(document.status, document.headers ?? {});
    res.end(document.body_base64 !== undefined ? Buffer.from(document.body_base64, 'base64') : (document.body ?? ''));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  Object.assign(host, { origin: `http://127.0.0.1:${port}`, port });
  return host;
}
