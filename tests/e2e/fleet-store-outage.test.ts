import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { post } from '../stores/serve-process.js';
import { type Fleet, startFleet, whyNoFleet } from './fleet.js';

/**
 * A store that goes away while serve runs: the requests that need it are answered 503 with the spec's code for a store
 * that is down (7.1 service_unavailable, fail closed), never a 500, and serve stays up for the requests that need none.
 */
const missing = whyNoFleet();
const PUBLIC = 'http://platform.test';
const UNAVAILABLE = BRIDGE_ERRORS.service_unavailable.code;
let fleet: Fleet | undefined;

beforeAll(async () => {
  if (!missing) fleet = await startFleet({ instances: 1, publicUrl: PUBLIC, agent: 'outage' });
}, 120_000);
afterAll(() => fleet?.stop(), 30_000);

function codeOf(body: string): unknown {
  return (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
}

describe('serve --store --db when a store stops mid-run', () => {
  it('answers 503 service_unavailable for what needs the stopped store, and keeps serving', async (ctx) => {
    if (missing) ctx.skip(missing);
    const { instances, agent, redis, postgres: pg } = fleet!;
    const serve = instances[0];
    const token = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
    const credits = `${PUBLIC}${PLATFORM_ROUTES.mppCredits}`;
    expect((await post(serve!.url, token, agent!.sign(token))).status).toBe(200);
    expect((await post(serve!.url, credits, agent!.sign(credits))).status).toBe(402);

    await pg!.stop();
    const noDatabase = await post(serve!.url, credits, agent!.sign(credits));
    expect([noDatabase.status, codeOf(noDatabase.body)], noDatabase.body).toEqual([503, UNAVAILABLE]);
    // The verifier's state is on Redis, still up: what needs no database is served.
    expect((await post(serve!.url, token, agent!.sign(token))).status).toBe(200);

    await redis!.stop();
    const noStore = await post(serve!.url, token, agent!.sign(token));
    expect([noStore.status, codeOf(noStore.body)], noStore.body).toEqual([503, UNAVAILABLE]);
    expect(noStore.headers[HEADERS.retryAfter]).toBe('1');
    expect(serve!.child.exitCode, serve!.output()).toBeNull();
  }, 60_000);
});
