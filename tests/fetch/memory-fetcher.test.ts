import { describe, expect, it } from 'vitest';
import { createMemoryFetcher, type MemoryDocument } from '../../src/fetch/index.js';
import { LIMITS, MEDIA_TYPES } from '../../src/spec/index.js';

const JWKS_URL = 'https://agents.example/a/alice/.well-known/jwks.json';
const jwks: MemoryDocument = { status: 200, headers: { 'Content-Type': MEDIA_TYPES.json }, body: '{"keys":[]}' };
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('memory fetcher: answers', () => {
  it('serves a listed document with lower-case header names', async () => {
    const outcome = await createMemoryFetcher({ [JWKS_URL]: jwks }).fetch(JWKS_URL);
    expect(outcome).toMatchObject({ ok: true, url: JWKS_URL, status: 200, headers: { 'content-type': MEDIA_TYPES.json } });
    expect(outcome.ok && text(outcome.body)).toBe('{"keys":[]}');
  });

  it('decodes body_base64, which wins over body', async () => {
    const fetcher = createMemoryFetcher({ [JWKS_URL]: { status: 200, body: 'ignored', body_base64: Buffer.from('{"a":1}').toString('base64') } });
    const outcome = await fetcher.fetch(JWKS_URL);
    expect(outcome.ok && text(outcome.body)).toBe('{"a":1}');
  });

  it('serves an empty body when none is given', async () => {
    const outcome = await createMemoryFetcher({ [JWKS_URL]: { status: 200 } }).fetch(JWKS_URL);
    expect(outcome.ok && outcome.body.byteLength).toBe(0);
  });

  it('finds a document under another spelling of its URL', async () => {
    const fetcher = createMemoryFetcher({ 'HTTPS://Agents.Example:443/a/alice/.well-known/jwks.json': jwks });
    expect((await fetcher.fetch(`${JWKS_URL}#fragment`)).ok).toBe(true);
  });
});

