import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { PROJECT_ROOT } from '../paths.js';

/**
 * Issue 13: a live run against a hostile target ends by itself, with its memory bounded, and blames the target for
 * the target's faults. Each case is a tiny loopback server doing one thing wrong; the installed command
 * (bin/agent-platform-conformance.js, over dist/) runs against it as its own process, watched from outside: its exit
 * code, its wall time, and the peak memory of it and every process it started (VmHWM and VmRSS from /proc).
 */
const exec = promisify(execFile);
const BIN = join(PROJECT_ROOT, 'bin', 'agent-platform-conformance.js');
/** Every process of a run stays under this (VmHWM); its whole tree (the run and its vitest worker) under the second. */
const PROCESS_MEMORY_MB = 600;
const TREE_MEMORY_MB = 1024;
/** A run that ends by itself against these targets does so well within this; past it the test kills the run. */
const WALL_LIMIT_MS = 90_000;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
/** Checks over three suite files: a key directory read, a signed request, and 4.5's setup (a beforeAll) with the three checks that share it. */
const PUBLISH_CHECKS = ['publish.owned-folder', 'publish.not-owner-refused', 'publish.republish-in-place'].flatMap((id) => ['--only', id]);
const PLATFORM_CHECKS = ['--only', 'key-directory.entries', '--only', 'signed.agent-header-absent', ...PUBLISH_CHECKS];
const AGENT_CHECKS = ['--only', '4.2', '--only', 'agent-errors.content-type'];

interface Measured {
  readonly code: number | null;
  readonly wallMs: number;
  /** The largest VmHWM of any process of the run's tree. */
  readonly peakProcessMb: number;
  /** The largest sum of VmRSS over the run's tree at one moment. */
  readonly peakTreeMb: number;
  readonly stderr: string;
  readonly report: RunReport | undefined;
}

/** The pids under `pid` (itself included), from /proc. */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${tree[i]}/task`))
        for (const child of readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) tree.push(Number(child));
    } catch {}
  }
  return tree;
}

function memoryKb(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

const children: ChildProcess[] = [];
const outs: string[] = [];

/** Ends a run that did not end by itself, and the processes it started (its vitest worker), each by its pid. */
function killTree(pid: number): void {
  for (const each of processTree(pid).reverse()) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {}
  }
}

async function run(args: readonly string[]): Promise<Measured> {
  const out = mkdtempSync(join(tmpdir(), 'apc-hostile-'));
  outs.push(out);
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--timeout', '2000', '--out', out], { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-64 * 1024)));
  let peakProcessKb = 0;
  let peakTreeKb = 0;
  const sample = () => {
    let tree = 0;
    for (const pid of processTree(child.pid!)) {
      const m = memoryKb(pid);
      if (!m) continue;
      tree += m.rss;
      peakProcessKb = Math.max(peakProcessKb, m.hwm);
    }
    peakTreeKb = Math.max(peakTreeKb, tree);
  };
  const sampler = setInterval(sample, 100);
  const killer = setTimeout(() => killTree(child.pid!), WALL_LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearInterval(sampler);
  clearTimeout(killer);
  const [runDir] = existsSync(out) ? readdirSync(out) : [];
  const file = runDir ? join(out, runDir, 'report.json') : '';
  return {
    code,
    wallMs: Math.round(performance.now() - started),
    peakProcessMb: Math.round(peakProcessKb / 1024),
    peakTreeMb: Math.round(peakTreeKb / 1024),
    stderr,
    report: file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunReport) : undefined,
  };
}

/** What each case measured, printed at the end (the issue asks for them). */
const measured: string[] = [];

function expectBounded(name: string, m: Measured, wallMs = WALL_LIMIT_MS): void {
  measured.push(`${name}: exit ${m.code}, ${(m.wallMs / 1000).toFixed(1)} s, peak ${m.peakProcessMb} MB per process, ${m.peakTreeMb} MB for the tree`);
  expect(m.wallMs, `${name}: ended by itself`).toBeLessThan(wallMs);
  if (process.platform === 'linux') {
    expect(m.peakProcessMb, `${name}: peak memory of a process (VmHWM)`).toBeLessThan(PROCESS_MEMORY_MB);
    expect(m.peakTreeMb, `${name}: peak memory of the run's processes together (VmRSS)`).toBeLessThan(TREE_MEMORY_MB);
  }
  // vitest's advice about its own configuration never reaches the user.
  const said = [m.stderr, ...(m.report?.results ?? []).map((r) => r.message ?? ''), ...(m.report?.harnessErrors ?? [])].join('\n');
  expect(said).not.toMatch(/hookTimeout|testTimeout|If this is a long-running/);
}

