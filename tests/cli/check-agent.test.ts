import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveReference, type ServedReference } from '../../src/reference/serve.js';
import { keyFromName } from '../../src/scenarios/identities.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { AGENT_CHECK_PROBLEMS as P, HEADERS, LIMITS, MEDIA_TYPES, RFC9421_TEST_KEYS, WELL_KNOWN } from '../../src/spec/index.js';
import { closedPort, startServer, type LocalServer } from '../fetch/local-server.js';
import { runCli, STACK_LINE } from './run-cli.js';

const CA_FILE = fileURLToPath(new URL('../fixtures/tls/localhost.cert.pem', import.meta.url));

/**
 * check-agent through the command line's main (in-process): against the reference agent that `serve` mounts on loopback,
 * and against broken agents a small loopback server plays (every document under --allow-insecure).
 */
interface Served {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

let reference: ServedReference;
let broken: LocalServer;
let wrongMedia: LocalServer;
const routes = new Map<string, Served>();

const key = keyFromName('cli/check-agent');
const entry = { ...key.publicJwk, kid: key.thumbprint };

function agentDocs(origin: string, path: string, over: { card?: unknown; keys?: unknown } = {}): void {
  const agentUrl = `${origin}${path}`;
  routes.set(`${path}${WELL_KNOWN.agentCard}`, {
    status: 200,
    body: over.card ?? { client_id: agentUrl + WELL_KNOWN.agentCard, url: agentUrl, jwks_uri: agentUrl + WELL_KNOWN.jwks },
  });
  routes.set(`${path}${WELL_KNOWN.jwks}`, { status: 200, body: over.keys ?? { keys: [entry] } });
}

/** `forced`: every answer carries `mediaType`, whatever the route says (a host that serves every file as JSON). */
function handler(mediaType: string, forced = false) {
  return (request: { url?: string }, response: import('node:http').ServerResponse) => {
    const found = routes.get(request.url ?? '');
    if (!found) {
      response.writeHead(404).end();
      return;
    }
    const body = found.body === undefined ? '' : JSON.stringify(found.body);
    const headers = forced ? { ...found.headers, [HEADERS.contentType]: mediaType } : { [HEADERS.contentType]: mediaType, ...found.headers };
    response.writeHead(found.status, headers).end(body);
  };
}

beforeAll(async () => {
  reference = await serveReference({ agent: { name: 'alice' } });
  broken = await startServer(handler(MEDIA_TYPES.json), { tls: false });
  wrongMedia = await startServer(handler(MEDIA_TYPES.json, true), { tls: false });
  const origin = broken.origin;
  routes.set(WELL_KNOWN.keyDirectory, { status: 200, body: { keys: [entry] }, headers: { [HEADERS.contentType]: MEDIA_TYPES.keyDirectory } });
  agentDocs(origin, '/not-self-naming', {
    card: { client_id: `${origin}/elsewhere`, url: `${origin}/not-self-naming`, jwks_uri: `${origin}/not-self-naming${WELL_KNOWN.jwks}` },
  });
  agentDocs(origin, '/seventeen', {
    keys: { keys: [entry, ...Array.from({ length: LIMITS.keysPerKeySet.value }, (_, i) => keyFromName(`cli/many/${i}`).publicJwk)] },
  });
  agentDocs(origin, '/test-key', { keys: { keys: [entry, { kty: 'OKP', crv: 'Ed25519', x: RFC9421_TEST_KEYS.ed25519X[0], use: 'sig' }] } });
  agentDocs(origin, '/redirect');
  // A key set that is the private JWK itself, and one whose entry carries d: the private key is exposed.
  agentDocs(origin, '/private-jwk', { keys: { ...key.privateJwk, use: 'sig' } });
  agentDocs(origin, '/private-entry', { keys: { keys: [{ ...key.privateJwk, use: 'sig', kid: key.thumbprint }] } });
  agentDocs(wrongMedia.origin, '/served-as-json');
  routes.set(`/redirect${WELL_KNOWN.jwks}`, { status: 301, headers: { [HEADERS.location]: `${origin}/elsewhere/jwks.json` } });
}, 60_000);

afterAll(async () => {
  await reference?.close();
  await broken?.close();
  await wrongMedia?.close();
});

async function checkJson(agentUrl: string) {
  const run = await runCli(['check-agent', agentUrl, '--allow-insecure', '--json']);
  expect(run.stderr).not.toMatch(STACK_LINE);
  return {
    code: run.code,
    report: JSON.parse(run.stdout) as {
      agent_url: string;
      ok: boolean;
      documents: Array<{ name: string; url: string; status: number | null; ok: boolean }>;
      problems: Array<{ code: string; requirement: string; url: string; message: string; level: string }>;
    },
    stderr: run.stderr,
  };
}

describe('check-agent', () => {
  it('passes the reference agent served on loopback, announcing --allow-insecure on stderr', async () => {
    const agentUrl = reference.agent!.urls.agentUrl;
    const run = await runCli(['check-agent', agentUrl, '--allow-insecure']);
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain(`agent ${agentUrl}`);
    expect(run.stdout).toMatch(/^OK:/m);
    expect(run.stderr).toMatch(/--allow-insecure is on/);
    const json = await checkJson(agentUrl);
    expect(json.code).toBe(EXIT.ok);
    expect(json.report).toMatchObject({ agent_url: agentUrl, ok: true, problems: [] });
    expect(json.report.documents.map((d) => [d.name, d.status, d.ok])).toEqual([
      ['card', 200, true],
      ['key_set', 200, true],
      ['key_directory', 200, true],
    ]);
  });

  it.each([
    ['/not-self-naming', P.cardClientId],
    ['/seventeen', P.keySetTooManyKeys],
    ['/test-key', P.keyIsTestKey],
    ['/redirect', P.documentUnreachable],
  ])('exits 1 for the broken agent at %s and names %s', async (path, code) => {
    const json = await checkJson(`${broken.origin}${path}`);
    expect(json.code).toBe(EXIT.expectationFailed);
    expect(json.report.ok).toBe(false);
    expect(json.report.problems.map((p) => p.code)).toContain(code);
    for (const p of json.report.problems) expect(p.message.length, 'a sentence, not a code').toBeGreaterThan(40);
  });

  it.each(['/private-jwk', '/private-entry'])('says a key set at %s exposes the private key, and never echoes it', async (path) => {
    const text = await runCli(['check-agent', `${broken.origin}${path}`, '--allow-insecure']);
    const json = await checkJson(`${broken.origin}${path}`);
    expect(json.code).toBe(EXIT.expectationFailed);
    expect(json.report.problems.map((p) => p.code)).toContain(P.keyPrivate);
    expect(json.report.problems.find((p) => p.code === P.keyPrivate)!.message).toMatch(/private key is exposed/);
    const d = key.privateJwk.d;
    for (const out of [text.stdout, text.stderr, JSON.stringify(json.report), json.stderr]) {
      for (let i = 0; i + 8 <= d.length; i += 4) expect(out).not.toContain(d.slice(i, i + 8));
    }
  });

  it('names a key directory served with the wrong media type', async () => {
    const json = await checkJson(`${wrongMedia.origin}/served-as-json`);
    expect(json.code).toBe(EXIT.expectationFailed);
    expect(json.report.problems.map((p) => p.code)).toEqual([P.directoryMediaType]);
    expect(json.report.problems.find((p) => p.code === P.directoryMediaType)!.message).toContain(MEDIA_TYPES.keyDirectory);
  });

  it('exits 1 for an agent on loopback over https: platforms refuse the address, which is a problem found, not silence', async () => {
    const run = await runCli(['check-agent', `https://127.0.0.1:${await closedPort()}/a`]);
    expect(run.code).toBe(EXIT.expectationFailed);
    expect(run.stdout).toContain('(not fetched: see below)');
    expect(run.stdout).not.toContain('(no answer)');
    expect(run.stdout).toMatch(/points at 127\.0\.0\.1, which is loopback/);
    // Each problem says what is refused once: the fix adds to the detail, never repeats it.
    for (const line of run.stdout.split('\n').filter((l) => l.includes('points at 127.0.0.1'))) expect(line.split('link-local')).toHaveLength(2);
  });

  it('exits 3 for a certificate it cannot trust, naming --ca, and trusts a private CA given with --ca FILE', async () => {
    const tls = await startServer(handler(MEDIA_TYPES.json));
    try {
      agentDocs(tls.origin, '/tls');
      const agentUrl = `${tls.origin}/tls`;
      const untrusted = await runCli(['check-agent', agentUrl, '--allow-insecure']);
      expect(untrusted.code).toBe(EXIT.harness);
      expect(untrusted.stdout).toContain('TLS handshake failed');
      expect(untrusted.stdout).toContain('A certificate from a private CA is trusted with --ca FILE');
      expect(untrusted.stdout).not.toContain('NODE_EXTRA_CA_CERTS');
      const trusted = await runCli(['check-agent', agentUrl, '--allow-insecure', '--ca', CA_FILE]);
      expect(trusted.stderr).not.toMatch(STACK_LINE);
      expect(trusted.stdout).toMatch(/^OK:/m);
      expect(trusted.code).toBe(EXIT.ok);
      const notPem = await runCli(['check-agent', agentUrl, '--allow-insecure', '--ca', fileURLToPath(import.meta.url)]);
      expect(notPem.code).toBe(EXIT.usage);
      expect(notPem.stderr).toContain('holds no PEM certificate');
    } finally {
      await tls.close();
    }
  });

  it('refuses plain http without --allow-insecure and says which flag admits it', async () => {
    const run = await runCli(['check-agent', reference.agent!.urls.agentUrl]);
    expect(run.code).toBe(EXIT.expectationFailed);
    expect(run.stdout).toMatch(/plain http/);
    expect(run.stdout).toContain('--allow-insecure');
    expect(run.stdout).not.toContain('--allow-insecure-fixtures');
  });

  it('exits 3 when nothing answers, and 2 for a bad AGENT_URL', async () => {
    const unreachable = await runCli(['check-agent', `http://127.0.0.1:${await closedPort()}/a`, '--allow-insecure']);
    expect(unreachable.code).toBe(EXIT.harness);
    expect(unreachable.stdout).toContain('(not fetched: see below)');
    const missing = await runCli(['check-agent']);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toMatch(/needs AGENT_URL/);
    const suffixed = await runCli(['check-agent', `https://agents.example/a${WELL_KNOWN.jwks}`]);
    expect(suffixed.code).toBe(EXIT.usage);
    expect(suffixed.stderr).toContain('leave off');
    expect(suffixed.stderr).not.toMatch(STACK_LINE);
  });
});
