import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { HEADERS } from '../spec/headers.js';
import type { CaseDocument, CaseDocuments } from '../cases/types.js';

/**
 * Publishes agent documents (key sets, cards, key directories, and the faulty ones: redirects, errors,
 * slow or oversized bodies) on a loopback port, so a live deployment can fetch what the scenarios need.
 * A URL that is not published gets its connection reset, as a host that refuses it would.
 */
export interface FixtureHost {
  /** The origin documents are published under, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** Adds or replaces documents, keyed by absolute URL under `url` (or under `publicUrl` when set). */
  publish(documents: CaseDocuments): void;
  /** Paths requested so far, in order. */
  readonly requests: readonly string[];
  /** Where other processes publish documents: POST a JSON object of documents with `Authorization: Bearer <adminToken>`. */
  readonly adminUrl: string;
  readonly adminToken: string;
  close(): Promise<void>;
}

export interface FixtureHostOptions {
  readonly host?: string;
  readonly port?: number;
  /** The URL the deployment uses to reach this host, when it differs (a tunnel or proxy in front of it). */
  readonly publicUrl?: string;
  /** Upper bound of any delay_ms, so a fixture can never hold a run longer than this. */
  readonly maxDelayMs?: number;
}

/** The path of the publishing endpoint; documents never live under it. */
const FIXTURE_ADMIN_PATH = '/.conformance/publish';
const ADMIN_BODY_LIMIT = 8 * 1024 * 1024;

function bodyOf(document: CaseDocument): Buffer {
  if (document.body_base64 !== undefined) return Buffer.from(document.body_base64, 'base64');
  return Buffer.from(document.body ?? '', 'utf8');
}

export async function startFixtureHost(options: FixtureHostOptions = {}): Promise<FixtureHost> {
  const documents = new Map<string, CaseDocument>();
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const maxDelay = options.maxDelayMs ?? 8000;

  const adminToken = randomBytes(16).toString('hex');
  let publishDocuments: (next: CaseDocuments) => void = () => {};

  const admin = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers[HEADERS.authorization] !== `Bearer ${adminToken}` || req.method !== 'POST') {
      res.writeHead(403).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > ADMIN_BODY_LIMIT) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        publishDocuments(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CaseDocuments);
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(400).end(error instanceof Error ? error.message : String(error));
      }
    });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === FIXTURE_ADMIN_PATH) {
      admin(req, res);
      return;
    }
    requests.push(path);
    const document = documents.get(path);
    if (!document) {
      req.socket.destroy();
      return;
    }
    const answer = () => {
      timers.delete(timer);
      const body = bodyOf(document);
      res.writeHead(document.status, { 'content-length': String(body.length), ...(document.headers ?? {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const timer = setTimeout(answer, Math.min(document.delay_ms ?? 0, maxDelay));
    timers.add(timer);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const published = (options.publicUrl ?? url).replace(/\/+$/, '');

  publishDocuments = (next: CaseDocuments) => {
    for (const [documentUrl, document] of Object.entries(next)) {
      if (!documentUrl.startsWith(`${published}/`)) throw new Error(`fixture document ${documentUrl} is not under ${published}`);
      documents.set(documentUrl.slice(published.length), document);
    }
  };
  return {
    url: published,
    requests,
    adminUrl: `${url}${FIXTURE_ADMIN_PATH}`,
    adminToken,
    publish: publishDocuments,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
