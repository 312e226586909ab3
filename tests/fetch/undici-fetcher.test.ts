import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUndiciFetcher, type UndiciFetcherOptions } from '../../src/fetch/index.js';
import { parseAllowList } from '../../src/net/index.js';
import { LIMITS, MEDIA_TYPES } from '../../src/spec/index.js';
import { closedPort, startServer, TEST_CA, type Handler, type LocalServer } from './local-server.js';

const JWKS = '{"keys":[]}';
const PATH = '/.well-known/jwks.json';
const MAX = LIMITS.documentSize.value;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((resource) => resource.close()));
});

async function server(handler: Handler, options: Parameters<typeof startServer>[1] = {}): Promise<LocalServer> {
  const started = await startServer(handler, options);
  open.push(started);
  return started;
}

function fetcher(options: UndiciFetcherOptions = {}) {
  const created = createUndiciFetcher({ tls: { ca: TEST_CA }, ...options });
  open.push(created);
  return created;
}

const insecure = (options: UndiciFetcherOptions = {}) => fetcher({ allowInsecureLoopback: true, ...options });

/** A resolver that answers every name with these addresses, and counts its calls. */
function fakeLookup(...addresses: string[]): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, _options: unknown, callback: (error: null, result: Array<{ address: string; family: number }>) => void) => {
    calls.push(hostname);
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }) as unknown as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

const json: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': MEDIA_TYPES.json, 'X-Extra': 'yes' });
  response.end(JWKS);
};

describe('undici fetcher: answers', () => {
  it('reads a 200 document over https from loopback with --allow-insecure-fixtures', async () => {
    const site = await server(json);
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: true, url: site.origin + PATH, status: 200, headers: { 'content-type': MEDIA_TYPES.json, 'x-extra': 'yes' } });
    expect(outcome.ok && new TextDecoder().decode(outcome.body)).toBe(JWKS);
    expect(site.requests).toEqual([PATH]);
    expect(site.headers[0]?.accept).toContain(MEDIA_TYPES.json);
    expect(site.headers[0]?.accept).toContain(MEDIA_TYPES.keyDirectory);
  });

  it('checks the certificate against the host name while connecting to the vetted address', async () => {
    const site = await server(json);
    const lookup = fakeLookup('127.0.0.1');
    const outcome = await insecure({ lookup }).fetch(`https://localhost:${site.port}${PATH}`);
    expect(outcome.ok).toBe(true);
    expect(lookup.calls).toEqual(['localhost']);
    expect(site.headers[0]?.host).toBe(`localhost:${site.port}`);
  });

  it('refuses a 302 without following it', async () => {
    const target = await server(json);
    const site = await server((_request, response) => {
      response.writeHead(302, { location: target.origin + PATH });
      response.end();
    });
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'redirect', status: 302 });
    expect(!outcome.ok && outcome.detail).toContain(`with Location ${target.origin + PATH}`);
    expect(target.connections()).toBe(0);
  });

  it.each([404, 500, 204])('refuses %i', async (status) => {
    const site = await server((_request, response) => {
      response.writeHead(status);
      response.end();
    });
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'status', status });
    expect(!outcome.ok && outcome.detail).toBe(`${site.origin + PATH} answered ${status}; key sets and agent cards must answer 200`);
  });

  it('reads a body of exactly the limit', async () => {
    const site = await server((_request, response) => response.end(Buffer.alloc(MAX, 0x20)));
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome.ok && outcome.body.byteLength).toBe(MAX);
  });

  it('refuses a declared Content-Length over 64 KiB without reading the body', async () => {
    const site = await server((_request, response) => {
      response.writeHead(200, { 'content-length': MAX + 1 });
      response.write('{');
    });
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'too-large' });
    expect(!outcome.ok && outcome.detail).toContain(`declared Content-Length ${MAX + 1}`);
  });

  it('stops reading an undeclared body one byte over 64 KiB', async () => {
    const site = await server((_request, response) => {
      response.write(Buffer.alloc(MAX, 0x20));
      response.end('x');
    });
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'too-large' });
    expect(!outcome.ok && outcome.detail).toContain('64 KiB');
  });

  it('cuts off a server that streams forever', async () => {
    let sent = 0;
    let cutOff!: () => void;
    const closed = new Promise<void>((resolve) => (cutOff = resolve));
    const site = await server((_request, response) => {
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) sent += chunk.byteLength;
      };
      response.on('drain', pump);
      response.on('close', cutOff);
      pump();
    });
    const outcome = await insecure({ timeoutMs: 2000 }).fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'too-large' });
    await closed;
    expect(sent).toBeLessThan(16 * MAX);
  });
});

