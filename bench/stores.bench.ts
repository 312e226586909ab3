/**
 * What the real stores cost, against the in-memory adapters, on the same work:
 *
 *   verify     verifyRequest of distinct signed POSTs (each a fresh nonce, signed before timing), through the memory
 *              ports and through the Redis ports (src/stores/redis/): the nonce spent, the failure count read, the
 *              key set and the registration looked up, on a local redis-server
 *   purchase   decidePurchase's whole card purchase (the 402, then the paid credential charged and granted: two
 *              presentations) over MemoryPurchaseStore, SQLite (a temp file) and PostgreSQL (src/stores/sql/)
 *
 * Each contender runs a fixed number of iterations, one at a time, after a warm-up; the servers are started on
 * loopback and stopped by the bench (tests/stores/servers.ts) and skipped with the reason when absent. Figures go
 * to the console and to bench/results/stores.json. See bench/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryFetcher } from '../src/fetch/index.js';
import {
  FakeCardProcessor,
  ManualClock,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  SeededRandom,
  credentialFor,
  decidePurchase,
  isGranted,
  serializeCredential,
  singlePaymentChallenge,
  type PurchaseConfig,
  type PurchaseRequest,
  type PurchaseStore,
} from '../src/purchase/index.js';
import { Kit, VECTOR_ENV } from '../src/scenarios/kit.js';
import { HEADERS } from '../src/spec/headers.js';
import { STRIPE_PAYLOAD_MEMBERS } from '../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES } from '../src/spec/problem-types.js';
import { openRedis } from '../src/stores/redis/client.js';
import { createRedisPorts } from '../src/stores/redis/ports.js';
import type { SqlDatabase } from '../src/stores/sql/driver.js';
import { openPostgres } from '../src/stores/sql/postgres.js';
import { SqlPurchaseStore } from '../src/stores/sql/purchase-store.js';
import { prepareSchema } from '../src/stores/sql/schema.js';
import { openSqlite } from '../src/stores/sql/sqlite.js';
import { createMemoryPorts, verifyRequest, type VerifierPorts, type VerifierRequest } from '../src/verifier/index.js';
import { whyNoPostgres, whyNoRedis, startPostgres, startRedis } from '../tests/stores/servers.js';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'stores.json');
const VERIFY_N = 3000;
const PURCHASE_N = 400;
const WARMUP = 100;

interface Figures {
  readonly name: string;
  readonly perSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

/** Times `iterations` calls one after the other, after `warmup` untimed ones: rate, and p50/p99 of one call. */
async function measure(name: string, iterations: number, run: (i: number) => Promise<void>): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const times: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = WARMUP; i < WARMUP + iterations; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  const totalS = Number(process.hrtime.bigint() - start) / 1e9;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { name, perSecond: iterations / totalS, p50Us: at(0.5), p99Us: at(0.99) };
}

// ---------------------------------------------------------------------------------------------------------
// Verifications: alice is registered, her key set is cached by the first verification (warm-up).
// ---------------------------------------------------------------------------------------------------------
const kit = new Kit(VECTOR_ENV, 'stores-bench');
const requests: VerifierRequest[] = Array.from({ length: VERIFY_N + WARMUP }, () => {
  const signed = kit.request({});
  const body = signed.body_base64 === undefined ? null : new Uint8Array(Buffer.from(signed.body_base64, 'base64'));
  return { method: signed.method, url: signed.url, headers: signed.headers, body, clientAddress: '192.0.2.1' };
});
const clock = { now: () => kit.now };
const registration = { agentUrl: kit.alice.agentUrl, thumbprints: [kit.A.thumbprint], registeredAt: kit.now - 86_400 };
const verifierConfig = { authority: kit.env.authority };

