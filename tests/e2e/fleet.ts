import { type ServeProcess, SigningAgent, freePort, startServe } from '../stores/serve-process.js';
import { type CliProcessResult, type RunResult, spawnCli } from './spawn-cli.js';
import { startPostgres, startRedis, type TestPostgres, type TestServer, whyNoPostgres, whyNoRedis } from '../stores/servers.js';

export interface FleetOptions {
  /** How many `serve` instances (2 by default). */
  readonly instances?: number;
  /** Where the purchases are kept: a PostgreSQL database started here (the default), or this SQLite file. */
  readonly purchases?: 'postgres' | { readonly sqliteFile: string };
  /** A signing agent, published by a fixture host here under this name. */
  readonly agent?: string;
  /**
   * The URL every instance answers under (its --public-url): a name no client resolves (requests carry it as Host), or
   * `first-instance` for the first instance's own loopback URL, which a live run can reach.
   */
  readonly publicUrl: string | 'first-instance';
  /** Arguments every instance is given besides its port, the public URL and the stores. */
  readonly args?: readonly string[];
}

/** `serve` instances over one Redis (and one PostgreSQL), as a fleet behind a load balancer, and what they share. */
export interface Fleet {
  readonly instances: readonly ServeProcess[];
  readonly redis: TestServer;
  /** Absent when the purchases go to a SQLite file. */
  readonly postgres?: TestPostgres;
  readonly agent?: SigningAgent;
  /** Ends the instances, then the agent and the stores. */
  stop(): Promise<void>;
}

/** Why a fleet cannot start here (a server missing), or undefined; a fleet keeping its purchases in SQLite needs no PostgreSQL. */
export function whyNoFleet(purchases: 'postgres' | 'sqlite' = 'postgres'): string | undefined {
  return whyNoRedis() ?? (purchases === 'postgres' ? whyNoPostgres() : undefined);
}

/** Starts the stores, the agent and then the instances one after the other: the first creates the schema, the next find it. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const started: { instances: ServeProcess[]; redis?: TestServer; postgres?: TestPostgres; agent?: SigningAgent } = { instances: [] };
  const stop = async () => {
    for (const serve of started.instances.splice(0)) await serve.kill('SIGTERM');
    await started.agent?.close();
    await started.redis?.stop();
    await started.postgres?.stop();
  };
  try {
    const purchases = options.purchases ?? 'postgres';
    await Promise.all([
      startRedis().then((s) => (started.redis = s)),
      purchases === 'postgres' ? startPostgres().then((s) => (started.postgres = s)) : undefined,
      options.agent === undefined ? undefined : SigningAgent.start(options.agent).then((a) => (started.agent = a)),
    ]);
    const db = purchases === 'postgres' ? await started.postgres!.createDatabase() : purchases.sqliteFile;
    const firstPort = options.publicUrl === 'first-instance' ? await freePort() : 0;
    const publicUrl = options.publicUrl === 'first-instance' ? `http://127.0.0.1:${firstPort}` : options.publicUrl;
    const shared = ['--allow-insecure-fixtures', '--public-url', publicUrl, '--store', started.redis!.url, '--db', db, ...(options.args ?? [])];
    for (let i = 0; i < (options.instances ?? 2); i++) started.instances.push(await startServe(['--port', String(i === 0 ? firstPort : 0), ...shared]));
  } catch (error) {
    await stop();
    throw error;
  }
  const { instances, redis, postgres, agent } = started;
  return { instances, redis: redis!, ...(postgres ? { postgres } : {}), ...(agent ? { agent } : {}), stop };
}

/** What a run's --json report holds that these tests read. */
export interface FleetRunReport {
  readonly results: readonly RunResult[];
  readonly pacing?: { readonly wallTimeMs: number; readonly floorMs: number; readonly failingRequests: number; readonly throttled: boolean };
}

/** `run --base-url A --also-base-url B ...args --out out --json` in its own process, against the fleet's first two instances. */
export async function runAgainstFleet(
  fleet: Fleet,
  args: readonly string[],
  out: string,
  timeoutMs: number,
): Promise<{ readonly run: CliProcessResult; readonly report: FleetRunReport }> {
  const [a, b] = fleet.instances;
  const run = await spawnCli(['run', '--base-url', a!.url, '--also-base-url', b!.url, ...args, '--out', out, '--json'], timeoutMs);
  return { run, report: JSON.parse(run.stdout) as FleetRunReport };
}
