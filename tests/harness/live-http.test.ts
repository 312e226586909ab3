import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CheckTimeout, checkSignal, runCheckScoped } from '../../src/harness/check-scope.js';
import { closeDispatcher, liveRequest, readRefusal, TargetFault } from '../../src/harness/live-http.js';
import { reachable } from '../../src/harness/reachability.js';

/**
 * Live reads are bounded whatever the target sends (issue 13): a cap on each body, a time for each phase, nothing
 * after the check that made them ended; and a target's faults on the wire are TargetFaults that say what it did.
 */
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));

let http: HttpServer;
let garbage: NetServer;
let silent: NetServer;
let base = '';
let garbageUrl = '';
let silentUrl = '';
const dispatcher = new Agent({ connectTimeout: 2000 });

function pump(res: import('node:http').ServerResponse, limit = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const more = () => {
    while (sent < limit) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return;
    }
    res.end();
  };
  res.on('drain', more);
  res.on('error', () => undefined);
  more();
}

beforeAll(async () => {
  http = createHttpServer((req, res) => {
    req.resume();
    res.on('error', () => undefined);
    const path = req.url ?? '/';
    if (path === '/small') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (path === '/endless') return pump(res.writeHead(200));
    if (path === '/declared-huge') return pump(res.writeHead(200, { 'content-length': String(1024 ** 3) }), 1024 ** 3);
    if (path === '/stall') return void res.writeHead(200).write('{');
    if (path === '/trickle') {
      res.writeHead(200);
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path === '/silent') return;
    if (path === '/headers') return void res.writeHead(200, { 'x-big': 'a'.repeat(100 * 1024) }).end('{}');
    if (path === '/redirect') return void res.writeHead(302, { location: '/redirect' }).end();
    if (path === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(BOMB.length) }).end(BOMB);
    if (path === '/reset') return void req.socket.resetAndDestroy();
    res.writeHead(404).end();
  });
  garbage = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.end('\u0000\u0001 not http at all\r\n\r\n');
  });
  silent = createNetServer((socket) => void socket.on('error', () => undefined));
  const listen = (server: HttpServer | NetServer) =>
    new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  base = await listen(http);
  garbageUrl = await listen(garbage);
  silentUrl = await listen(silent);
});

afterAll(async () => {
  await closeDispatcher(dispatcher, 100);
  http.closeAllConnections();
  for (const server of [http, garbage, silent]) server.close();
});

const get = (url: string, o: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  liveRequest({ url, method: 'GET', headers: [], body: null, dispatcher, timeoutMs: o.timeoutMs ?? 2000, maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024 });

async function fault(promise: Promise<unknown>): Promise<TargetFault> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'a TargetFault').toBeInstanceOf(TargetFault);
  return error as TargetFault;
}

