import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileProblem } from './read-input.js';
import { isLoopbackAddress } from '../net/index.js';
import { resolve } from 'node:path';
import { DEFAULT_SERVED_AGENT_NAME, DEFAULT_SERVE_HOST } from '../reference/defaults.js';
import type { ServedReference } from '../reference/serve.js';
import type { PurchaseStores } from '../reference/purchases.js';
import type { VerifierPorts } from '../verifier/ports.js';
import type { OpenedStores } from '../stores/open.js';
import type { Command, CommandArgs } from './command.js';
import { HarnessError, InputError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { clientCredentialsOption, flag, serviceNameOption, stringOption } from './option-values.js';
import { readPrivateJwk } from './private-jwk.js';

const NAME = 'serve';
const MAX_PORT = 65535;

export const INSECURE_FIXTURES_WARNING =
  'warning: --allow-insecure-fixtures is on: plain-http agent documents on loopback are accepted; never use this against a real deployment';

/** Waits for the request to stop; `cancelled` aborts when serve gives up without serving (nothing to stop). */
export type WaitForStop = (cancelled: AbortSignal) => Promise<unknown>;

/** Resolves when the process is asked to stop (SIGINT or SIGTERM); its listeners go when it resolves or is cancelled. */
const untilSignal: WaitForStop = (cancelled) =>
  new Promise((resolve) => {
    const stop = (signal?: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      cancelled.removeEventListener('abort', onAbort);
      resolve(signal);
    };
    const onAbort = () => stop();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    cancelled.addEventListener('abort', onAbort, { once: true });
  });

/** A host name, an IPv4 address or a bracketed IPv6 address, with an optional port. */
const AUTHORITY = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A keys directory that exists must be a folder holding the agent's keys; a missing one is created. */
async function keysDirProblem(dir: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await stat(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw new UsageError(`--keys-dir ${dir}: ${fileProblem(error)}`, NAME);
  }
  if (!stats.isDirectory()) throw new UsageError(`--keys-dir ${dir} is a file, not a folder: name a folder (it is created when missing)`, NAME);
  // The reference and its stores load only when serving, so help and version answer at once.
  const { createFileKeyStore, loadOrCreateAgentKeys } = await import('../reference/agent/keys.js');
  try {
    await loadOrCreateAgentKeys(createFileKeyStore(dir));
  } catch (error) {
    throw new UsageError(`--keys-dir ${dir} does not hold the agent's keys: ${error instanceof Error ? error.message : String(error)}`, NAME);
  }
}

function portOption(args: CommandArgs): number {
  const value = stringOption(args, 'port');
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) > MAX_PORT) throw new UsageError(`--port must be a port number from 0 to ${MAX_PORT}, not "${value}"`, NAME);
  return Number(value);
}

function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const name = bare.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(bare);
}

