import { describe, expect, it } from 'vitest';
import { readCappedBody, decideDeclaredLength } from '../../src/access/endpoint-body.js';
import { decideContentType } from '../../src/access/endpoint-content-type.js';
import { bodyCapOf } from '../../src/access/endpoint-declaration.js';
import { compileDeclaredPath } from '../../src/access/endpoint-path.js';
import { EndpointTable } from '../../src/access/endpoint-routing.js';
import { ENDPOINT_ERRORS, HEADERS, LIMITS, MEDIA_TYPES } from '../../src/spec/index.js';

function streamOf(chunks: Uint8Array[], pulled: { count: number; cancelled: boolean }): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled.count++;
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
      cancel() {
        pulled.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}

describe('declared paths (4.1)', () => {
  it('binds :params to whole segments, percent-decoded, and ignores one trailing slash', () => {
    const match = compileDeclaredPath('/items/:id/notes/:note');
    expect(match('/items/42/notes/a%20b')).toEqual({ id: '42', note: 'a b' });
    expect(match('/items/42/notes/x/')).toEqual({ id: '42', note: 'x' });
    expect(match('/items/42/notes')).toBeNull();
    expect(match('/items//notes/x')).toBeNull();
    expect(match('/other/42/notes/x')).toBeNull();
    expect(match('/items/%E0%A4%A/notes/x')).toBeNull();
  });

  it('refuses declarations it cannot read', () => {
    expect(() => compileDeclaredPath('items')).toThrow(/starts with/);
    expect(() => compileDeclaredPath('/a/:')).toThrow(/parameter name/);
    expect(() => compileDeclaredPath('/a/:id/:id')).toThrow(/twice/);
  });
});

describe('method selection (7.2 405)', () => {
  const table = new EndpointTable([
    { path: '/things/:id', method: 'GET' },
    { path: '/things/:id', method: 'DELETE' },
    { path: '/post', method: 'POST' },
  ]);

  it('picks the declaration of the method; HEAD is answered by GET', () => {
    expect(table.select('GET', '/things/1')).toMatchObject({ kind: 'matched', params: { id: '1' } });
    expect(table.select('HEAD', '/things/1')).toMatchObject({ kind: 'matched', endpoint: { method: 'GET' } });
  });

  it('answers 405 with Allow for a path declared only for other methods', () => {
    const selection = table.select('PUT', '/things/1');
    expect(selection.kind).toBe('refused');
    if (selection.kind !== 'refused') return;
    expect(selection.answer.status).toBe(ENDPOINT_ERRORS.methodNotAllowed.status);
    expect(selection.answer.headers[HEADERS.allow]).toBe('DELETE, GET, HEAD');
  });

  it('leaves an undeclared path alone', () => {
    expect(table.select('GET', '/nothing')).toEqual({ kind: 'none' });
  });
});

describe('Content-Type of body requests (7.2 415)', () => {
  it('is 415 when missing or not accepted, parameters ignored', () => {
    expect(decideContentType({}, 'POST', null, true)?.status).toBe(ENDPOINT_ERRORS.unsupportedMediaType.status);
    expect(decideContentType({}, 'POST', null, false)?.status).toBe(ENDPOINT_ERRORS.unsupportedMediaType.status);
    expect(decideContentType({}, 'POST', MEDIA_TYPES.html, true)?.status).toBe(ENDPOINT_ERRORS.unsupportedMediaType.status);
    expect(decideContentType({}, 'POST', `${MEDIA_TYPES.json}; charset=utf-8`, true)).toBeNull();
    expect(decideContentType({ accepts: [MEDIA_TYPES.formUrlEncoded] }, 'PUT', MEDIA_TYPES.json, true)?.headers[HEADERS.accept]).toBe(
      MEDIA_TYPES.formUrlEncoded,
    );
  });

  it('asks nothing of a GET without a body', () => {
    expect(decideContentType({}, 'GET', null, false)).toBeNull();
  });
});

describe('request body cap (7.2 413, section 8)', () => {
  it('is the platform ceiling of 50 MiB unless an endpoint declares less', () => {
    expect(bodyCapOf({})).toBe(LIMITS.declaredEndpointBody.value);
    expect(bodyCapOf({ maxBodyBytes: 10 })).toBe(10);
    expect(bodyCapOf({ maxBodyBytes: LIMITS.declaredEndpointBody.value * 2 })).toBe(LIMITS.declaredEndpointBody.value);
  });

  it('refuses a declared Content-Length over the cap before reading, with Connection: close and { error: { code, detail } }', () => {
    const answer = decideDeclaredLength(String(LIMITS.declaredEndpointBody.value + 1), LIMITS.declaredEndpointBody.value)!;
    expect(answer.status).toBe(ENDPOINT_ERRORS.requestBodyCapExceeded.status);
    expect(answer.headers[HEADERS.connection]).toBe('close');
    const body = answer.body as { error: { code: string; detail: string } };
    expect(body.error.code).toBe(ENDPOINT_ERRORS.requestBodyCapExceeded.code);
    expect(typeof body.error.detail).toBe('string');
    expect(decideDeclaredLength(String(LIMITS.declaredEndpointBody.value), LIMITS.declaredEndpointBody.value)).toBeNull();
  });

  it('counts a streamed body and stops at the first byte past the cap, reading no further', async () => {
    const pulled = { count: 0, cancelled: false };
    const chunk = new Uint8Array(400);
    const result = await readCappedBody(streamOf([chunk, chunk, chunk, chunk, chunk], pulled), 1000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.answer.status).toBe(ENDPOINT_ERRORS.requestBodyCapExceeded.status);
    expect(pulled.count).toBe(3);
    expect(pulled.cancelled).toBe(true);
  });

  it('passes a body of exactly the cap whole', async () => {
    const pulled = { count: 0, cancelled: false };
    const result = await readCappedBody(streamOf([new Uint8Array(600).fill(1), new Uint8Array(400).fill(2)], pulled), 1000);
    expect(result.ok && result.bytes.byteLength).toBe(1000);
    expect(result.ok && [result.bytes[599], result.bytes[600]]).toEqual([1, 2]);
  });
});
