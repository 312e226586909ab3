/**
 * What the real stores cost, against the in-memory adapters, on the same work:
 *
 *   verify     verifyRequest of distinct signed POSTs (each a fresh nonce, signed before timing), through the memory
 *              ports and through the Redis ports (src/stores/redis/): the nonce spent, the failure count read, the
 *              key set and the registration looked up, on a local redis-server
 *   purchase   decidePurchase's whole card purchase (the 402, then the paid credential charged and granted: two
 *              presentations) over MemoryPurchaseStore, SQLite (a temp file) and PostgreSQL (src/stores/sql/)
 *
 * Every server is started first (on loopback, stopped by the bench: tests/stores/servers.ts; skipped with the reason
 * when absent); then the contenders of each table, after a warm-up, run in interleaved rounds (bench/rounds.ts), so
 * a neighbour taking the CPU for a while slows a round of each rather than the whole of one. Figures go
 * to the console and to bench/results/stores.json; the ratios issue 27 sets goals for end the console output, one table
 * with the goal beside each, and are written to bench/results/stores.md from the same figures. See bench/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryFetcher } from '../src/fetch/index.js';
import { decidePurchase, isGranted, type PurchaseStore } from '../src/purchase/index.js';
import { MemoryPurchaseStore } from '../src/purchase/testing/index.js';
import { Kit, VECTOR_ENV } from '../src/scenarios/kit.js';
import { openRedis } from '../src/stores/redis/client.js';
import { createRedisPorts } from '../src/stores/redis/ports.js';
import type { SqlDatabase } from '../src/stores/sql/driver.js';
import { openPostgres } from '../src/stores/sql/postgres.js';
import { SqlPurchaseStore } from '../src/stores/sql/purchase-store.js';
import { prepareSchema } from '../src/stores/sql/schema.js';
import { openSqlite } from '../src/stores/sql/sqlite.js';
import { createMemoryPorts, verifyRequest, type VerifierPorts, type VerifierRequest } from '../src/verifier/index.js';
import { whyNoPostgres, whyNoRedis, startPostgres, startRedis } from '../tests/stores/servers.js';
import { verificationsOverHttp } from './over-http.js';
import { type Contender, capacityFor, inRounds, type RoundsPlan } from './rounds.js';
import { type Figures, ratiosMarkdown, ratiosOf, ratiosText, type StoresResults } from './ratios.js';
import { buyerRequest, challengeOf, PACK_CONFIG, paidHeaders, purchasePorts } from './purchase-world.js';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'stores.json');
const RESULTS_MARKDOWN = join(dirname(RESULTS), 'stores.md');
/** Every table: 5 timed rounds of half a second per contender, after one of warm-up each. */
const PLAN: RoundsPlan = { rounds: 5, roundSeconds: 0.5 };
const HTTP_CONCURRENCY = 8;
/** Requests signed beforehand per contender: room for rates well above this machine's (in process, over HTTP). */
const VERIFY_CAPACITY = capacityFor(PLAN, 10_000);
const HTTP_CAPACITY = capacityFor(PLAN, 4_000);

// ---------------------------------------------------------------------------------------------------------
// Verifications: alice is registered, her key set is cached by the first verification (warm-up).
// ---------------------------------------------------------------------------------------------------------
const kit = new Kit(VECTOR_ENV, 'stores-bench');
const signedRequests = (count: number): VerifierRequest[] =>
  Array.from({ length: count }, () => {
    const signed = kit.request({});
    const body = signed.body_base64 === undefined ? null : new Uint8Array(Buffer.from(signed.body_base64, 'base64'));
    return { method: signed.method, url: signed.url, headers: signed.headers, body, clientAddress: '192.0.2.1' };
  });
const clock = { now: () => kit.now };
const registration = { agentUrl: kit.alice.agentUrl, thumbprints: [kit.A.thumbprint], registeredAt: kit.now - 86_400 };
const verifierConfig = { authority: kit.env.authority };