/** A target's fault: exit 1, a complete report with no harness error, every check failed (or not run) for the reason given. */
function expectTargetFault(name: string, m: Measured, fault: RegExp): void {
  expectBounded(name, m);
  expect(m.code, `${name}: exit code (stderr: ${m.stderr.slice(-2000)})`).toBe(1);
  expect(m.report?.harnessErrors).toEqual([]);
  expect(m.report?.complete).toBe(true);
  const failed = (m.report?.results ?? []).filter((r) => r.verdict === 'fail');
  expect(failed.length, `${name}: failed checks`).toBeGreaterThan(0);
  for (const r of failed) expect(r.message, `${name}: ${r.id}`).toMatch(fault);
}

// The targets.
const servers: Array<HttpServer | NetServer> = [];
const sockets = new Set<Socket>();
const urls: Record<string, string> = {};

async function listen(name: string, server: HttpServer | NetServer): Promise<void> {
  servers.push(server);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function http(handler: (req: import('node:http').IncomingMessage, res: ServerResponse) => void): HttpServer {
  return createHttpServer((req, res) => {
    req.resume();
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    handler(req, res);
  });
}

/** Writes `limit` bytes (endless by default), only as fast as the client reads them: nothing is held in memory here. */
function stream(res: ServerResponse, limit = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const more = () => {
    while (sent < limit) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return;
    }
    res.end();
  };
  res.on('drain', more);
  more();
}

/** 256 MiB of zeros, gzipped (about 250 KB), made without holding the 256 MiB. */
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (d: Buffer) => parts.push(d));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 256; i++) if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  await new Promise<void>((resolve) => gzip.end(resolve));
  return Buffer.concat(parts);
}

