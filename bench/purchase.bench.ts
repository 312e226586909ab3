/**
 * Presentations per second through the purchase machine (decidePurchase, POST /api/mpp/credits) with every
 * port in memory (src/purchase/testing/memory.ts):
 *
 *   challenge          no credential: 402 payment-required with one fresh challenge (issued and recorded)
 *   fresh              the buyer's whole purchase: the 402 above, then the paid credential (assent covered),
 *                      charged and settled at once: 200 granted. Two presentations per iteration.
 *   resume-granted     the same credential presented again after it was granted: 409 purchase_already_granted
 *   resume-processing  the same credential presented again while its charge is processing: a status read at
 *                      the processor, 503 charge_processing
 *
 * Run with `npm run bench` (after the verifier bench); figures go to the console and to
 * bench/results/purchase.json. See bench/README.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench, type Task } from 'tinybench';
import { decidePurchase, isGranted, type PurchaseOutcome, type PurchaseRequest } from '../src/purchase/index.js';
import { MemoryPurchaseStore, type ScriptedCharge } from '../src/purchase/testing/index.js';
import { buyerRequest as request, challengeOf, PACK_CONFIG as config, paidHeaders, purchasePorts } from './purchase-world.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(HERE, 'results', 'purchase.json');

const ROUNDS = 3;
const WARMUP_MS = 500;
const TIME_MS = 1_000;
/**
 * The fresh path adds a challenge, a charge record and a grant per iteration, and the in-memory store finds a
 * buyer's pending charge by walking every record (a database would use an index). So that the figure is the
 * machine's and not a test double's growth, the fresh path moves to new in-memory ports every ROTATE
 * iterations; building them (a few empty Maps) is part of the figure.
 */
const ROTATE = 256;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`bench setup: ${message}`);
}

function memoryPorts(script: readonly ScriptedCharge[] = []): ReturnType<typeof purchasePorts<MemoryPurchaseStore>> {
  return purchasePorts('bench', new MemoryPurchaseStore(), script);
}

const codeOf = (outcome: PurchaseOutcome): string => (isGranted(outcome) ? 'granted' : outcome.code);

// ---------------------------------------------------------------------------------------------------------
// challenge and fresh: a new challenge per iteration, paid with a new token.
// ---------------------------------------------------------------------------------------------------------
const asking = request({});
let freshPorts = memoryPorts();
let freshCount = 0;
let presentations = 0;

async function challenge(): Promise<void> {
  if (++freshCount % ROTATE === 0) freshPorts = memoryPorts();
  const asked = await decidePurchase(asking, freshPorts, config);
  presentations++;
  if (asked.status !== 402) throw new Error(`challenge: ${asked.status}`);
}

async function fresh(): Promise<void> {
  if (++freshCount % ROTATE === 0) freshPorts = memoryPorts();
  const asked = await decidePurchase(asking, freshPorts, config);
  const paid = await decidePurchase(request(paidHeaders(challengeOf(asked), `spt_bench_${freshCount}`)), freshPorts, config);
  presentations += 2;
  if (!isGranted(paid)) throw new Error(`fresh: ${paid.status} ${codeOf(paid)}`);
}

// ---------------------------------------------------------------------------------------------------------
// resume-granted and resume-processing: one credential, presented again and again.
// ---------------------------------------------------------------------------------------------------------
async function presentedOnce(script: ScriptedCharge[], expected: string): Promise<{ ports: ReturnType<typeof memoryPorts>; again: PurchaseRequest }> {
  const ports = memoryPorts(script);
  const offered = challengeOf(await decidePurchase(asking, ports, config));
  const again = request(paidHeaders(offered, 'spt_bench_resume'));
  const first = await decidePurchase(again, ports, config);
  check(codeOf(first) === expected, `first presentation should be ${expected}, got ${codeOf(first)}`);
  return { ports, again };
}

const granted = await presentedOnce(['settled'], 'granted');
const processing = await presentedOnce(['processing'], PURCHASE_ERRORS.charge_processing.code);

async function resumeGranted(): Promise<void> {
  const answer = await decidePurchase(granted.again, granted.ports, config);
  presentations++;
  if (codeOf(answer) !== PURCHASE_ERRORS.purchase_already_granted.code) throw new Error(`resume-granted: ${codeOf(answer)}`);
}