/** Verifications through `ports`, each request signed before timing with a nonce of its own. */
function verifications(name: string, ports: VerifierPorts): Contender {
  const requests = signedRequests(VERIFY_CAPACITY);
  return {
    name,
    capacity: requests.length,
    run: async (i) => {
      const verdict = await verifyRequest(requests[i]!, ports, verifierConfig);
      if (!verdict.ok) throw new Error(`${name} refused request ${i}: ${verdict.code}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Purchases: the whole card purchase, a new challenge and token per iteration.
// ---------------------------------------------------------------------------------------------------------
const asking = buyerRequest({});

/**
 * MemoryPurchaseStore finds a buyer's pending charge by walking every record (a database uses an index), so the memory
 * contender moves to a new store every MEMORY_STORE_ROTATION purchases, as purchase.bench.ts does: otherwise its rate
 * falls with the run's length and the ratios flatter the databases. Making the store is counted in its figure.
 */
const MEMORY_STORE_ROTATION = 256;

/** Two presentations per purchase: the rate counts presentations, the latencies are of the whole purchase. */
function purchases(name: string, store: PurchaseStore | (() => PurchaseStore)): Contender {
  const portsOf = () => purchasePorts(`bench-${name}`, typeof store === 'function' ? store() : store);
  let ports = portsOf();
  return {
    name,
    unitsPerCall: 2,
    run: async (i) => {
      if (typeof store === 'function' && i % MEMORY_STORE_ROTATION === 0) ports = portsOf();
      const asked = await decidePurchase(asking, ports, PACK_CONFIG);
      const paid = await decidePurchase(buyerRequest(paidHeaders(challengeOf(asked), `spt_bench_${i}`)), ports, PACK_CONFIG);
      if (!isGranted(paid)) throw new Error(`${name}: purchase ${i} answered ${paid.status}`);
    },
  };
}

async function sqlStore(db: SqlDatabase): Promise<SqlPurchaseStore> {
  await prepareSchema(db);
  return new SqlPurchaseStore(db);
}

// ---------------------------------------------------------------------------------------------------------
// The run: every server up first, then the contenders of each table in interleaved rounds.
// ---------------------------------------------------------------------------------------------------------
const skipped: string[] = [];
const closing: (() => Promise<unknown>)[] = [];
// Other work on the machine skews the ratios: the load at the start is kept with the figures.
const loadAtStart = loadavg();
let verify: Figures[];
let overHttp: Figures[];
let purchase: Figures[];
try {
  const inProcess = [verifications('memory', createMemoryPorts(clock, createMemoryFetcher({ ...kit.docs() }), [registration]))];
  const http = [await verificationsOverHttp('memory', [], HTTP_CAPACITY, HTTP_CONCURRENCY)];
  closing.push(() => http[0]!.close());
  const redisMissing = whyNoRedis();
  if (redisMissing) skipped.push(`verify over Redis: ${redisMissing}`);
  else {
    const server = await startRedis();
    closing.push(() => server.stop());
    const redis = await openRedis(server.url);
    closing.push(() => redis.quit());
    const ports = createRedisPorts(redis, clock, createMemoryFetcher({ ...kit.docs() }), 'bench:');
    await ports.registrations.put(registration);
    inProcess.push(verifications('Redis', ports));
    const overRedis = await verificationsOverHttp('Redis', ['--store', server.url], HTTP_CAPACITY, HTTP_CONCURRENCY);
    closing.push(() => overRedis.close());
    http.push(overRedis);
  }
  verify = await inRounds(inProcess, PLAN);
  overHttp = await inRounds(http, PLAN);

  const stores = [purchases('memory', () => new MemoryPurchaseStore())];
  const dir = mkdtempSync(join(tmpdir(), 'apc-bench-'));
  closing.push(async () => rmSync(dir, { recursive: true, force: true }));
  const sqlite = await openSqlite(join(dir, 'bench.sqlite'));
  closing.push(() => sqlite.close());
  stores.push(purchases('SQLite', await sqlStore(sqlite)));
  const postgresMissing = whyNoPostgres();
  if (postgresMissing) skipped.push(`purchases over PostgreSQL: ${postgresMissing}`);
  else {
    const server = await startPostgres();
    closing.push(() => server.stop());
    const db = await openPostgres(await server.createDatabase());
    closing.push(() => db.close());
    stores.push(purchases('PostgreSQL', await sqlStore(db)));
  }
  purchase = await inRounds(stores, PLAN);
} finally {
  for (const close of closing.reverse()) await close();
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
const perRound = `${PLAN.rounds} rounds of ${PLAN.roundSeconds} s each`;
table(`Verifications through serve over HTTP (distinct signed POSTs, ${HTTP_CONCURRENCY} at a time; ${perRound})`, 'verif./s', overHttp);
table(`Verifications in-process (distinct signed requests, one at a time; ${perRound})`, 'verif./s', verify);
table(`Purchases (the rate counts presentations, p50/p99 a whole purchase: the 402 and the paid one; ${perRound})`, 'present./s', purchase);
for (const line of skipped) console.log(`skipped: ${line}`);

const environment = {
  node: process.version,
  platform: platform(),
  arch: arch(),
  cpu: cpus()[0]?.model ?? 'unknown',
  cpus: cpus().length,
  load: loadAtStart.map((l) => Math.round(l * 100) / 100),
};
const results: StoresResults = { environment, overHttp, verify, purchase, skipped };
console.log(`\nThe ratios issue 27 sets goals for, side by side in this run (load average at the start ${environment.load.join(' ')})`);
console.log(ratiosText(results));

mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify({ ...results, ratios: ratiosOf(results) }, null, 2)}\n`);
writeFileSync(RESULTS_MARKDOWN, `${ratiosMarkdown(results)}\n`);
console.log(`\nwritten to ${RESULTS} and ${RESULTS_MARKDOWN}`);
