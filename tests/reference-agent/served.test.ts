import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { callerKeySets, callerToken } from '../../src/harness/agent/callers.js';
import { createMemoryFetcher, type MemoryDocument } from '../../src/fetch/index.js';
import { PROBES, SOCKET_PROBE } from '../../src/contract/probes.js';
import { serveReference, type ServedReference } from '../../src/reference/serve.js';
import { AGENT_TRANSPORT_ROUTES } from '../../src/spec/agent-endpoints.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { ENDPOINT_ERRORS, HEADERS, LIMITS, MEDIA_TYPES, SOCKET_TOKEN_PARAM, WELL_KNOWN } from '../../src/spec/index.js';

/** The reference agent mounted beside the platform by serve: same origin, /agents/<name>, sockets through ws. */
let served: ServedReference;
const clock = { now: () => Math.floor(Date.now() / 1000) };
const random = { bytes: (n: number) => new Uint8Array(n).fill(3) };

beforeAll(async () => {
  // The callers' key sets are virtual https documents the agent reads through the platform's fetcher.
  const documents: Record<string, MemoryDocument> = Object.fromEntries(
    Object.entries(await callerKeySets()).map(([url, set]) => [
      url,
      { status: 200, headers: { [HEADERS.contentType]: MEDIA_TYPES.json }, body: JSON.stringify(set) },
    ]),
  );
  served = await serveReference({ agent: { name: 'alice' }, platform: { fetcher: createMemoryFetcher(documents) } });
}, 60_000);
afterAll(() => served?.close());

type Upgrade = { opened: true; echoed: string } | { opened: false; status: number; body: string };

function upgrade(url: string, headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.once('message', (data) => {
        socket.close();
        resolve({ opened: true, echoed: String(data) });
      });
      socket.send('ping');
    });
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

describe('serve mounts the reference agent at /agents/<name>', () => {
  it('answers the agent URL beside the platform, and lists its key in the origin key directory', async () => {
    const agent = served.agent!;
    expect(agent.urls.agentUrl).toBe(`${served.url}/agents/alice`);
    const open = await fetch(agent.urls.agentUrl + PROBES.open.path);
    expect(open.status).toBe(200);
    await open.arrayBuffer();
    const directory = await fetch(served.url + WELL_KNOWN.keyDirectory);
    expect(directory.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
    expect(((await directory.json()) as { keys: Array<{ x: string }> }).keys.map((k) => k.x)).toContain(agent.publicKey!.x);
  });

  it('refuses a scoped socket upgrade with the 7.2 status and JSON body before the handshake', async () => {
    const outcome = await upgrade(`${served.agent!.urls.agentUrl.replace('http', 'ws')}${SOCKET_PROBE.path}`);
    expect(outcome).toMatchObject({ opened: false, status: ENDPOINT_ERRORS.unauthorized.status });
    if (!outcome.opened) expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: ENDPOINT_ERRORS.unauthorized.code } });
  });

  it('opens the scoped socket for a caller whose token comes in ?token=', async () => {
    const token = await callerToken('user', served.agent!.urls.agentUrl, { clock, random });
    const outcome = await upgrade(`${served.agent!.urls.agentUrl.replace('http', 'ws')}${SOCKET_PROBE.path}?${SOCKET_TOKEN_PARAM}=${token}`);
    expect(outcome).toEqual({ opened: true, echoed: 'ping' });
  });

  it("hands the agent socket /agents/<name>/uamp to the platform, not to the mounted agent's router", async () => {
    // The platform's socket is a verified route: an unsigned upgrade is its 401 with Accept-Signature, never the agent's 404.
    const outcome = await upgrade(`${served.agent!.urls.agentUrl.replace('http', 'ws')}${AGENT_TRANSPORT_ROUTES.uamp}`);
    expect(outcome).toMatchObject({ opened: false, status: 401 });
    if (!outcome.opened) expect(JSON.parse(outcome.body)).toMatchObject({ error_code: AUTH_CODES.missing_credential });
  });

  it('answers 413 with Connection: close to a body streamed one byte past the 50 MiB cap', async () => {
    const size = LIMITS.declaredEndpointBody.value + 1;
    const block = Buffer.alloc(1024 * 1024, 0x20);
    async function* body() {
      for (let sent = 0; sent < size; sent += block.length) yield size - sent < block.length ? block.subarray(0, size - sent) : block;
    }
    const response = await request(served.agent!.urls.agentUrl + PROBES.echo.path, {
      method: 'POST',
      headers: { [HEADERS.contentType]: MEDIA_TYPES.json },
      body: Readable.from(body()),
    });
    expect(response.statusCode).toBe(ENDPOINT_ERRORS.requestBodyCapExceeded.status);
    expect(response.headers[HEADERS.connection]).toBe('close');
    expect(((await response.body.json()) as { error: { code: string; detail: string } }).error).toMatchObject({
      code: ENDPOINT_ERRORS.requestBodyCapExceeded.code,
      detail: expect.any(String),
    });
  }, 60_000);
});