async function verifyAll(name: string, ports: VerifierPorts): Promise<Figures> {
  return measure(name, VERIFY_N, async (i) => {
    const verdict = await verifyRequest(requests[i]!, ports, verifierConfig);
    if (!verdict.ok) throw new Error(`${name} refused request ${i}: ${verdict.code}`);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Purchases: the whole card purchase, a new challenge and token per iteration.
// ---------------------------------------------------------------------------------------------------------
const T0 = 1_789_732_800;
const purchaseConfig: PurchaseConfig = {
  realm: 'platform.example',
  problemBases: DEFAULT_PROBLEM_BASES,
  terms: { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' },
  mppEnabled: true,
  purchasesOpen: true,
  pack: { packId: 'mpp_5', price: { amount: '500', currency: 'usd' }, creditNano: '5000000000', networkId: 'profile_bench' },
};
const asking: PurchaseRequest = { buyer: { agentUrl: 'https://buyer.agent.example/' }, signed: true, coveredHeaders: [], headers: {}, now: T0 };

async function purchases(name: string, store: PurchaseStore): Promise<Figures> {
  const ports = {
    clock: new ManualClock(T0),
    random: new SeededRandom(`bench-${name}`),
    processor: new FakeCardProcessor(),
    store,
    lock: new MemoryPurchaseLock(),
    buyers: new MemoryBuyerDirectory(),
  };
  const figures = await measure(name, PURCHASE_N, async (i) => {
    const asked = await decidePurchase(asking, ports, purchaseConfig);
    const parsed = singlePaymentChallenge(asked.headers[HEADERS.wwwAuthenticate] ?? '');
    if (!parsed.ok) throw new Error(`${name}: no challenge (${asked.status})`);
    const headers = {
      [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(parsed.challenge, { [STRIPE_PAYLOAD_MEMBERS.spt]: `spt_bench_${i}` })),
      [HEADERS.termsAccepted]: purchaseConfig.terms.version,
    };
    const paid = await decidePurchase({ ...asking, headers, coveredHeaders: Object.keys(headers) }, ports, purchaseConfig);
    if (!isGranted(paid)) throw new Error(`${name}: purchase ${i} answered ${paid.status}`);
  });
  // Two presentations per purchase: the rate counts presentations, the latencies are of the whole purchase.
  return { ...figures, perSecond: figures.perSecond * 2 };
}

async function sqlStore(db: SqlDatabase): Promise<SqlPurchaseStore> {
  await prepareSchema(db);
  return new SqlPurchaseStore(db);
}

// ---------------------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------------------
const skipped: string[] = [];
const verify: Figures[] = [await verifyAll('memory', createMemoryPorts(clock, createMemoryFetcher({ ...kit.docs() }), [registration]))];
const redisMissing = whyNoRedis();
if (redisMissing) skipped.push(`verify over Redis: ${redisMissing}`);
else {
  const server = await startRedis();
  const redis = await openRedis(server.url);
  try {
    const ports = createRedisPorts(redis, clock, createMemoryFetcher({ ...kit.docs() }), 'bench:');
    await ports.registrations.put(registration);
    verify.push(await verifyAll('Redis', ports));
  } finally {
    await redis.quit();
    await server.stop();
  }
}

const purchase: Figures[] = [await purchases('memory', new MemoryPurchaseStore())];
const dir = mkdtempSync(join(tmpdir(), 'apc-bench-'));
const sqlite = await openSqlite(join(dir, 'bench.sqlite'));
try {
  purchase.push(await purchases('SQLite', await sqlStore(sqlite)));
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
const postgresMissing = whyNoPostgres();
if (postgresMissing) skipped.push(`purchases over PostgreSQL: ${postgresMissing}`);
else {
  const server = await startPostgres();
  const db = await openPostgres(await server.createDatabase());
  try {
    purchase.push(await purchases('PostgreSQL', await sqlStore(db)));
  } finally {
    await db.close();
    await server.stop();
  }
}

function table(title: string, unit: string, rows: readonly Figures[]): void {
  const base = rows[0]!;
  console.log(`\n${title}`);
  console.log(`${'store'.padEnd(12)}${unit.padStart(14)}${'p50 µs'.padStart(10)}${'p99 µs'.padStart(10)}${'vs memory'.padStart(12)}`);
  for (const r of rows) {
    const ratio = (r.perSecond / base.perSecond).toFixed(2);
    console.log(
      `${r.name.padEnd(12)}${Math.round(r.perSecond).toLocaleString('en').padStart(14)}${r.p50Us.toFixed(1).padStart(10)}${r.p99Us.toFixed(1).padStart(10)}${ratio.padStart(12)}`,
    );
  }
}
table(`Verifications (${VERIFY_N} distinct signed requests each)`, 'verif./s', verify);
table(`Purchases (${PURCHASE_N} each; the rate counts presentations, p50/p99 a whole purchase: the 402 and the paid one)`, 'present./s', purchase);
for (const line of skipped) console.log(`skipped: ${line}`);

mkdirSync(dirname(RESULTS), { recursive: true });
const environment = { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length };
writeFileSync(RESULTS, `${JSON.stringify({ environment, verify, purchase, skipped }, null, 2)}\n`);
console.log(`\nwritten to ${RESULTS}`);