describe('liveRequest', () => {
  test('reads an answer within its bounds', async () => {
    const answer = await get(`${base}/small`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(Buffer.from(answer.body).toString()).toBe('{"ok":true}');
  });

  test('an endless body fails once it passes the cap, having read no more', async () => {
    const started = Date.now();
    const f = await fault(get(`${base}/endless`, { maxBodyBytes: 256 * 1024 }));
    expect(f.code).toBe('BODY_OVER_CAP');
    expect(f.message).toContain("the answer's body passed 262144 bytes (GET /endless)");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a Content-Length past the cap fails at once, unread', async () => {
    const f = await fault(get(`${base}/declared-huge`, { maxBodyBytes: 1024 }));
    expect(f.message).toContain('whose Content-Length announced 1073741824');
  });

  test('a body stalled after the headers, or one that trickles on, ends within the per-request timeout', async () => {
    const started = Date.now();
    expect((await fault(get(`${base}/stall`, { timeoutMs: 300 }))).message).toMatch(/GET \/stall/);
    expect((await fault(get(`${base}/trickle`, { timeoutMs: 300 }))).message).toContain('did not end within 300 ms of its headers');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a target that never answers: no status and headers within the timeout', async () => {
    expect((await fault(get(`${base}/silent`, { timeoutMs: 300 }))).message).toContain(
      'the target sent no answer (status and headers) to GET /silent within 300 ms',
    );
  });

  test("headers past undici's limit, bytes that are not HTTP and a reset connection are the target's faults, named", async () => {
    expect((await fault(get(`${base}/headers`))).message).toMatch(/^the target's response headers to GET \/headers exceed undici's limit \(\d+ bytes/);
    expect((await fault(get(`${garbageUrl}/`))).message).toMatch(/^the target's answer to GET \/ is not HTTP\/1\.1/);
    expect((await fault(get(`${base}/reset`))).message).toMatch(/^the target (reset|closed) the connection during GET \/reset/);
  });

  test('redirects are not followed and bodies not decompressed: the answer is what came', async () => {
    const redirect = await get(`${base}/redirect`);
    expect(redirect.status).toBe(302);
    const gzip = await get(`${base}/gzip`);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.byteLength).toBe(BOMB.length);
  });

  test('a request stops when the check that made it ends', async () => {
    const started = Date.now();
    let background: Promise<unknown> | undefined;
    const error = await runCheckScoped(
      async () => {
        background = get(`${base}/silent`, { timeoutMs: 60_000 }).catch((e: unknown) => e);
        await background;
      },
      { timeoutMs: 500 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckTimeout);
    expect((error as Error).message).toMatch(/^the check did not finish within \d+ ms .*: it was still waiting for the target's answer to GET \/silent$/);
    expect(await background).toBeInstanceOf(TargetFault);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('runCheckScoped', () => {
  test('the check signal is aborted once the check settles, and absent outside a check', async () => {
    let signal: AbortSignal | undefined;
    const body = () => {
      signal = checkSignal();
      return 42;
    };
    expect(await runCheckScoped(body, { timeoutMs: 1000 })).toBe(42);
    expect(signal?.aborted).toBe(true);
    expect(checkSignal()).toBeUndefined();
  });

  test('a run cancelled from outside aborts the check signal', async () => {
    const cancel = new AbortController();
    let seen: AbortSignal | undefined;
    const running = runCheckScoped(
      async () => {
        seen = checkSignal();
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
      { timeoutMs: 1000, signal: cancel.signal },
    );
    cancel.abort(new Error('cancelled'));
    expect(seen?.aborted).toBe(true);
    await running;
  });
});

describe('readRefusal', () => {
  function answerOf(path: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => httpRequest(`${base}${path}`, resolve).on('error', reject).end());
  }

  test('reads a refusal up to the cap, and no further', async () => {
    const small = await readRefusal(await answerOf('/small'), { what: 'GET /small', timeoutMs: 1000, maxBodyBytes: 1024 });
    expect(Buffer.from(small.body).toString()).toBe('{"ok":true}');
    expect((await fault(readRefusal(await answerOf('/endless'), { what: 'GET /endless', timeoutMs: 5000, maxBodyBytes: 256 * 1024 }))).code).toBe(
      'BODY_OVER_CAP',
    );
    expect((await fault(readRefusal(await answerOf('/stall'), { what: 'GET /stall', timeoutMs: 200, maxBodyBytes: 1024 }))).message).toContain(
      'did not end within 200 ms',
    );
  });
});

describe('reachable', () => {
  test('a target that answers with a fault is reachable, the fault named; one that never answers is not', async () => {
    expect(await reachable(`${base}/small`, 1000)).toEqual({ ok: true });
    expect(await reachable(`${base}/endless`, 1000)).toEqual({ ok: true });
    expect(await reachable(`${base}/stall`, 1000)).toEqual({ ok: true });
    expect(await reachable(`${base}/headers`, 1000)).toMatchObject({ ok: true, fault: expect.stringContaining("exceed undici's limit") });
    expect(await reachable(garbageUrl, 1000)).toMatchObject({ ok: true, fault: expect.stringContaining('is not HTTP/1.1') });
    expect(await reachable(silentUrl, 300)).toMatchObject({ ok: false, why: expect.stringContaining('did not answer within 300 ms') });
  });
});
