import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { openRedis } from '../../src/stores/redis/client.js';
import { createRedisPorts } from '../../src/stores/redis/ports.js';
import { invalidationsOf } from '../../src/stores/redis/tracking.js';
import { verifyRequest, type VerifierPorts, type VerifierRequest } from '../../src/verifier/index.js';
import { startRedis, type TestServer, whyNoRedis } from './servers.js';

/**
 * What one verification costs in round trips to Redis (issue 27): the commands the ports send, counted in the client,
 * and the round trips they take (commands sent in one tick before any answer came back count as one: a transaction
 * goes in one write, and commands sent without waiting are answered together). An accepted request of a registered agent, whose key set was read
 * before, spends its nonce and reads nothing: the nonce goes out before the Ed25519 check (src/verifier/nonces.ts), so
 * its answer arrives during it. A request refused for its signature records its failure (one transaction in one
 * write) beside that nonce, and forgets the nonce once Redis answered it: two round trips. Before tracking
 * (src/stores/redis/tracking.ts) an accepted request took three sequential round trips: the failure count, the
 * registration and the nonce.
 */
const missing = whyNoRedis();
let server: TestServer | undefined;
const clients: Redis[] = [];

beforeAll(async () => {
  if (!missing) server = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const client of clients) await client.quit();
  await server?.stop();
});

/** A client of the test server whose commands are counted: their names, and the round trips they took. */
async function countedClient() {
  const redis = await openRedis(server!.url);
  clients.push(redis);
  const sent: string[] = [];
  let roundTrips = 0;
  let inTick = false;
  // A command sent once an answer came back waited for it: a round trip of its own, even within one tick.
  let answered = false;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    sent.push(command.name.toLowerCase());
    if (!inTick || answered) {
      roundTrips++;
      inTick = true;
      answered = false;
      setImmediate(() => (inTick = false));
    }
    const reply = send(command, stream);
    command.promise.then(
      () => (answered = true),
      () => (answered = true),
    );
    return reply;
  }) as typeof redis.sendCommand;
  return {
    redis,
    /** What `work` sent and in how many round trips. */
    async during(work: () => Promise<unknown>) {
      await new Promise(setImmediate);
      sent.length = 0;
      roundTrips = 0;
      await work();
      return { commands: [...sent], roundTrips };
    },
  };
}

const kit = new Kit(VECTOR_ENV, 'redis-round-trips');
const clock = { now: () => kit.now };
const config = { authority: kit.env.authority };

function signed(): VerifierRequest {
  const request = kit.request({});
  const body = request.body_base64 === undefined ? null : new Uint8Array(Buffer.from(request.body_base64, 'base64'));
  return { method: request.method, url: request.url, headers: request.headers, body, clientAddress: '192.0.2.7' };
}

/** The same request with its signature's bytes changed: refused as signature_invalid once the key set is known. */
function forged(): VerifierRequest {
  const request = signed();
  const headers = request.headers.map(([name, value]): [string, string] =>
    name.toLowerCase() === 'signature' ? [name, value.replace(/:([A-Za-z0-9+/])/, (_m, c: string) => `:${c === 'A' ? 'B' : 'A'}`)] : [name, value],
  );
  return { ...request, headers };
}

async function instance(prefix: string) {
  const client = await countedClient();
  const ports: VerifierPorts = createRedisPorts(client.redis, clock, createMemoryFetcher({ ...kit.docs() }), prefix);
  await vi.waitFor(() => expect(invalidationsOf(client.redis).tracking, 'tracking is on').toBe(true), { timeout: 5000 });
  return { ...client, ports };
}

describe('round trips to Redis per verification', () => {
  it('an accepted request of a registered agent: one round trip, its nonce spent', async (ctx) => {
    if (missing) ctx.skip(missing);
    const { ports, during } = await instance('rt1:');
    // First sight: the key set is read and kept, the agent registered.
    expect((await verifyRequest(signed(), ports, config)).ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      let ok = false;
      const cost = await during(async () => (ok = (await verifyRequest(signed(), ports, config)).ok));
      expect(ok).toBe(true);
      expect(cost).toEqual({ commands: ['set'], roundTrips: 1 });
    }
  });

  it('a request refused for its signature: two round trips, its failure recorded and the nonce it spent ahead forgotten', async (ctx) => {
    if (missing) ctx.skip(missing);
    const { ports, during } = await instance('rt2:');
    expect((await verifyRequest(signed(), ports, config)).ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      let code: string | undefined;
      const cost = await during(async () => {
        const verdict = await verifyRequest(forged(), ports, config);
        code = verdict.ok ? undefined : verdict.code;
      });
      expect(code).toBe('signature_invalid');
      expect(cost).toEqual({ commands: ['set', 'multi', 'zremrangebyscore', 'zadd', 'expire', 'exec', 'del'], roundTrips: 2 });
    }
    expect(await ports.failures.count('192.0.2.7', kit.now, 60)).toBe(3);
  });

  it('counts at once the failures and registrations another instance wrote, though this one kept what it read', async (ctx) => {
    if (missing) ctx.skip(missing);
    const [one, other] = [await instance('rt3:'), await instance('rt3:')];
    const agent = 'https://agents.example/a/zed';
    expect(await one.ports.failures.count('192.0.2.9', kit.now, 60)).toBe(0);
    expect(await one.ports.registrations.get(agent)).toBeUndefined();
    expect(await one.during(async () => [one.ports.failures.count('192.0.2.9', kit.now, 60), one.ports.registrations.get(agent)])).toEqual({
      commands: [],
      roundTrips: 0,
    });
    for (let i = 0; i < 3; i++) await other.ports.failures.record('192.0.2.9', kit.now);
    await other.ports.registrations.put({ agentUrl: agent, thumbprints: ['tp1'], registeredAt: kit.now });
    await vi.waitFor(async () => expect(await one.ports.failures.count('192.0.2.9', kit.now, 60)).toBe(3), { timeout: 5000 });
    await vi.waitFor(async () => expect((await one.ports.registrations.get(agent))?.thumbprints).toEqual(['tp1']), { timeout: 5000 });
  });
});
