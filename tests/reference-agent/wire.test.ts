import { describe, expect, it } from 'vitest';
import { readEventStream } from '../../src/access/endpoint-sse.js';
import { caseRequestBody } from '../../src/cases/request-body.js';
import { callerKeySets } from '../../src/harness/agent/callers.js';
import { callerToken, IN_PROCESS_AGENT_URL } from '../../src/harness/agent/index.js';
import { OWNER_SOCKET_PROBE, PROBES, PROBE_CALL_MARK, PROBE_CALLS_MEMBER, PROBE_SMALL_CAP } from '../../src/contract/probes.js';
import { CALLER_IDS } from '../../src/contract/callers.js';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { createMemoryKeyStore, createStandardAgent, generateAgentKeys, type StandardAgentOptions } from '../../src/reference/agent/index.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { memoryKeySets } from '../../src/sdk-auth/index.js';
import { A2A } from '../../src/spec/agent-endpoints.js';
import { AGENT_TOKEN_ROUTE, AGENT_TRANSPORT_ROUTES, AUTH_CODES, ENDPOINT_ERRORS, HEADERS, LIMITS, MEDIA_TYPES } from '../../src/spec/index.js';

/** The reference agent's wire beyond the declared-endpoint rules: A2A, signatures, the calls probe, SSE framing, sockets. */

const clock = { now: () => VECTOR_ENV.now };
const random = { bytes: (n: number) => new Uint8Array(n).fill(7) };
const keys = generateAgentKeys();
const keySets = callerKeySets();

async function agent(over: Partial<StandardAgentOptions> = {}) {
  return createStandardAgent({
    agentUrl: IN_PROCESS_AGENT_URL,
    name: 'reference',
    keyStore: createMemoryKeyStore(await keys),
    authSkill: {},
    access: { owner: CALLER_IDS.owner },
    fetchKeySet: memoryKeySets(await keySets),
    clock,
    random,
    ...over,
  });
}

const url = (path: string) => IN_PROCESS_AGENT_URL + path;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(url(path), { method: 'POST', headers: { [HEADERS.contentType]: MEDIA_TYPES.json, ...headers }, body: JSON.stringify(body) });
const rpc = (method: string, message: unknown) => ({ jsonrpc: A2A.jsonrpc, id: 7, method, params: { message } });

describe('POST /a2a (4.2, READING-A2A-GENERATION)', () => {
  it('answers message/send (0.3) with a Message and SendMessage (1.0) with { message }, each carrying the request id', async () => {
    const a = await agent();
    const v03 = await (await a.fetch(post(AGENT_TRANSPORT_ROUTES.a2a, rpc(A2A.sendMethods.v03, { parts: [{ kind: 'text', text: 'hi' }] })))).json();
    expect(v03).toMatchObject({ jsonrpc: '2.0', id: 7, result: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'You said: hi' }] } });
    const v1 = await (await a.fetch(post(AGENT_TRANSPORT_ROUTES.a2a, rpc(A2A.sendMethods.v1, { parts: [{ text: 'hi' }] })))).json();
    expect(v1).toMatchObject({ jsonrpc: '2.0', id: 7, result: { message: { role: 'ROLE_AGENT', parts: [{ text: 'You said: hi' }] } } });
  });

  it('answers -32601 to a method it does not serve, and -32600 to what is not JSON-RPC', async () => {
    const only1 = await agent({ a2aMethods: [A2A.sendMethods.v1] });
    expect(await (await only1.fetch(post(AGENT_TRANSPORT_ROUTES.a2a, rpc(A2A.sendMethods.v03, {})))).json()).toMatchObject({
      id: 7,
      error: { code: A2A.methodNotFound },
    });
    expect(await await only1.fetch(post(AGENT_TRANSPORT_ROUTES.a2a, { hello: 1 }))).toMatchObject({ status: 200 });
    expect(await (await only1.fetch(post(AGENT_TRANSPORT_ROUTES.a2a, { hello: 1 }))).json()).toMatchObject({ error: { code: -32600 } });
  });
});

