import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_ERRORS } from '../../src/spec/bridge-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { type Answer, type ServeProcess, SigningAgent } from '../stores/serve-process.js';
import type { TestPostgres, TestServer } from '../stores/servers.js';
import { type Fleet, startFleet, whyNoFleet } from './fleet.js';

/**
 * Issue 27, the fleet finished: Redis and PostgreSQL stop and come back while two `serve` instances over them answer a
 * bounded load (a few workers, each waiting for its answer). Every answer is one the spec allows for the step (a 503
 * with the code it names, never a 500), none hangs, and the instances serve again once the store is back, without a
 * restart.
 */
const missing = whyNoFleet();
const PUBLIC = 'http://platform.test';
const TOKEN = `${PUBLIC}${PLATFORM_ROUTES.cliToken}`;
const CREDITS = `${PUBLIC}${PLATFORM_ROUTES.mppCredits}`;
/** Workers of the load; each sends its next request when the last was answered. */
const WORKERS = 4;
/** An answer slower than this counts as a hang (the stores' own timeouts are 3 s). */
const HANG_MS = 8000;
/** How long an instance may take to serve again once its store is back. */
const RECOVERY_MS = 15_000;
/** The 503s the spec names for a store that cannot serve a step (7.1, 7.4). */
const STORE_503_CODES: readonly string[] = [
  BRIDGE_ERRORS.service_unavailable.code,
  PURCHASE_ERRORS.purchase_lock_unavailable.code,
  PURCHASE_ERRORS.terms_record_failed.code,
  PURCHASE_ERRORS.grant_failed.code,
];
let started: Fleet | undefined;
let fleet: readonly ServeProcess[] = [];
let redis: TestServer | undefined;
let pg: TestPostgres | undefined;
let agent: SigningAgent | undefined;

beforeAll(async () => {
  if (missing) return;
  started = await startFleet({ publicUrl: PUBLIC, agent: 'recovery' });
  ({ instances: fleet, redis, postgres: pg, agent } = started);
}, 120_000);
afterAll(() => started?.stop(), 60_000);

/** A POST to one instance for `url`, answered within HANG_MS or reported as hung. */
function send(instance: string, url: string, headers: Record<string, string>): Promise<Answer | 'hung' | 'no connection'> {
  const target = new URL(url);
  const to = new URL(instance);
  return new Promise((resolve) => {
    const request = http.request(
      { host: to.hostname, port: to.port, method: 'POST', path: target.pathname, headers: { ...headers, host: target.host }, timeout: HANG_MS },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.once('timeout', () => {
      request.destroy();
      resolve('hung');
    });
    request.once('error', () => resolve('no connection'));
    request.end();
  });
}

function codeOf(answer: Answer): string | undefined {
  try {
    return (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** One answer summarised: `200`, `402`, `503 service_unavailable`, `hung`... */
function summary(answer: Answer | 'hung' | 'no connection'): string {
  if (typeof answer === 'string') return answer;
  return answer.status >= 400 && answer.status !== 402 ? `${answer.status} ${codeOf(answer) ?? '(no code)'}` : String(answer.status);
}

/** Runs the load for `ms`: each worker alternates instances and the token and credits routes. The answers, by route. */
async function load(ms: number): Promise<{ token: string[]; credits: string[]; problems: string[] }> {
  const seen = { token: [] as string[], credits: [] as string[], problems: [] as string[] };
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = w; Date.now() < until; i++) {
        const url = i % 2 === 0 ? TOKEN : CREDITS;
        const answer = await send(fleet[i % fleet.length]!.url, url, agent!.sign(url));
        const said = summary(answer);
        (url === TOKEN ? seen.token : seen.credits).push(said);
        if (typeof answer === 'string' || answer.status >= 500) {
          const allowed =
            typeof answer !== 'string' && answer.status === 503 && STORE_503_CODES.includes(codeOf(answer) ?? '') && answer.headers[HEADERS.retryAfter];
          if (!allowed) seen.problems.push(`${url}: ${said}${typeof answer === 'string' ? '' : ` ${answer.body.slice(0, 200)}`}`);
        }
      }
    }),
  );
  return seen;
}

const distinct = (answers: readonly string[]) => [...new Set(answers)].sort();

/** Polls both instances until `route` answers `status` at each: how long that took. */
async function recovered(url: string, status: number): Promise<number> {
  const from = Date.now();
  for (const serve of fleet) {
    for (;;) {
      const answer = await send(serve.url, url, agent!.sign(url));
      if (typeof answer !== 'string' && answer.status === status) break;
      if (Date.now() - from > RECOVERY_MS)
        throw new Error(`${serve.url} did not serve ${url} within ${RECOVERY_MS} ms of its store coming back: ${summary(answer)}`);
      await sleep(100);
    }
  }
  return Date.now() - from;
}

describe('two serve instances while Redis and PostgreSQL stop and come back under load', () => {
  it('answer the 503s the spec names while a store is down, never a 500 or a hang, and serve again once it is back', async (ctx) => {
    if (missing) ctx.skip(missing);
    const up = await load(1500);
    expect([distinct(up.token), distinct(up.credits), up.problems]).toEqual([['200'], ['402'], []]);
    // A challenge issued while the database is up, paid while it is down.
    const asked = await send(fleet[0]!.url, CREDITS, agent!.sign(CREDITS));
    const paying = SigningAgent.paying((asked as Answer).headers[HEADERS.wwwAuthenticate] as string, 'spt_test_settled_outage');

    await pg!.pause();
    const noDatabase = await load(2000);
    expect(noDatabase.problems).toEqual([]);
    expect(distinct(noDatabase.token), 'the verifier keeps nothing on the database').toEqual(['200']);
    expect(distinct(noDatabase.credits)).toEqual([`503 ${BRIDGE_ERRORS.service_unavailable.code}`]);
    const paidWhileDown = await send(fleet[1]!.url, CREDITS, agent!.sign(CREDITS, paying));
    expect(summary(paidWhileDown)).toMatch(/^503 /);
    expect(STORE_503_CODES).toContain(codeOf(paidWhileDown as Answer));
    await pg!.resume();
    const databaseBack = await recovered(CREDITS, 402);

    await redis!.pause();
    const noStore = await load(2000);
    expect(noStore.problems).toEqual([]);
    expect([distinct(noStore.token), distinct(noStore.credits)]).toEqual([
      [`503 ${BRIDGE_ERRORS.service_unavailable.code}`],
      [`503 ${BRIDGE_ERRORS.service_unavailable.code}`],
    ]);
    await redis!.resume();
    const storeBack = await recovered(TOKEN, 200);

    const after = await load(1500);
    expect([distinct(after.token), distinct(after.credits), after.problems]).toEqual([['200'], ['402'], []]);
    // The purchase refused while the database was down completes with the same credential once it is back.
    const paid = await send(fleet[0]!.url, CREDITS, agent!.sign(CREDITS, paying));
    expect(summary(paid), (paid as Answer).body).toBe('200');
    for (const serve of fleet) expect(serve.child.exitCode, serve.output()).toBeNull();
    console.log(
      `store outage under load: answers up ${up.token.length + up.credits.length}, database down ${noDatabase.token.length + noDatabase.credits.length} ` +
        `(paid retry: ${summary(paidWhileDown)}), back in ${databaseBack} ms; Redis down ${noStore.token.length + noStore.credits.length}, back in ${storeBack} ms`,
    );
  }, 120_000);
});
