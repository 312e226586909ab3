import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { CaseDocument, CaseDocuments } from '../cases/types.js';

/**
 * Publishes agent documents (key sets, cards, key directories, and the faulty ones: redirects, errors,
 * slow or oversized bodies) on a loopback port, so a live deployment can fetch what the scenarios need.
 * A URL that is not published gets its connection reset, as a host that refuses it would.
 */
export interface FixtureHost {
  /** The origin documents are published under, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** Adds or replaces documents, keyed by absolute URL under `url` (or under `publicUrl` when set), or under an origin of `addOrigin`. */
  publish(documents: CaseDocuments): void;
  /** Paths requested so far, in order. */
  readonly requests: readonly string[];
  /**
   * Where other processes publish documents: POST a JSON object of documents with `Authorization: Bearer <adminToken>`.
   * Beside it, with the same token, `origin` (POST: an origin of its own, see `addOrigin`), `pace` (the run's pacer)
   * and `spend` (the run's spending allowance).
   */
  readonly adminUrl: string;
  readonly adminToken: string;
  /**
   * Opens another origin on this machine (a port of its own) and returns it, for a case that needs an origin no other
   * case shares (a key directory is read per origin). Refused when the deployment reaches the host through `publicUrl`,
   * which names one origin only.
   */
  addOrigin(): Promise<string>;
  close(): Promise<void>;
}

export interface FixtureHostOptions {
  readonly host?: string;
  readonly port?: number;
  /** The URL the deployment uses to reach this host, when it differs (a tunnel or proxy in front of it). */
  readonly publicUrl?: string;
  /** Upper bound of any delay_ms, so a fixture can never hold a run longer than this. */
  readonly maxDelayMs?: number;
  /** Answers `POST pace` (a JSON message in, a JSON answer out): the run's one failure pacer, which every suite file asks. */
  readonly pacer?: (message: unknown) => unknown;
  /** Answers `POST spend` (`{ amount }` in, the ledger's answer out): the run's one spending allowance (--spend-cap). */
  readonly spender?: (message: unknown) => unknown;
}

/** The paths of the publishing endpoints; documents never live under them. */
const FIXTURE_ADMIN_PREFIX = '/.conformance/';
const FIXTURE_ADMIN_PATH = `${FIXTURE_ADMIN_PREFIX}publish`;
const ADMIN_BODY_LIMIT = 8 * 1024 * 1024;
/** Origins of their own a run may open (a few cases need one); more is a harness fault. */
const MAX_EXTRA_ORIGINS = 32;

/** Why no origin of its own can be given, for the checks that need one. */
export const NO_EXTRA_ORIGIN_REASON =
  'the fixture host is reached through --fixture-url, one origin only; an origin of its own is given when the deployment reaches the fixture host directly (no --fixture-url)';

function bodyOf(document: CaseDocument): Buffer {
  if (document.body_base64 !== undefined) return Buffer.from(document.body_base64, 'base64');
  return Buffer.from(document.body ?? '', 'utf8');
}

function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

async function listen(server: Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startFixtureHost(options: FixtureHostOptions = {}): Promise<FixtureHost> {
  /** Documents by absolute URL (the published origin's, or an extra origin's). */
  const documents = new Map<string, CaseDocument>();
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const maxDelay = options.maxDelayMs ?? 8000;
  const host = options.host ?? '127.0.0.1';
  const servers: Server[] = [];
  const origins: string[] = [];

  const adminToken = randomBytes(16).toString('hex');
  let publishDocuments: (next: CaseDocuments) => void = () => {};
  let addOrigin: () => Promise<string> = async () => '';

  const answerJson = (res: ServerResponse, status: number, value: unknown) =>
    res.writeHead(status, { [HEADERS.contentType]: MEDIA_TYPES.json }).end(JSON.stringify(value));

  const admin = (req: IncomingMessage, res: ServerResponse, path: string) => {
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
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (path === FIXTURE_ADMIN_PATH) {
          publishDocuments(JSON.parse(text) as CaseDocuments);
          res.writeHead(204).end();
        } else if (path === `${FIXTURE_ADMIN_PREFIX}origin`) {
          if (options.publicUrl) answerJson(res, 409, { reason: NO_EXTRA_ORIGIN_REASON });
          else answerJson(res, 200, { url: await addOrigin() });
        } else if (path === `${FIXTURE_ADMIN_PREFIX}pace` && options.pacer) {
          answerJson(res, 200, options.pacer(text ? JSON.parse(text) : null) ?? {});
        } else if (path === `${FIXTURE_ADMIN_PREFIX}spend` && options.spender) {
          answerJson(res, 200, options.spender(text ? JSON.parse(text) : null) ?? {});
        } else res.writeHead(404).end();
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(400).end(error instanceof Error ? error.message : String(error));
      });
    });
  };

  /** A listener serving the documents published under `origin()`, its own origin. */
  const documentServer = (origin: () => string, takesAdmin: boolean) => {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      if (takesAdmin && path.startsWith(FIXTURE_ADMIN_PREFIX)) {
        admin(req, res, path);
        return;
      }
      requests.push(path);
      const document = documents.get(origin() + path);
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
    servers.push(server);
    return server;
  };

  let published = '';
  const server = documentServer(() => published, true);
  await listen(server, options.port ?? 0, host);
  const url = urlOf(server);
  published = (options.publicUrl ?? url).replace(/\/+$/, '');

  addOrigin = async () => {
    if (origins.length >= MAX_EXTRA_ORIGINS) throw new Error(`the fixture host opened ${MAX_EXTRA_ORIGINS} origins already`);
    let own = '';
    const extra = documentServer(() => own, false);
    await listen(extra, 0, host);
    own = urlOf(extra);
    origins.push(own);
    return own;
  };
  publishDocuments = (next: CaseDocuments) => {
    for (const [documentUrl, document] of Object.entries(next)) {
      const origin = [published, ...origins].find((o) => documentUrl.startsWith(`${o}/`));
      if (origin === undefined) throw new Error(`fixture document ${documentUrl} is not under ${published}`);
      documents.set(documentUrl, document);
    }
  };
  return {
    url: published,
    requests,
    adminUrl: `${url}${FIXTURE_ADMIN_PATH}`,
    adminToken,
    publish: publishDocuments,
    addOrigin: () => addOrigin(),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };
}
