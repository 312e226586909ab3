import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { randomNonce, signRequest } from '../../src/httpsig/index.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { agentAt, agentDocuments, keyFromName } from '../../src/scenarios/identities.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { acceptSignatureValue } from '../../src/verifier/refusal.js';

/** serve upgrades WebSockets with ws; a verified socket route checks the signed upgrade before the handshake. */
const PATH = '/test/echo';
const key = keyFromName('socket-agent');
let fixture: FixtureHost;
let served: ServedReference;

beforeAll(async () => {
  fixture = await startFixtureHost();
  served = await serveReference({
    port: 0,
    allowInsecureFixtures: true,
    platform: {
      sockets: [
        {
          name: 'echo',
          path: PATH,
          access: 'verified',
          accept: (ws, ctx) => {
            ws.send(JSON.stringify({ agent: ctx.verdict?.kind === 'signature' ? ctx.verdict.agentUrl : null }));
            ws.on('message', (m) => ws.send(m.toString()));
          },
        },
      ],
    },
  });
});
afterAll(async () => {
  await served.close();
  await fixture.close();
});

type Outcome = { opened: true; first: string } | { opened: false; status: number; headers: IncomingMessage['headers']; body: string };

function connect(path: string, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${served.url.replace('http:', 'ws:')}${path}`, { headers });
    ws.once('message', (m) => {
      resolve({ opened: true, first: m.toString() });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', (e) => (e.message.includes('Unexpected server response') ? undefined : reject(e)));
  });
}

function signedHeaders(path: string, agentName: string, tamper = false): Record<string, string> {
  const agent = agentAt(`${fixture.url}/a/${agentName}`);
  fixture.publish(agentDocuments(agent, [key]));
  const now = Math.floor(Date.now() / 1000);
  const { headers } = signRequest({
    method: 'GET',
    url: `${served.url}${path}`,
    keys: [{ privateJwk: key.privateJwk }],
    signatureAgent: agent.keySetUrl,
    created: now,
    expires: now + 60,
    nonces: [randomNonce()],
  });
  return tamper ? { ...headers, [HEADERS.signature]: `sig1=:${Buffer.alloc(64, 7).toString('base64')}:` } : { ...headers };
}

describe('WebSocket upgrades on the reference platform', () => {
  test('an unsigned upgrade is refused 401 with Accept-Signature and the JSON body, before the socket opens', async () => {
    const outcome = await connect(PATH);
    expect(outcome.opened).toBe(false);
    if (outcome.opened) return;
    expect(outcome.status).toBe(401);
    expect(outcome.headers[HEADERS.acceptSignature]).toBe(acceptSignatureValue(false));
    expect(JSON.parse(outcome.body).error_code).toBe(AUTH_CODES.missing_credential);
  });

  test('an upgrade whose signature does not verify is refused 401, still with Accept-Signature', async () => {
    const outcome = await connect(PATH, signedHeaders(PATH, 'mallory', true));
    expect(outcome.opened).toBe(false);
    if (outcome.opened) return;
    expect(outcome.status).toBe(401);
    expect(JSON.parse(outcome.body).error_code).toBe(AUTH_CODES.signature_invalid);
    expect(outcome.headers[HEADERS.acceptSignature]).toBe(acceptSignatureValue(false));
  });

  test('a signed upgrade opens, and the socket knows the verified agent', async () => {
    const outcome = await connect(PATH, signedHeaders(PATH, 'alice'));
    expect(outcome).toEqual({ opened: true, first: JSON.stringify({ agent: `${fixture.url}/a/alice` }) });
  });

  test('an upgrade where no socket lives is 404', async () => {
    const outcome = await connect('/nowhere');
    expect(outcome.opened).toBe(false);
    if (!outcome.opened) expect(outcome.status).toBe(404);
  });
});
