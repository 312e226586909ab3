import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { post, type ServeProcess, SigningAgent, startServe } from '../stores/serve-process.js';
import { whyNoPostgres, whyNoRedis, startPostgres, startRedis, type TestPostgres, type TestServer } from '../stores/servers.js';

/** Two `serve` processes behind one public URL, sharing Redis and PostgreSQL, as a fleet behind a load balancer. */
const missing = whyNoRedis() ?? whyNoPostgres();
const PUBLIC = 'http://platform.test';
let redis: TestServer | undefined;
let pg: TestPostgres | undefined;
let agent: SigningAgent | undefined;
const fleet: ServeProcess[] = [];

beforeAll(async () => {
  if (missing) return;
  [redis, pg, agent] = await Promise.all([startRedis(), startPostgres(), SigningAgent.start('fleet')]);
  const args = ['--port', '0', '--allow-insecure-fixtures', '--public-url', PUBLIC, '--store', redis.url, '--db', await pg.createDatabase()];
  // One after the other: the first creates the schema, the second finds it.
  fleet.push(await startServe(args));
  fleet.push(await startServe(args));
}, 120_000);
afterAll(async () => {
  for (const serve of fleet) await serve.kill('SIGTERM');
  await agent?.close();
  await redis?.stop();
  await pg?.stop();
}, 30_000);

describe('serve --public-url --store redis:// --db postgres:// (two instances)', () => {
  it('accepts a signed request once across the fleet: the other instance answers signature_replayed', async (ctx) => {
    if (missing) ctx.skip(missing);
    const [a, b] = fleet as [ServeProcess, ServeProcess];
    const url = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
    const signed = agent!.sign(url);
    expect((await post(a.url, url, signed)).status).toBe(200);
    const replayed = await post(b.url, url, signed);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toContain('signature_replayed');
  });

  it('pays at one instance a challenge the other issued, and credits it once', async (ctx) => {
    if (missing) ctx.skip(missing);
    const [a, b] = fleet as [ServeProcess, ServeProcess];
    const url = `${PUBLIC}${PLATFORM_ROUTES.mppCredits}`;
    const asked = await post(a.url, url, agent!.sign(url));
    expect(asked.status).toBe(402);
    const paying = SigningAgent.paying(asked.headers[HEADERS.wwwAuthenticate] as string, 'spt_test_settled_fleet');
    const paid = await post(b.url, url, agent!.sign(url, paying));
    expect(paid.status, paid.body).toBe(200);
    expect(paid.body).toContain('5000000000');
    const again = await Promise.all([post(a.url, url, agent!.sign(url, paying)), post(b.url, url, agent!.sign(url, paying))]);
    expect(again.map((r) => r.status)).toEqual([409, 409]);
  });
});