function hostOption(args: CommandArgs): string {
  const value = stringOption(args, 'host');
  if (value === undefined) return DEFAULT_SERVE_HOST;
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  if (bare === '' || /[\s/@?#]/.test(bare)) throw new UsageError(`--host must be an address or host name such as 127.0.0.1, not "${value}"`, NAME);
  return bare;
}

/** `--public-url`: the one origin every instance of a fleet answers for (signatures name its host). */
function publicUrlOption(args: CommandArgs): URL | undefined {
  const value = stringOption(args, 'public-url');
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || `${url.pathname}${url.search}${url.hash}` !== '/') {
    throw new UsageError(`--public-url must be an http or https origin such as https://platform.example, not ${JSON.stringify(value)}`, NAME);
  }
  if (stringOption(args, 'authority') !== undefined) throw new UsageError('--public-url names the authority already: give it or --authority, not both', NAME);
  return url;
}

/**
 * The stores named by --store and --db, reached before serving: one that does not answer at all exits 3 (as a target
 * that does not answer); one that cannot be used otherwise (not installed, a bad URL, refusing us) is an input error (exit 2).
 */
async function storesOption(args: CommandArgs, cwd: string): Promise<OpenedStores> {
  const store = stringOption(args, 'store');
  if (store !== undefined && !/^rediss?:\/\//i.test(store))
    throw new UsageError(`--store must be a redis:// or rediss:// URL, not ${JSON.stringify(store)}`, NAME);
  const db = stringOption(args, 'db');
  if (db === '') throw new UsageError('--db must be a postgres:// URL or a SQLite file', NAME);
  const { openStores } = await import('../stores/open.js');
  const { StoreUnavailableError } = await import('../stores/unavailable.js');
  try {
    return await openStores({ ...(store === undefined ? {} : { store }), ...(db === undefined ? {} : { db }), cwd });
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error.unreachable ? new HarnessError(error.message) : new InputError(error.message);
    throw error;
  }
}

function listenProblem(error: unknown, host: string, port: number): Error {
  const code = (error as { code?: string }).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return new InputError(`cannot listen on ${where}: the port is already in use (try --port 0 for any free port)`);
  if (code === 'EACCES') return new InputError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`);
  if (code === 'EADDRNOTAVAIL') return new InputError(`cannot listen on ${where}: no network interface has that address`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new InputError(`cannot listen on ${where}: the host name does not resolve`);
  return error instanceof Error ? error : new Error(String(error));
}

/** `serve` with the way it learns to stop injected, so tests can run it in-process. */
export function createServeCommand(waitForStop: WaitForStop = untilSignal): Command {
  return {
    name: NAME,
    summary: 'serve the reference platform and agent on a port',
    usage:
      '[--host 127.0.0.1] [--port N] [--allow-insecure-fixtures] [--authority HOST | --public-url URL] [--client-address-header NAME] [--agent-name NAME] [--keys-dir DIR] [--store redis://...] [--db FILE | --db postgres://...] [--platform-token-key FILE] [--service-name NAME] [--owner-key KEY] [--agent-client ID:SECRET] [--test-control]',
    description: [
      'Serves the reference platform over plain HTTP: POST /api/auth/cli/token (verifies signed requests and',
      'platform bearers, answers a platform token), the key directory at',
      '/.well-known/http-message-signatures-directory, machine purchases (POST /api/mpp/credits, a priced',
      'single-call resource at /api/priced/echo, the LLM rail POST /api/llm/chat/completions, the agent socket',
      '/agents/NAME/uamp; its card processor charges test tokens spt_test_<outcome>_... with that outcome and',
      'spends nothing real) and widgets (POST /api/folders/{folderId}/publish-as-widget, the catalog at',
      '/.well-known/mcp/widgets.json, MCP Apps at /api/widgets/{postId}/mcp, and the reference-only folder',
      'upload POST /_reference/folders). The first stdout line is `listening on http://HOST:PORT`.',
      'Runs until SIGINT or SIGTERM, then closes every connection and exits 0.',
      '--allow-insecure-fixtures lets the fetch rules accept plain-http key sets and cards on loopback and',
      'admits http agent URLs, for local testing only; it is never on by default and says so when on.',
      'A --host other than a loopback address is served, with a warning: the reference is not hardened.',
      'Beside the platform, on the same origin, it serves the reference agent at /agents/NAME (4.1): declared',
      'endpoints (the conformance probes), /v1/models, /v1/chat/completions, its card, key set, OpenID configuration',
      "and POST /auth/token; its key is listed in the origin's key directory. A line `agent NAME at URL` follows",
      'the first line (after the --allow-insecure-fixtures warning when on). Its keys live in --keys-dir when given.',
      "State is kept in memory unless told: --store keeps the verifier's nonces, failure counts, key-set cache, card",
      'memory and registrations, and the purchase lock, on a Valkey or Redis server; --db keeps purchase records,',
      "charges, grants, balances, sales, stablecoin transfers, wallet totals, daily caps, the paid rails' spending and the",
      'widgets (uploaded folders, published agents, catalog records, posts, tool-call rows) in',
      'a SQLite file or on PostgreSQL, with the keys challenges and platform tokens',
      'are signed with, so a restart forgets no charge and instances sharing both (behind one --public-url) accept a',
      'signed request once, credit a purchase once and accept the platform tokens any of them issued.',
      '--platform-token-key FILE is the Ed25519 private JWK (as keygen writes it) platform tokens are signed with: give',
      'every instance of a deployment the same file and each accepts the tokens any of them issued. Without it the key is',
      'the one kept on --db, else on --store, else a fresh key of this process (its tokens die with it).',
      'A store that does not answer exits 3; one that cannot be used otherwise (not installed, refusing us) exits 2.',
      '--service-name NAME answers with the names a deployment called NAME writes where the spec writes Service:',
      'Acme-Terms-Version, Acme-Terms-Accepted, Acme-Payment-Methods, Acme-Purchase, X-Acme-Owner-Key, realm=acme.',
      "--owner-key KEY is the operator's platform key it accepts in X-Service-Owner-Key (5.2 key continuity), and",
      '--agent-client ID:SECRET a client its agent issues tokens to at POST /auth/token: give run the same values.',
      '--test-control answers the test control of docs/contracts.md section 5 at POST /_reference/test-control, to',
      'loopback peers only: a run (--control-url) puts one agent or one test token in a named state (buying closed,',
      'the purchase lock down, a charge that settles later...). Off by default; never on a deployment others use.',
    ].join('\n'),
    options: {
      host: { type: 'string', value: 'HOST', help: `address to bind (default ${DEFAULT_SERVE_HOST})` },
      port: { type: 'string', value: 'N', help: 'port to bind (default 0: any free port)' },
      'allow-insecure-fixtures': { type: 'boolean', help: 'accept plain http documents on loopback (local testing only)' },
      'client-address-header': { type: 'string', value: 'NAME', help: 'take the client address from this header when the peer is loopback (a proxy in front)' },
      authority: { type: 'string', value: 'HOST', help: 'the host signatures must name (default: the bound HOST:PORT)' },
      'agent-name': { type: 'string', value: 'NAME', help: `the reference agent's name; it is served at /agents/NAME (default ${DEFAULT_SERVED_AGENT_NAME})` },
      'keys-dir': { type: 'string', value: 'DIR', help: "the agent's keys directory (created 0700, key files 0600; default: keys in memory)" },
      'public-url': { type: 'string', value: 'URL', help: 'the origin the deployment answers for, e.g. https://platform.example (instead of --authority)' },
      store: { type: 'string', value: 'URL', help: "a redis:// URL: the verifier's state and the purchase lock (default: memory)" },
      db: { type: 'string', value: 'FILE|URL', help: 'a SQLite file or a postgres:// URL: purchase records and balances (default: memory)' },
      'platform-token-key': {
        type: 'string',
        value: 'FILE',
        help: 'the Ed25519 private JWK platform tokens are signed with, shared by every instance (default: kept on --db or --store, else fresh)',
      },
      'service-name': { type: 'string', value: 'NAME', help: 'the name written where the spec writes Service (headers, realm); default Service' },
      'owner-key': { type: 'string', value: 'KEY', help: "the operator's platform key accepted in X-Service-Owner-Key (default: none)" },
      'agent-client': { type: 'string', value: 'ID:SECRET', help: "a client of the agent's POST /auth/token (default: none)" },
      'test-control': { type: 'boolean', help: 'answer the test control at POST /_reference/test-control, loopback only (local testing only)' },
    },
    positionals: { names: [], min: 0, max: 0 },
    examples: [
      'agent-platform-conformance serve --port 8787',
      'agent-platform-conformance serve --port 8787 --allow-insecure-fixtures',
      'agent-platform-conformance serve --port 8787 --db purchases.sqlite',
      'agent-platform-conformance serve --port 8787 --allow-insecure-fixtures --test-control --owner-key op-key --agent-client suite:s3cret',
      'agent-platform-conformance serve --public-url https://platform.example --store redis://127.0.0.1:6379 --db postgres://apc@127.0.0.1/apc',
    ],
    available: true,
    run: (args, io) => runServe(args, io, waitForStop),
  };
}

