import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { randomNonce, signRequest } from '../../src/httpsig/index.js';
import { credentialFor, parsePaymentChallenge, serializeCredential } from '../../src/purchase/index.js';
import { REFERENCE_TERMS_VERSION } from '../../src/reference/purchases.js';
import { agentAt, agentDocuments, keyFromName } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PROJECT_ROOT } from '../paths.js';

/** `serve` as users run it, in its own process, until the test kills it by pid. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** Signals the process and waits for it to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startServe(args: readonly string[]): Promise<ServeProcess> {
  // APC_SERVE_CPU_PROF=DIR: the process writes a CPU profile there when it ends (how bench/README.md profiles serve).
  const profile = process.env.APC_SERVE_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.APC_SERVE_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/cli/entry.ts', 'serve', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, signal);
    await ended;
  };
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(50)) {
    const url = /^listening on (\S+)$/m.exec(text)?.[1];
    if (url) return { url, child, output: () => text, kill };
    if (child.exitCode !== null) break;
  }
  await kill('SIGKILL');
  throw new Error(`serve did not start: ${text}`);
}

/** An answer read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A POST to `instance` (an address of one instance) for a request addressed to `url` (its public URL: path and Host). */
export function post(instance: string, url: string, headers: Record<string, string>): Promise<Answer> {
  const target = new URL(url);
  const to = new URL(instance);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: to.hostname, port: to.port, method: 'POST', path: `${target.pathname}${target.search}`, headers: { ...headers, host: target.host } },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.once('error', reject);
    request.end();
  });
}

/** An agent whose key set and card a fixture host on loopback publishes, signing requests the way the reference verifies them. */
export class SigningAgent {
  private constructor(
    readonly fixture: FixtureHost,
    readonly agentUrl: string,
    private readonly name: string,
  ) {}

  static async start(name: string): Promise<SigningAgent> {
    const fixture = await startFixtureHost();
    const agent = new SigningAgent(fixture, `${fixture.url}/a/${name}`, name);
    fixture.publish(agentDocuments(agentAt(agent.agentUrl), [keyFromName(`fleet-${name}`)]));
    return agent;
  }

  /** Signature headers (a fresh nonce each time) for a POST to `url`, covering `extra`. */
  sign(url: string, extra: Record<string, string> = {}): Record<string, string> {
    const now = Math.floor(Date.now() / 1000);
    const { headers } = signRequest({
      method: 'POST',
      url,
      headers: Object.entries(extra),
      keys: [{ privateJwk: keyFromName(`fleet-${this.name}`).privateJwk }],
      signatureAgent: agentAt(this.agentUrl).keySetUrl,
      created: now,
      expires: now + 60,
      nonces: [randomNonce()],
      coveredHeaders: Object.keys(extra).map((n) => n.toLowerCase()),
    });
    return { ...extra, ...headers };
  }

  /** The headers that pay the challenge in `wwwAuthenticate` with a test token, assenting to the reference terms. */
  static paying(wwwAuthenticate: string, token: string): Record<string, string> {
    const parsed = parsePaymentChallenge(wwwAuthenticate);
    if (!parsed.ok) throw new Error(`not a challenge: ${parsed.detail}`);
    return {
      [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(parsed.challenge, { spt: token })),
      [HEADERS.termsAccepted]: REFERENCE_TERMS_VERSION,
    };
  }

  close(): Promise<void> {
    return this.fixture.close();
  }
}
