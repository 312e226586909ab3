import { afterEach, describe, expect, test } from 'vitest';
import { createUndiciFetcher } from '../../src/fetch/index.js';
import { askPacer, originOnFixtureHost, publishOnFixtureHost } from '../../src/harness/fixture-client.js';
import { NO_EXTRA_ORIGIN_REASON, startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { agentAt, agentDocuments, keyFromName } from '../../src/scenarios/identities.js';

let host: FixtureHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('the fixture host publishes scenario documents on loopback', () => {
  test('a key set and card are served exactly; what is not published is refused', async () => {
    host = await startFixtureHost();
    const alice = agentAt(`${host.url}/c/case-1/a/alice`);
    host.publish(agentDocuments(alice, [keyFromName('alice-1')]));
    const fetcher = createUndiciFetcher({ allowInsecureLoopback: true });
    try {
      const keySet = await fetcher.fetch(alice.keySetUrl);
      expect(keySet.ok).toBe(true);
      if (keySet.ok) expect(JSON.parse(Buffer.from(keySet.body).toString()).keys[0].x).toBe(keyFromName('alice-1').publicJwk.x);
      const missing = await fetcher.fetch(`${host.url}/c/case-1/a/bob/.well-known/jwks.json`);
      expect(missing).toMatchObject({ ok: false, reason: 'network' });
      expect(host.requests).toEqual(['/c/case-1/a/alice/.well-known/jwks.json', '/c/case-1/a/bob/.well-known/jwks.json']);
    } finally {
      await fetcher.close();
    }
  });

  test('faulty documents: a redirect is not followed, a slow answer times out', async () => {
    host = await startFixtureHost();
    host.publish({
      [`${host.url}/moved.json`]: { status: 302, headers: { location: `${host.url}/target.json` }, body: '' },
      [`${host.url}/target.json`]: { status: 200, body: '{"keys":[]}' },
      [`${host.url}/slow.json`]: { status: 200, body: '{}', delay_ms: 2000 },
    });
    const fetcher = createUndiciFetcher({ allowInsecureLoopback: true, timeoutMs: 200 });
    try {
      expect(await fetcher.fetch(`${host.url}/moved.json`)).toMatchObject({ ok: false, reason: 'redirect' });
      expect(host.requests).not.toContain('/target.json');
      expect(await fetcher.fetch(`${host.url}/slow.json`)).toMatchObject({ ok: false, reason: 'timeout' });
    } finally {
      await fetcher.close();
    }
  });

  test('documents outside the host are refused when published', async () => {
    host = await startFixtureHost();
    expect(() => host!.publish({ 'https://agents.example/x.json': { status: 200, body: '' } })).toThrow(/not under/);
  });
});

describe('publishing from another process', () => {
  test('documents posted to the admin endpoint with its token are served; without the token nothing changes', async () => {
    host = await startFixtureHost();
    const url = `${host.url}/c/x/doc.json`;
    const post = (token: string) =>
      fetch(host!.adminUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ [url]: { status: 200, body: '{"a":1}' } }),
      });
    expect((await post('wrong')).status).toBe(403);
    expect((await post(host.adminToken)).status).toBe(204);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual({ a: 1 });
  });
});

describe('origins of their own, and the pacer beside the documents', () => {
  test('an origin asked for is another port, serving only what is published under it', async () => {
    host = await startFixtureHost();
    const fixture = { url: host.url, adminUrl: host.adminUrl, token: host.adminToken };
    const own = await originOnFixtureHost(fixture);
    if (!('url' in own)) throw new Error(own.reason);
    expect(new URL(own.url).port).not.toBe(new URL(host.url).port);
    await publishOnFixtureHost(fixture, { [`${own.url}/.well-known/agent.json`]: { status: 200, body: '{"own":true}' } });
    expect(await (await fetch(`${own.url}/.well-known/agent.json`)).json()).toEqual({ own: true });
    await expect(fetch(`${host.url}/.well-known/agent.json`)).rejects.toThrow();
    await expect(publishOnFixtureHost(fixture, { 'http://127.0.0.1:1/x.json': { status: 200, body: '' } })).rejects.toThrow(/400/);
  });

  test('reached through a public URL, the host has one origin only, and says so', async () => {
    host = await startFixtureHost({ publicUrl: 'https://fixtures.example:8443' });
    const answer = await originOnFixtureHost({ url: host.url, adminUrl: host.adminUrl, token: host.adminToken });
    expect(answer).toEqual({ reason: NO_EXTRA_ORIGIN_REASON });
  });

  test("the pacer's messages are answered in the run's process, with the admin token only", async () => {
    const seen: unknown[] = [];
    host = await startFixtureHost({
      pacer: (message) => {
        seen.push(message);
        return { waitMs: 7 };
      },
    });
    const fixture = { url: host.url, adminUrl: host.adminUrl, token: host.adminToken };
    expect(await askPacer(fixture, { op: 'reserve', count: 2 })).toEqual({ waitMs: 7 });
    expect(seen).toEqual([{ op: 'reserve', count: 2 }]);
    await expect(askPacer({ ...fixture, token: 'wrong' }, { op: 'reserve', count: 1 })).rejects.toThrow(/403/);
  });
});