describe('undici fetcher: the deadline', () => {
  it('times out a server that answers after the deadline, within about the deadline', async () => {
    let timer: NodeJS.Timeout | undefined;
    const site = await server((_request, response) => {
      timer = setTimeout(() => response.end(JWKS), 1500);
    });
    const started = Date.now();
    const outcome = await insecure({ timeoutMs: 300 }).fetch(site.origin + PATH);
    const elapsed = Date.now() - started;
    clearTimeout(timer);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(!outcome.ok && outcome.detail).toContain('within 300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1000);
  });

  it('counts the body against the same deadline', async () => {
    const site = await server((_request, response) => {
      response.writeHead(200, { 'content-type': MEDIA_TYPES.json });
      response.write('{"keys":');
    });
    const started = Date.now();
    const outcome = await insecure({ timeoutMs: 300 }).fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('times out a resolver that never answers', async () => {
    const silent = (() => undefined) as unknown as LookupFunction;
    const started = Date.now();
    const outcome = await insecure({ timeoutMs: 300, lookup: silent }).fetch('https://stuck.example/.well-known/jwks.json');
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('undici fetcher: schemes and addresses', () => {
  it('refuses plain http without the insecure option, before connecting', async () => {
    const site = await server(json, { tls: false });
    const outcome = await fetcher().fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'not-https' });
    expect(!outcome.ok && outcome.detail).toContain('--allow-insecure-fixtures');
    expect(site.connections()).toBe(0);
  });

  it('reads plain http from loopback with the insecure option', async () => {
    const site = await server(json, { tls: false });
    const outcome = await insecure().fetch(site.origin + PATH);
    expect(outcome.ok).toBe(true);
  });

  it('refuses plain http to a name that resolves off loopback, even with the insecure option', async () => {
    const outcome = await insecure({ lookup: fakeLookup('10.0.0.1') }).fetch('http://fixtures.example/.well-known/jwks.json');
    expect(outcome).toMatchObject({ ok: false, reason: 'not-https' });
    expect(!outcome.ok && outcome.detail).toContain('resolves only to refused addresses: 10.0.0.1 is private-use (10.0.0.0/8)');
  });

  it.each(['127.0.0.1', '10.0.0.1', '::1', '::ffff:127.0.0.1', '0.0.0.0'])(
    'refuses a host name the resolver points at %s (DNS rebinding) without connecting',
    async (address) => {
      const site = await server(json);
      const outcome = await fetcher({ lookup: fakeLookup(address) }).fetch(`https://localhost:${site.port}${PATH}`);
      expect(outcome).toMatchObject({ ok: false, reason: 'address-refused' });
      expect(!outcome.ok && outcome.detail).toContain(`names localhost, which resolves only to refused addresses: ${address} is `);
      expect(site.connections()).toBe(0);
    },
  );

  it.each(['https://127.0.0.1:PORT', 'https://[::1]:PORT', 'https://[::ffff:7f00:1]:PORT', 'https://127.1:PORT', 'https://2130706433:PORT'])(
    'refuses the IP literal %s without connecting',
    async (origin) => {
      const site = await server(json);
      const outcome = await fetcher().fetch(origin.replace('PORT', String(site.port)) + PATH);
      expect(outcome).toMatchObject({ ok: false, reason: 'address-refused' });
      expect(!outcome.ok && outcome.detail).toContain('loopback');
      expect(!outcome.ok && outcome.detail).toContain('--allow-insecure-fixtures admits loopback');
      expect(site.connections()).toBe(0);
    },
  );

  it.each(['https://169.254.169.254/latest/meta-data', 'https://[fd00:ec2::254]/', 'https://[fe80::1]/', 'https://[::ffff:a9fe:a9fe]/'])(
    'refuses %s before any network access, even with an allow list of everything',
    async (url) => {
      const outcome = await insecure({ allowList: parseAllowList(['0.0.0.0/0', '::/0']) }).fetch(url);
      expect(outcome).toMatchObject({ ok: false, reason: 'address-refused' });
      expect(!outcome.ok && outcome.detail).toContain('are never fetched, whatever the allow list says');
    },
  );

  it('refuses a private IP literal before any network access', async () => {
    const outcome = await fetcher().fetch('https://10.1.2.3/.well-known/jwks.json');
    expect(outcome).toMatchObject({ ok: false, reason: 'address-refused' });
    expect(!outcome.ok && outcome.detail).toContain('points at 10.1.2.3, which is private-use (10.0.0.0/8)');
  });

  it('lets an allow-listed loopback address through over https without the insecure option', async () => {
    const site = await server(json);
    const outcome = await fetcher({ allowList: parseAllowList([`127.0.0.1:${site.port}`]) }).fetch(site.origin + PATH);
    expect(outcome.ok).toBe(true);
  });

  it('connects only to the vetted one of several resolved addresses', async (context) => {
    // 127.0.0.2 is loopback on Linux; elsewhere it cannot be bound and the test does not apply.
    const decoy = await server(json, { host: '127.0.0.2' }).catch(() => undefined);
    if (!decoy) return context.skip();
    const site = await server(json, { port: decoy.port });
    const outcome = await fetcher({ lookup: fakeLookup('127.0.0.2', '127.0.0.1'), allowList: parseAllowList(['127.0.0.1']) }).fetch(
      `https://localhost:${site.port}${PATH}`,
    );
    expect(outcome.ok).toBe(true);
    expect(site.requests).toEqual([PATH]);
    expect(decoy.connections()).toBe(0);
  });
});

describe('undici fetcher: failures to reach', () => {
  it('reports a refused connection', async () => {
    const port = await closedPort();
    const outcome = await insecure().fetch(`https://127.0.0.1:${port}${PATH}`);
    expect(outcome).toMatchObject({ ok: false, reason: 'network' });
    expect(!outcome.ok && outcome.detail).toContain('ECONNREFUSED');
  });

  it('reports a name that does not resolve', async () => {
    const lookup = ((_hostname: string, _options: unknown, callback: (error: NodeJS.ErrnoException) => void) => {
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' }));
    }) as unknown as LookupFunction;
    const outcome = await fetcher({ lookup }).fetch('https://nowhere.example/.well-known/jwks.json');
    expect(outcome).toMatchObject({ ok: false, reason: 'dns' });
    expect(!outcome.ok && outcome.detail).toContain('nowhere.example did not resolve (ENOTFOUND)');
  });

  it('reports an untrusted certificate', async () => {
    const site = await server(json);
    const outcome = await fetcher({ allowInsecureLoopback: true, tls: {} }).fetch(site.origin + PATH);
    expect(outcome).toMatchObject({ ok: false, reason: 'network' });
    expect(!outcome.ok && outcome.detail).toContain('TLS handshake failed');
    expect(!outcome.ok && outcome.detail).toContain('NODE_EXTRA_CA_CERTS=FILE');
  });

  it('refuses URLs it cannot fetch', async () => {
    const client = fetcher();
    await expect(client.fetch('not a url')).resolves.toMatchObject({ ok: false, reason: 'invalid-url' });
    await expect(client.fetch('ftp://a.example/x')).resolves.toMatchObject({ ok: false, reason: 'not-https' });
    await expect(client.fetch('https://user:pw@a.example/x')).resolves.toMatchObject({ ok: false, reason: 'invalid-url' });
  });

  it('answers after close without throwing', async () => {
    const client = fetcher();
    await client.close();
    await expect(client.fetch('https://a.example/x')).resolves.toMatchObject({ ok: false, reason: 'network' });
  });
});
