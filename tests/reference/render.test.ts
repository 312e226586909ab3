import { describe, expect, it } from 'vitest';
import { readBodyUpTo } from '../../src/reference/body.js';
import { readVerifierRequest, render, renderAnswer, toResponse } from '../../src/reference/render.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';

function chunked(sizes: readonly number[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = sizes[i++];
      if (size === undefined) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(i));
    },
  });
}

describe('readBodyUpTo', () => {
  it('reads a body of exactly the limit whole, and cuts one byte longer at the limit', async () => {
    expect(await readBodyUpTo(null, 10)).toEqual({ bytes: null, truncated: false });
    const exact = await readBodyUpTo(chunked([4, 6]), 10);
    expect(exact.truncated).toBe(false);
    expect([...exact.bytes!]).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    const over = await readBodyUpTo(chunked([4, 6, 1]), 10);
    expect(over.truncated).toBe(true);
    expect(over.bytes!.length).toBe(10);
    const split = await readBodyUpTo(chunked([8, 8]), 10);
    expect(split).toMatchObject({ truncated: true });
    expect([...split.bytes!]).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
    expect((await readBodyUpTo(chunked([]), 10)).bytes!.length).toBe(0);
  });
});

describe('renderAnswer', () => {
  it('keeps the status and headers, writes the body as JSON with its length, and keeps a named media type', async () => {
    const plain = renderAnswer({ status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="service"' }, body: { error: 'é' } });
    expect(plain.status).toBe(401);
    expect(plain.headers.get(HEADERS.wwwAuthenticate)).toBe('Bearer realm="service"');
    expect(plain.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.json);
    expect(plain.headers.get(HEADERS.contentLength)).toBe(String(Buffer.byteLength('{"error":"é"}')));
    expect(await plain.text()).toBe('{"error":"é"}');
    const problem = renderAnswer({ status: 402, headers: { [HEADERS.contentType]: MEDIA_TYPES.problemJson }, body: { type: 'x' } });
    expect(problem.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.problemJson);
    const empty = renderAnswer({ status: 204 });
    expect(empty.body).toBeNull();
  });
});

describe('readVerifierRequest', () => {
  it('gives the verifier the method, URL, headers, body bytes and client address', async () => {
    const request = new Request('https://platform.example/api/auth/cli/token?x=1', {
      method: 'POST',
      headers: [
        ['X-B', '1'],
        ['x-b', '2'],
        ['Content-Type', 'application/json'],
      ],
      body: new TextEncoder().encode('{"a":1}'),
    });
    const { request: read, truncated } = await readVerifierRequest(request, '198.51.100.1');
    expect(truncated).toBe(false);
    expect(read.method).toBe('POST');
    expect(read.url).toBe('https://platform.example/api/auth/cli/token?x=1');
    expect(read.headers).toEqual([
      ['content-type', 'application/json'],
      ['x-b', '1, 2'],
    ]);
    expect(new TextDecoder().decode(read.body!)).toBe('{"a":1}');
    expect(read.clientAddress).toBe('198.51.100.1');
    expect(read.bodyConsumed).toBeUndefined();
  });
});

describe('render', () => {
  it('lower-cases every name, keeps the last of a name given in two cases, and trims the values as Headers does', () => {
    const rendered = render({ status: 200, headers: { 'X-Thing': 'first', 'x-thing': ' last\t', 'Cache-Control': 'no-store' }, body: [1] });
    expect(rendered.headers).toEqual({
      'x-thing': 'last',
      [HEADERS.cacheControl]: 'no-store',
      [HEADERS.contentType]: MEDIA_TYPES.json,
      [HEADERS.contentLength]: '3',
    });
    expect(new TextDecoder().decode(rendered.body!)).toBe('[1]');
    expect(render({ status: 204 })).toEqual({ status: 204, headers: {}, body: null });
  });

  it('throws for a header name or value no HTTP message can carry, as a WHATWG Headers object does', () => {
    expect(() => render({ status: 200, headers: { 'bad name': 'x' } })).toThrow();
    expect(() => render({ status: 200, headers: { 'x-ok': 'line\r\nx-injected: 1' } })).toThrow();
    expect(() => new Headers({ 'x-ok': 'line\r\nx-injected: 1' })).toThrow();
  });

  it('makes the same Response renderAnswer makes, and leaves a Response as it is', async () => {
    const answer = { status: 402, headers: { [HEADERS.contentType]: MEDIA_TYPES.problemJson, 'WWW-Authenticate': 'Payment id="x"' }, body: { type: 't' } };
    const made = toResponse(render(answer));
    const rendered = renderAnswer(answer);
    expect(made.status).toBe(rendered.status);
    expect([...made.headers]).toEqual([...rendered.headers]);
    expect(await made.text()).toBe(await rendered.text());
    const response = new Response('x');
    expect(toResponse(response)).toBe(response);
  });
});
