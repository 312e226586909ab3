import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Real Redis and PostgreSQL servers from Debian's packages (`.ci/run` installs redis-server and postgresql), each
 * on a free loopback port with its data in a temp dir, stopped by pid by the test that started it. Absent binaries
 * skip the tests with the reason, except in CI, where they must run.
 */

export interface TestServer {
  readonly url: string;
  stop(): Promise<void>;
  /** Stops the server process as an outage would (its port closes, its data stays); `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** Why the server cannot be started here (the binary is absent), or undefined when it can. Throws in CI. */
function missing(what: string, binary: string | undefined): string | undefined {
  if (binary !== undefined) return undefined;
  const reason = `no ${what} on this machine (apt-get install ${what === 'redis-server' ? 'redis-server' : 'postgresql'}, as .ci/run does)`;
  if (process.env.CI) throw new Error(`CI must run the store tests: ${reason}`);
  return reason;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The newest of Debian's PostgreSQL versions (/usr/lib/postgresql/N/bin), else one on PATH. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest !== undefined) return join(root, newest, 'bin');
  const initdb = onPath('initdb');
  return initdb === undefined ? undefined : join(initdb, '..');
}

export const whyNoRedis = (): string | undefined => missing('redis-server', onPath('redis-server'));
export const whyNoPostgres = (): string | undefined => missing('postgres', postgresBin());

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function endChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, signal);
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  }
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, dir: string): Promise<void> {
  await endChild(child, signal);
  rmSync(dir, { recursive: true, force: true });
}

/** Polls `ready` until it answers true; fails with the server's output when it never does. */
async function waitFor(ready: () => Promise<boolean>, child: ChildProcess, output: () => string, what: string): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until; await sleep(50)) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${output()}`);
    if (await ready().catch(() => false)) return;
  }
  throw new Error(`${what} did not start within 30 s: ${output()}`);
}

function captured(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (chunk) => (text += chunk));
  child.stderr?.on('data', (chunk) => (text += chunk));
  return () => text.slice(-2000);
}

export async function startRedis(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apc-redis-'));
  const port = await freePort();
  const start = async () => {
    const started = spawn(
      onPath('redis-server')!,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = captured(started);
    await waitFor(async () => output().includes('Ready to accept connections'), started, output, 'redis-server');
    return started;
  };
  let child = await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopChild(child, 'SIGTERM', dir),
    // Nothing is saved (--save ''): a Redis that comes back is empty, as one restarted without persistence is.
    pause: () => endChild(child, 'SIGTERM'),
    resume: async () => {
      child = await start();
    },
  };
}

/** Initdb refuses root: as root, the cluster belongs to the `postgres` user Debian's package creates (or nobody). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  const line = passwd.find((l) => l.startsWith('postgres:')) ?? passwd.find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = line!.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export interface TestPostgres extends TestServer {
  /** A fresh, empty database on the server. */
  createDatabase(): Promise<string>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin()!;
  const dir = mkdtempSync(join(tmpdir(), 'apc-pg-'));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  execFileSync(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'apc', '--no-sync', '-E', 'UTF8', '--locale', 'C'], {
    ...as,
    stdio: 'pipe',
  });
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
  const url = `postgres://apc@127.0.0.1:${port}/postgres`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 2 });
  const start = async () => {
    const started = spawn(join(bin, 'postgres'), ['-D', join(dir, 'data'), '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
      ...as,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = captured(started);
    await waitFor(async () => (await admin`select 1 as up`)[0]?.up === 1, started, output, 'postgres');
    return started;
  };
  let child = await start();
  let databases = 0;
  return {
    url,
    async createDatabase() {
      const name = `t${++databases}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      return `postgres://apc@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await admin.end({ timeout: 1 });
      // SIGINT is PostgreSQL's fast shutdown: clients are disconnected, nothing is kept.
      await stopChild(child, 'SIGINT', dir);
    },
    // The fast shutdown again, the data kept: what comes back has every record written before.
    pause: () => endChild(child, 'SIGINT'),
    resume: async () => {
      child = await start();
    },
  };
}