describe('memory fetcher: every failure reason', () => {
  it('network: a URL not listed refuses the connection', async () => {
    const outcome = await createMemoryFetcher({}).fetch(JWKS_URL);
    expect(outcome).toMatchObject({ ok: false, reason: 'network' });
    expect(!outcome.ok && outcome.detail).toContain('connection refused');
  });

  it('redirect: a 3xx is refused with its Location and never followed', async () => {
    const fetcher = createMemoryFetcher({
      [JWKS_URL]: { status: 302, headers: { location: 'https://elsewhere.example/jwks.json' }, body: '' },
      'https://elsewhere.example/jwks.json': jwks,
    });
    const outcome = await fetcher.fetch(JWKS_URL);
    expect(outcome).toMatchObject({ ok: false, reason: 'redirect', status: 302 });
    expect(!outcome.ok && outcome.detail).toBe(
      `${JWKS_URL} answered 302 with Location https://elsewhere.example/jwks.json; key sets and agent cards must answer 200 directly, redirects are not followed`,
    );
    expect(fetcher.requests).toEqual([JWKS_URL]);
  });

  it.each([404, 500, 204])('status: %i', async (status) => {
    const outcome = await createMemoryFetcher({ [JWKS_URL]: { status } }).fetch(JWKS_URL);
    expect(outcome).toMatchObject({ ok: false, reason: 'status', status });
  });

  it('too-large: one byte over 64 KiB, and exactly 64 KiB passes', async () => {
    const max = LIMITS.documentSize.value;
    const fetcher = createMemoryFetcher({
      [JWKS_URL]: { status: 200, body: 'x'.repeat(max + 1) },
      'https://agents.example/exact': { status: 200, body: 'x'.repeat(max) },
    });
    expect(await fetcher.fetch(JWKS_URL)).toMatchObject({ ok: false, reason: 'too-large' });
    expect((await fetcher.fetch('https://agents.example/exact')).ok).toBe(true);
  });

  it('timeout: a delay over the limit, without sleeping', async () => {
    const fetcher = createMemoryFetcher({
      [JWKS_URL]: { ...jwks, delay_ms: LIMITS.documentFetchTimeout.value + 1 },
      'https://agents.example/on-time': { ...jwks, delay_ms: LIMITS.documentFetchTimeout.value },
    });
    const started = Date.now();
    expect(await fetcher.fetch(JWKS_URL)).toMatchObject({ ok: false, reason: 'timeout' });
    expect((await fetcher.fetch('https://agents.example/on-time')).ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('timeout wins over the status the late answer would have had', async () => {
    const outcome = await createMemoryFetcher({ [JWKS_URL]: { status: 302, delay_ms: 60_000 } }).fetch(JWKS_URL);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('not-https: plain http, unless insecure', async () => {
    const url = 'http://127.0.0.1:8080/.well-known/jwks.json';
    expect(await createMemoryFetcher({ [url]: jwks }).fetch(url)).toMatchObject({ ok: false, reason: 'not-https' });
    expect((await createMemoryFetcher({ [url]: jwks }, { allowInsecure: true }).fetch(url)).ok).toBe(true);
  });

  it('address-refused: IP literals and localhost names are judged like real addresses', async () => {
    const urls = ['https://127.0.0.1/j', 'https://10.0.0.1/j', 'https://[::1]/j', 'https://localhost/j', 'https://a.localhost./j'];
    const fetcher = createMemoryFetcher(Object.fromEntries(urls.map((url) => [url, jwks])));
    for (const url of urls) expect(await fetcher.fetch(url)).toMatchObject({ ok: false, reason: 'address-refused' });
    const loose = createMemoryFetcher(Object.fromEntries(urls.map((url) => [url, jwks])), { allowInsecure: true });
    expect((await loose.fetch('https://127.0.0.1/j')).ok).toBe(true);
    expect((await loose.fetch('https://localhost/j')).ok).toBe(true);
    expect(await loose.fetch('https://10.0.0.1/j')).toMatchObject({ ok: false, reason: 'address-refused' });
    expect(await createMemoryFetcher({ 'https://169.254.169.254/j': jwks }, { allowInsecure: true }).fetch('https://169.254.169.254/j')).toMatchObject({
      reason: 'address-refused',
    });
  });

  it('invalid-url', async () => {
    expect(await createMemoryFetcher({}).fetch('agents.example/jwks.json')).toMatchObject({ ok: false, reason: 'invalid-url' });
  });

  it('uses the limits it is given', async () => {
    const fetcher = createMemoryFetcher({ [JWKS_URL]: { ...jwks, delay_ms: 400 } }, { timeoutMs: 300, maxBytes: 5 });
    expect(await fetcher.fetch(JWKS_URL)).toMatchObject({ reason: 'timeout' });
    fetcher.replace({ [JWKS_URL]: jwks });
    expect(await fetcher.fetch(JWKS_URL)).toMatchObject({ reason: 'too-large' });
  });
});

describe('memory fetcher: replace and the request log', () => {
  it('logs every fetch in order, refused ones included', async () => {
    const fetcher = createMemoryFetcher({ [JWKS_URL]: jwks });
    await fetcher.fetch(JWKS_URL);
    await fetcher.fetch('http://agents.example/x');
    await fetcher.fetch(JWKS_URL);
    expect(fetcher.requests).toEqual([JWKS_URL, 'http://agents.example/x', JWKS_URL]);
  });

  it('replace swaps in the whole new set of documents', async () => {
    const other = 'https://agents.example/b/.well-known/jwks.json';
    const fetcher = createMemoryFetcher({ [JWKS_URL]: jwks });
    fetcher.replace({ [other]: { status: 404 } });
    expect(await fetcher.fetch(JWKS_URL)).toMatchObject({ ok: false, reason: 'network' });
    expect(await fetcher.fetch(other)).toMatchObject({ ok: false, reason: 'status', status: 404 });
    expect(fetcher.requests).toEqual([JWKS_URL, other]);
  });

  it('rejects a malformed document up front, naming it', () => {
    expect(() => createMemoryFetcher({ [JWKS_URL]: { status: 99 } })).toThrow(`the document for ${JWKS_URL} has status 99`);
    const fetcher = createMemoryFetcher({});
    expect(() => fetcher.replace({ [JWKS_URL]: { status: 200, delay_ms: -1 } })).toThrow('delay_ms -1');
  });
});