describe('Web Bot Auth signatures on declared endpoints (7.2)', () => {
  const garbled = {
    [HEADERS.signatureInput]: 'sig1=("@method" "@authority" "@path");created=1;keyid="none";tag="web-bot-auth"',
    [HEADERS.signature]: 'sig1=:AAAA:',
  };

  it("refuses a signature that does not verify with the verifier's own 401, not the plain unauthorized", async () => {
    const response = await (await agent()).fetch(new Request(url(PROBES.user.path), { headers: garbled }));
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error_code?: string };
    expect(body.error_code).toMatch(/^signature_|^key_set_/);
    expect(response.headers.get(HEADERS.wwwAuthenticate)).toMatch(/^Bearer /);
  });

  it('answers the plain unauthorized when it verifies no signatures, and lets an open endpoint through either way', async () => {
    const response = await (await agent({ signatures: false })).fetch(new Request(url(PROBES.user.path), { headers: garbled }));
    expect(await response.json()).toMatchObject({ error: { code: ENDPOINT_ERRORS.unauthorized.code } });
    expect((await (await agent()).fetch(new Request(url(PROBES.open.path), { headers: garbled }))).status).toBe(200);
  });

  it('admits a signed request whose signature verifies as a verified caller, named by its agent URL', async () => {
    // The signing agent lives on another origin than the agent it calls (an agent on the same host is refused).
    const host = new URL(IN_PROCESS_AGENT_URL);
    const kit = new Kit({ ...VECTOR_ENV, authority: host.host, platformOrigin: host.origin, agentOrigin: 'https://signers.example' }, 'agent-wire');
    const signed = kit.request({ method: 'GET', url: url(PROBES.user.path), body: new Uint8Array(0) });
    const fetcher = createMemoryFetcher({ ...kit.docs() });
    const a = await agent({ signatures: { fetcher } });
    const response = await a.fetch(new Request(signed.url, { headers: signed.headers.map(([n, v]) => [n, v] as [string, string]) }));
    expect(caseRequestBody(signed)?.byteLength ?? 0).toBe(0);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ caller: kit.alice.agentUrl, authenticated: true });
    const replayed = await a.fetch(new Request(signed.url, { headers: signed.headers.map(([n, v]) => [n, v] as [string, string]) }));
    expect(await replayed.json()).toMatchObject({ error_code: AUTH_CODES.signature_replayed });
  });
});

describe('the calls probe (7.2: on 413 the agent is never called)', () => {
  it('counts the runs of the capped handlers by mark, and a body over the cap runs none', async () => {
    const a = await agent();
    const small = (mark: string, size: number) =>
      a.fetch(
        new Request(url(`${PROBES.small.path}?${PROBE_CALL_MARK}=${mark}`), {
          method: 'POST',
          headers: { [HEADERS.contentType]: MEDIA_TYPES.json },
          body: ' '.repeat(size),
        }),
      );
    const calls = async (mark: string) =>
      ((await (await a.fetch(new Request(url(`/conformance/calls/${mark}`)))).json()) as Record<string, unknown>)[PROBE_CALLS_MEMBER];
    expect((await small('m1', PROBE_SMALL_CAP)).status).toBe(200);
    expect((await small('m1', PROBE_SMALL_CAP)).status).toBe(200);
    expect((await small('m2', PROBE_SMALL_CAP + 1)).status).toBe(413);
    expect(await calls('m1')).toBe(2);
    expect(await calls('m2')).toBe(0);
  });

  it('counts the scoped probes too, and none of them runs for a caller it refuses (5.4)', async () => {
    const a = await agent();
    const calls = async (mark: string) =>
      ((await (await a.fetch(new Request(url(`/conformance/calls/${mark}`)))).json()) as Record<string, unknown>)[PROBE_CALLS_MEMBER];
    const owner = `Bearer ${await callerToken('owner', IN_PROCESS_AGENT_URL, { clock, random })}`;
    expect((await a.fetch(new Request(url(`${PROBES.owner.path}?${PROBE_CALL_MARK}=s1`), { headers: { [HEADERS.authorization]: owner } }))).status).toBe(200);
    expect((await a.fetch(new Request(url(`${PROBES.owner.path}?${PROBE_CALL_MARK}=s2`)))).status).toBe(401);
    expect([await calls('s1'), await calls('s2')]).toEqual([1, 0]);
  });
});