async function resumeProcessing(): Promise<void> {
  const answer = await decidePurchase(processing.again, processing.ports, config);
  presentations++;
  if (codeOf(answer) !== PURCHASE_ERRORS.charge_processing.code) throw new Error(`resume-processing: ${codeOf(answer)}`);
}

// The paths prove themselves once before timing.
await challenge();
await fresh();
await resumeGranted();
await resumeProcessing();
check(processing.ports.processor.chargeCalls() === 1, 'resuming a processing charge reads its status, never charges again');

// ---------------------------------------------------------------------------------------------------------
// Run, report, record: ROUNDS interleaved rounds in rotated order, each task's median round.
// ---------------------------------------------------------------------------------------------------------
type Name = 'challenge' | 'fresh' | 'resume-granted' | 'resume-processing';
const TASKS: Record<Name, { fn: () => Promise<void>; presentations: number }> = {
  challenge: { fn: challenge, presentations: 1 },
  fresh: { fn: fresh, presentations: 2 },
  'resume-granted': { fn: resumeGranted, presentations: 1 },
  'resume-processing': { fn: resumeProcessing, presentations: 1 },
};
const NAMES = Object.keys(TASKS) as Name[];

interface Figure {
  readonly opsPerSec: number;
  readonly presentationsPerSec: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly rmePct: number;
  readonly samples: number;
}

function figure(name: Name, task: Task | undefined): Figure {
  const result = task?.result;
  if (!result || (result.state !== 'completed' && result.state !== 'aborted-with-statistics')) {
    throw new Error(`task ${name} did not complete: ${result?.state ?? 'no result'}`);
  }
  const { latency } = result;
  const opsPerSec = 1_000 / latency.mean;
  return {
    opsPerSec,
    presentationsPerSec: opsPerSec * TASKS[name].presentations,
    meanUs: latency.mean * 1_000,
    p50Us: latency.p50 * 1_000,
    rmePct: latency.rme,
    samples: latency.samplesCount,
  };
}

const before = presentations;
const rounds: Record<Name, Figure>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: TIME_MS, warmup: true, warmupTime: round === 0 ? WARMUP_MS : WARMUP_MS / 2, throws: true });
  for (let n = 0; n < NAMES.length; n++) {
    const name = NAMES[(n + round) % NAMES.length]!;
    bench.add(name, TASKS[name].fn, { async: true });
  }
  await bench.run();
  rounds.push(Object.fromEntries(NAMES.map((name) => [name, figure(name, bench.getTask(name))])) as Record<Name, Figure>);
}
check(presentations > before, 'the tasks ran');

function medianRound(name: Name): Figure {
  const sorted = rounds.map((r) => r[name]).sort((a, b) => a.meanUs - b.meanUs);
  return sorted[Math.floor(sorted.length / 2)]!;
}
const figures = Object.fromEntries(NAMES.map((name) => [name, medianRound(name)])) as Record<Name, Figure>;

const version = (pkg: string): string =>
  (JSON.parse(readFileSync(join(HERE, '..', 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const record = {
  date: new Date().toISOString(),
  environment: { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length },
  harness: {
    tinybench: version('tinybench'),
    rounds: ROUNDS,
    warmupMs: WARMUP_MS,
    timeMsPerTaskAndRound: TIME_MS,
    figures: 'median round per task',
    freshPortsRotateEvery: ROTATE,
  },
  machine: {
    entry: 'decidePurchase',
    route: '/api/mpp/credits',
    method: 'stripe',
    ports: 'in memory (src/purchase/testing/memory.ts)',
    challengeBinding: 'SHA-256 (no secret)',
  },
  results: figures,
  rounds,
};

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
console.log('\npurchase machine: presentations through decidePurchase (POST /api/mpp/credits, card), ports in memory');
console.log(`${record.environment.node} on ${record.environment.cpu}; ${ROUNDS} rounds of ${TIME_MS} ms per task (median round shown)\n`);
console.table(
  Object.fromEntries(
    NAMES.map((name) => {
      const f = figures[name];
      return [
        name,
        {
          'ops/s': fmt(f.opsPerSec),
          'presentations/s': fmt(f.presentationsPerSec),
          'mean µs': fmt(f.meanUs, 2),
          'p50 µs': fmt(f.p50Us, 2),
          '± %': fmt(f.rmePct, 2),
          samples: f.samples,
        },
      ];
    }),
  ),
);

mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(record, null, 2)}\n`);
console.log(`\nwritten to ${join('bench', 'results', 'purchase.json')}`);
