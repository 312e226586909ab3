import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAnswer } from '../../src/reference/node-http.js';
import { type PlatformAnswer, render } from '../../src/reference/render.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `response()` through writeAnswer (writeResponse for a Response); resolves with the server's URL. */
async function serving(response: () => PlatformAnswer, options = { close: false }): Promise<string> {
  server = createServer((_req, res) => void writeAnswer(response(), res, options));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('writeAnswer, a Response (writeResponse)', () => {
  it('sends a body of one chunk whole, with its status and header fields', async () => {
    const url = await serving(() => new Response('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } }));
    const answer = await fetch(url);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.text()).toBe('{"ok":true}');
  });

  it('sends each chunk of a stream as it comes: the first reaches the client before the next is made', async () => {
    const encoder = new TextEncoder();
    let firstSeen!: () => void;
    const seen = new Promise<void>((resolve) => (firstSeen = resolve));
    const url = await serving(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(encoder.encode('event: one\n\n'));
              // The next event is made only once the client has the first: a writer holding chunks back never ends.
              await seen;
              controller.enqueue(encoder.encode('event: two\n\n'));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    const body = await new Promise<string>((resolve, reject) => {
      get(url, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('event: one')) firstSeen();
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      }).on('error', reject);
    });
    expect(body).toBe('event: one\n\nevent: two\n\n');
  });
});

describe('writeAnswer, an answer the platform rendered', () => {
  const rendered = () => render({ status: 409, headers: { 'X-Thing': 'kept' }, body: { error: 'é' } });

  it('writes an answer the platform rendered: its status, every header and its body, in one piece', async () => {
    const url = await serving(rendered);
    const answer = await fetch(url);
    expect(answer.status).toBe(409);
    expect(answer.headers.get('x-thing')).toBe('kept');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength('{"error":"é"}')));
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    expect(await answer.text()).toBe('{"error":"é"}');
  });

  it('answers HEAD with the head alone, and closes the connection when asked to', async () => {
    const url = await serving(rendered, { close: true });
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(409);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength('{"error":"é"}')));
    expect(head.headers.get('connection')).toBe('close');
    expect(await head.text()).toBe('');
  });
});
