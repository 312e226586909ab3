import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { post, type ServeProcess, SigningAgent } from '../stores/serve-process.js';
import { type Fleet, startFleet, whyNoFleet } from './fleet.js';

/** Two `serve` processes behind one public URL, sharing Redis and PostgreSQL, as a fleet behind a load balancer. */
const missing = whyNoFleet();
const PUBLIC = 'http://platform.test';
let fleet: Fleet | undefined;

beforeAll(async () => {
  if (!missing) fleet = await startFleet({ publicUrl: PUBLIC, agent: 'fleet' });
}, 120_000);
afterAll(() => fleet?.stop(), 30_000);

describe('serve --public-url --store redis:// --db postgres:// (two instances)', () => {
  it('accepts a signed request once across the fleet: the other instance answers signature_replayed', async (ctx) => {
    if (missing) ctx.skip(missing);
    const [a, b] = fleet!.instances as [ServeProcess, ServeProcess];
    const agent = fleet!.agent;
    const url = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
    const signed = agent!.sign(url);
    expect((await post(a.url, url, signed)).status).toBe(200);
    const replayed = await post(b.url, url, signed);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toContain('signature_replayed');
  });

  it('pays at one instance a challenge the other issued, and credits it once', async (ctx) => {
    if (missing) ctx.skip(missing);
    const [a, b] = fleet!.instances as [ServeProcess, ServeProcess];
    const agent = fleet!.agent;
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