/** The newest modification time of a file under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

beforeAll(async () => {
  // The bin runs dist/: built when it is missing or older than the sources (CI builds it with npm ci).
  const main = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js');
  if (!existsSync(main) || statSync(main).mtimeMs < newest(join(PROJECT_ROOT, 'src')))
    await exec(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: PROJECT_ROOT,
      timeout: 300_000,
    });
  const bomb = await gzipBomb();
  await listen(
    'endless',
    http((_req, res) => stream(res.writeHead(200, { 'content-type': 'application/json' }))),
  );
  await listen(
    'huge',
    http((_req, res) => stream(res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) }), 1024 ** 3)),
  );
  await listen(
    'stalled',
    http((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).write('{')),
  );
  // Accepts the connection and says nothing, ever.
  await listen(
    'silent',
    createNetServer(() => undefined),
  );
  // Answers the run's first request (GET /), then nothing: every check waits.
  await listen(
    'rootOnly',
    http((req, res) => (req.url === '/' ? res.end('ok') : undefined)),
  );
  await listen(
    'garbage',
    createNetServer((socket) => socket.end('\u0000\u0001\u0002 this is not HTTP \r\n\r\n\u00ff\u00fe')),
  );
  await listen(
    'headers',
    http((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(100 * 1024) }).end('{}')),
  );
  await listen(
    'redirects',
    http((req, res) => res.writeHead(307, { location: req.url ?? '/' }).end()),
  );
  await listen(
    'gzip',
    http((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb),
    ),
  );
  await listen(
    'reset',
    http((req) => req.socket.resetAndDestroy()),
  );
}, 360_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) killTree(child.pid!);
  for (const out of outs) rmSync(out, { recursive: true, force: true });
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  console.log(`hostile targets:\n  ${measured.join('\n  ')}`);
});

describe('run --base-url against a hostile target ends by itself, bounded, and blames the target', () => {
  test('an endless body: each read stops at --max-body (64 MiB)', async () => {
    const m = await run(['--base-url', urls.endless!, ...PLATFORM_CHECKS]);
    expectTargetFault('endless body', m, /the answer's body passed 67108864 bytes/);
  });

  test('a 1 GB body (Content-Length, streamed as read): refused on its announced length', async () => {
    const m = await run(['--base-url', urls.huge!, ...PLATFORM_CHECKS]);
    expectTargetFault('1 GB Content-Length', m, /the answer's body passed 67108864 bytes \(.*, whose Content-Length announced 1073741824\)/);
  });

  test('a smaller --max-body is the cap said', async () => {
    const m = await run(['--base-url', urls.endless!, '--max-body', '1MiB', '--only', 'key-directory.entries']);
    expectTargetFault('endless body, --max-body 1MiB', m, /the answer's body passed 1048576 bytes .*--max-body 1048576/);
  });

  test('a body stalled after the headers: each check ends at its time limit', async () => {
    const m = await run(['--base-url', urls.stalled!, ...PLATFORM_CHECKS]);
    expectTargetFault('stalled body', m, /did not finish within \d+ ms|did not end within|stopped sending/);
  });

  test('garbage bytes, not HTTP', async () => {
    const m = await run(['--base-url', urls.garbage!, ...PLATFORM_CHECKS]);
    expectTargetFault('garbage', m, /is not HTTP\/1\.1/);
  });

  test("headers past undici's limit (100 KB): the checks fail naming it, not a harness error", async () => {
    const m = await run(['--base-url', urls.headers!, ...PLATFORM_CHECKS]);
    expectTargetFault('header overflow', m, /the target's response headers to .* exceed undici's limit/);
    // 4.5's setup met the fault: its checks fail with it rather than the run blaming the suite file.
    expect(m.report?.results.filter((r) => r.suite === 'suites/4.5-publish.test.ts').map((r) => r.verdict)).toEqual(['fail', 'fail', 'fail']);
  });

  test('a connection reset on every request', async () => {
    const m = await run(['--base-url', urls.reset!, ...PLATFORM_CHECKS]);
    expectTargetFault('connection reset', m, /the target (reset|closed) the connection/);
  });

  test('a redirect loop: redirects are answers, never followed', async () => {
    const m = await run(['--base-url', urls.redirects!, ...PLATFORM_CHECKS]);
    expectBounded('redirect loop', m);
    expect(m.code).toBe(1);
    expect(m.report?.harnessErrors).toEqual([]);
    expect(m.report?.results.find((r) => r.id === 'signed.agent-header-absent')?.message).toContain('but the answer was 307');
  });

  test('a gzip bomb (256 MiB of zeros as 250 KB): bodies are not decompressed', async () => {
    const m = await run(['--base-url', urls.gzip!, ...PLATFORM_CHECKS]);
    expectBounded('gzip bomb', m);
    expect(m.code).toBe(1);
    expect(m.report?.harnessErrors).toEqual([]);
  });

  test('a target that accepts the connection and never answers: the deadline ends the run, exit 3, report incomplete', async () => {
    const m = await run(['--base-url', urls.silent!, ...PLATFORM_CHECKS, '--deadline', '4']);
    expectBounded('never answers, --deadline 4', m, 45_000);
    expect(m.code).toBe(3);
    expect(m.report?.complete).toBe(false);
    expect(m.report?.harnessErrors[0]).toContain('the run was interrupted (its deadline passed: 4 s, set by --deadline)');
  });

  test('a target that answers GET / only: checks end one by one until the deadline ends the run, exit 3', async () => {
    const m = await run(['--base-url', urls.rootOnly!, '--only', '7.3', '--deadline', '12']);
    expectBounded('answers GET / only, --deadline 12', m, 50_000);
    expect(m.code).toBe(3);
    expect(m.report?.complete).toBe(false);
    expect(m.report?.harnessErrors[0]).toContain('its deadline passed: 12 s');
    const ids = m.report?.results.map((r) => r.id) ?? [];
    expect(new Set(ids).size, 'each check once').toBe(ids.length);
    for (const r of m.report?.results ?? []) expect(r.verdict === 'fail' || r.verdict === 'not-run', r.id).toBe(true);
  });
});

describe('run --agent-url against a hostile agent', () => {
  test('an endless body: each read stops at --max-body', async () => {
    const m = await run(['--agent-url', `${urls.endless!}/agents/hostile`, ...AGENT_CHECKS]);
    expectTargetFault('agent, endless body', m, /the answer's body passed 67108864 bytes/);
  });
});
