import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeResponse } from '../../src/reference/node-http.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `response()` through writeResponse; resolves with the server's URL. */
async function serving(response: () => Response): Promise<string> {
  server = createServer((_req, res) => void writeResponse(response(), res, { close: false }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('writeResponse', () => {
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
