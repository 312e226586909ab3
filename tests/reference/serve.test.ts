import http from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { randomNonce, signRequest } from '../../src/httpsig/index.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { agentAt, agentDocuments, keyFromName } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { LIMITS } from '../../src/spec/limits.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES, WELL_KNOWN } from '../../src/spec/wire.js';
import type { CliTokenResponse } from '../../src/reference/cli-token.js';
import { startFixtureHost, type FixtureHost } from './helpers.js';

const alice = keyFromName('alice-1');
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function serve(allowInsecureFixtures: boolean): Promise<ServedReference> {
  const served = await serveReference({ host: '127.0.0.1', port: 0, allowInsecureFixtures });
  cleanups.push(() => served.close());
  return served;
}

async function fixtureHost(): Promise<{ host: FixtureHost; identity: ReturnType<typeof agentAt> }> {
  const host = await startFixtureHost();
  cleanups.push(() => host.close());
  const identity = agentAt(`${host.origin}/a/alice`);
  host.documents = agentDocuments(identity, [alice]);
  return { host, identity };
}

function signed(served: ServedReference, keySetUrl: string, body: Uint8Array): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const url = `${served.url}${PLATFORM_ROUTES.cliToken}`;
  const headers: Array<[string, string]> = [[HEADERS.contentType, MEDIA_TYPES.json]];
  const { headers: signature } = signRequest({
    method: 'POST',
    url,
    headers,
    body,
    keys: [{ privateJwk: alice.privateJwk }],
    signatureAgent: keySetUrl,
    created: now,
    expires: now + 60,
    nonces: [randomNonce()],
  });
  return { ...Object.fromEntries(headers), ...signature };
}

describe('serveReference over the network (loopback)', () => {
  it('prints its URL and answers a signed request for a plain-http agent 200 with --allow-insecure-fixtures', async () => {
    const served = await serve(true);
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(served.platform.authority).toBe(`127.0.0.1:${served.port}`);
    const { host, identity } = await fixtureHost();
    const body = new TextEncoder().encode('{"hello":"platform"}');

    const response = await fetch(`${served.url}${PLATFORM_ROUTES.cliToken}`, { method: 'POST', headers: signed(served, identity.keySetUrl, body), body });
    expect(response.status).toBe(200);
    const token = (await response.json()) as CliTokenResponse;
    expect(token.agent_url).toBe(identity.agentUrl);
    expect(host.requested).toContain(identity.keySetUrl);

    const again = await fetch(`${served.url}${PLATFORM_ROUTES.cliToken}`, {
      method: 'POST',
      headers: { [HEADERS.authorization]: `${AUTH_SCHEMES.bearer} ${token.access_token}` },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as CliTokenResponse).agent_url).toBe(identity.agentUrl);

    const directory = await fetch(`${served.url}${WELL_KNOWN.keyDirectory}`);
    expect(directory.status).toBe(200);
    expect(directory.headers.get(HEADERS.contentType)).toBe(MEDIA_TYPES.keyDirectory);
    await directory.arrayBuffer();
  });

  it('refuses the same plain-http agent with signature_agent_invalid when insecure fixtures are off', async () => {
    const served = await serve(false);
    const { host, identity } = await fixtureHost();
    const body = new TextEncoder().encode('{}');
    const response = await fetch(`${served.url}${PLATFORM_ROUTES.cliToken}`, { method: 'POST', headers: signed(served, identity.keySetUrl, body), body });
    expect(response.status).toBe(401);
    expect(response.headers.get(HEADERS.wwwAuthenticate)).toMatch(/^Bearer realm="service", error="invalid_token", error_description="/);
    expect(((await response.json()) as { error_code: string }).error_code).toBe('signature_agent_invalid');
    expect(host.requested).toEqual([]);
  });

  it('refuses a 5 MiB body with signature_body_too_large without reading it all, then closes the connection', async () => {
    const served = await serve(true);
    const { identity } = await fixtureHost();
    const sockets: Socket[] = [];
    served.server.on('connection', (socket: Socket) => sockets.push(socket));
    const size = 5 * 1024 * 1024;
    const body = new Uint8Array(size).fill(0x7b);

    const response = await fetch(`${served.url}${PLATFORM_ROUTES.cliToken}`, { method: 'POST', headers: signed(served, identity.keySetUrl, body), body });
    expect(response.status).toBe(401);
    expect(response.headers.get(HEADERS.connection)).toBe('close');
    expect(((await response.json()) as { error_code: string }).error_code).toBe('signature_body_too_large');
    expect(sockets).toHaveLength(1);
    const read = sockets[0]!.bytesRead;
    expect(read).toBeGreaterThan(LIMITS.signedRequestBody.value);
    expect(read).toBeLessThan(size);
    await new Promise<void>((resolve) => (sockets[0]!.destroyed ? resolve() : sockets[0]!.once('close', () => resolve())));
  });

  it('keeps the request as sent: an origin-form target that looks like an authority stays a path', async () => {
    const served = await serve(false);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: served.port, path: '//evil.example/api/auth/cli/token', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(404);
  });

  it('answers a request with a Host it cannot read 400, and close() ends keep-alive connections', async () => {
    const served = await serve(false);
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(async () => agent.destroy());
    const get = (headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port: served.port, path: WELL_KNOWN.keyDirectory, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        request.on('error', reject);
        request.end();
      });
    expect(await get({ host: 'user@evil.example' })).toBe(400);
    expect(await get()).toBe(200);
    const open: Socket[] = [];
    for (const list of Object.values(agent.freeSockets)) open.push(...(list ?? []));
    expect(open.length).toBeGreaterThan(0);
    const closed = Promise.all(open.map((s) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())))));
    await served.close();
    await closed;
  });
});