describe('the probes of docs/contracts.md section 4', () => {
  it('echoes a decoded path parameter and the query, lets anyone through the all scope, and answers N bytes', async () => {
    const a = await agent();
    const item = await a.fetch(new Request(url('/conformance/items/a%20b?q=x&n=2')));
    expect(await item.json()).toMatchObject({ params: { id: 'a b' }, query: { q: 'x', n: '2' } });
    expect(await (await a.fetch(new Request(url(PROBES.all.path)))).json()).toMatchObject({ caller: null, authenticated: false });
    const bytes = await a.fetch(new Request(url('/conformance/bytes/1000')));
    expect([bytes.status, (await bytes.arrayBuffer()).byteLength]).toEqual([200, 1000]);
    expect((await a.fetch(new Request(url('/conformance/bytes/many')))).status).toBe(400);
  });

  it('does not deliver an answer past 50 MiB: 502 RESPONSE_SIZE_CAP_EXCEEDED (7.2)', async () => {
    const over = await (await agent()).fetch(new Request(url(`/conformance/bytes/${LIMITS.declaredEndpointBody.value + 1}`)));
    expect(over.status).toBe(502);
    expect(await over.json()).toMatchObject({ error: { code: ENDPOINT_ERRORS.responseSizeCapExceeded.code, detail: expect.any(String) } });
  });

  it('words its 401 as it is told (7.2 fixes no words)', async () => {
    const refused = await (await agent({ unauthorizedMessage: 'Sign in first.' })).fetch(new Request(url(PROBES.user.path)));
    expect(await refused.json()).toEqual({ error: { code: ENDPOINT_ERRORS.unauthorized.code, message: 'Sign in first.' } });
  });
});

describe('options of the reference agent', () => {
  it('serves no token endpoint when told so (4.3: a TypeScript agent has none)', async () => {
    const request = () => new Request(url(AGENT_TOKEN_ROUTE), { method: 'POST', headers: { [HEADERS.contentType]: MEDIA_TYPES.formUrlEncoded }, body: 'a=b' });
    expect((await (await agent()).fetch(request())).status).toBe(400);
    expect((await (await agent({ tokenEndpoint: false })).fetch(request())).status).toBe(404);
  });

  it('writes its streams with the framing it is given, which an event-stream parser reads as the same events', async () => {
    for (const sseFraming of [
      { lineEnd: '\r\n', comment: ' ping' },
      { lineEnd: '\r', space: false },
    ] as const) {
      const text = await (await (await agent({ sseFraming })).fetch(new Request(url(PROBES.stream.path)))).text();
      expect(text).toContain(sseFraming.lineEnd);
      expect(readEventStream(text)).toEqual({ values: [{ n: 1 }, { n: 2 }, { n: 3 }], done: true, problems: [] });
    }
  });

  it('refuses a verified caller the owner socket does not include with 403, before the handshake', async () => {
    const a = await agent();
    const upgrade = async (role: 'user' | 'owner') =>
      a.upgrade(
        new Request(url(OWNER_SOCKET_PROBE.path), {
          headers: {
            upgrade: 'websocket',
            connection: 'Upgrade',
            [HEADERS.authorization]: `Bearer ${await callerToken(role, IN_PROCESS_AGENT_URL, { clock, random })}`,
          },
        }),
      );
    const refused = await upgrade('user');
    expect('refuse' in refused && refused.refuse.status).toBe(ENDPOINT_ERRORS.forbidden.status);
    expect('accept' in (await upgrade('owner'))).toBe(true);
  });
});