async function runServe(args: CommandArgs, io: CliIo, waitForStop: WaitForStop): Promise<number> {
  const host = hostOption(args);
  const port = portOption(args);
  const insecure = flag(args, 'allow-insecure-fixtures');
  const authority = stringOption(args, 'authority');
  if (authority !== undefined && !AUTHORITY.test(authority)) {
    throw new UsageError(
      `--authority must be a host with an optional port, such as platform.example or 127.0.0.1:8787, not ${JSON.stringify(authority)}`,
      NAME,
    );
  }
  const keysDir = stringOption(args, 'keys-dir');
  if (keysDir !== undefined) await keysDirProblem(resolve(io.cwd, keysDir));
  const agentName = stringOption(args, 'agent-name') ?? DEFAULT_SERVED_AGENT_NAME;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(agentName)) throw new UsageError(`--agent-name must be letters, digits, ".", "_" or "-", not "${agentName}"`, NAME);
  const publicUrl = publicUrlOption(args);
  const serviceName = serviceNameOption(args, NAME);
  const ownerKey = stringOption(args, 'owner-key');
  if (ownerKey !== undefined && !/^[\x21-\x7e]+$/.test(ownerKey))
    throw new UsageError('--owner-key must be printable ASCII without spaces (it travels in a header field)', NAME);
  const agentClientValue = stringOption(args, 'agent-client');
  const agentClient = agentClientValue === undefined ? undefined : clientCredentialsOption(agentClientValue, NAME);
  const tokenKeyFile = stringOption(args, 'platform-token-key');
  const tokenKey = tokenKeyFile === undefined ? undefined : await readPrivateJwk(io, tokenKeyFile, '--platform-token-key', 'serve');
  const stores = await storesOption(args, io.cwd);
  // Ask for the stop before binding, so a signal that arrives while the server starts is not lost.
  const giveUp = new AbortController();
  const stop = waitForStop(giveUp.signal);

  let served: ServedReference<VerifierPorts, PurchaseStores>;
  try {
    const addressHeader = stringOption(args, 'client-address-header');
    const { serveReference } = await import('../reference/serve.js');
    served = await serveReference<VerifierPorts, PurchaseStores>({
      agent: {
        name: agentName,
        ...(keysDir ? { keysDir: resolve(io.cwd, keysDir) } : {}),
        ...(agentClient ? { clients: { [agentClient.id]: agentClient.secret } } : {}),
      },
      ...(flag(args, 'test-control') ? { testControl: true } : {}),
      host,
      port,
      allowInsecureFixtures: insecure,
      ...(authority === undefined ? {} : { authority }),
      ...(publicUrl ? { authority: publicUrl.host } : {}),
      ...(stores.ports ? { ports: stores.ports } : {}),
      ...(stores.purchaseStores ? { purchaseStores: stores.purchaseStores } : {}),
      platform: {
        ...(publicUrl ? { origin: publicUrl.origin } : {}),
        ...(serviceName === undefined ? {} : { serviceName }),
        ...(ownerKey === undefined ? {} : { ownerKeys: [ownerKey] }),
        ...(stores.challengeSecret ? { purchases: { challengeSecret: stores.challengeSecret } } : {}),
        ...(stores.widgets ? { widgets: { folders: stores.widgets, store: stores.widgets, usage: stores.widgets } } : {}),
        // A key configured wins over one kept on the stores: the operator named it for every instance.
        ...((tokenKey ?? stores.platformTokenKey) ? { platformTokenKey: tokenKey ?? stores.platformTokenKey } : {}),
      },
      ...(addressHeader ? { clientAddressHeader: addressHeader } : {}),
      // A 500 of the reference is a bug of ours: say what failed, with its stack, where the operator sees it.
      onError: (error, where) =>
        io.stderr.write(`error while answering ${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    });
  } catch (error) {
    giveUp.abort();
    await stores.close();
    if (error instanceof TypeError && /authority/.test(error.message)) throw new UsageError(`--authority: ${error.message}`, NAME);
    throw listenProblem(error, host, port);
  }
  io.stdout.write(`listening on ${served.url}\n`);
  if (insecure) io.stdout.write(`${INSECURE_FIXTURES_WARNING}\n`);
  if (served.agent) io.stdout.write(`agent ${served.agent.name} at ${served.agent.urls.agentUrl}\n`);
  if (!isLoopbackHost(host)) {
    io.stderr.write(`warning: serving on ${host}, which is not a loopback address: anyone who can reach it can use this reference platform\n`);
  }
  try {
    await stop;
  } finally {
    await served.close();
    await stores.close();
  }
  return EXIT.ok;
}

export const serveCommand: Command = createServeCommand();
