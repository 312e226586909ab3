import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../../src/spec/platform-mcp.js';
import { HEADERS } from '../../src/spec/headers.js';
import { requirementId } from '../../src/spec/ids.js';
import { spawnCli } from './spawn-cli.js';

/**
 * Proof that a live run is real: deployments that are wrong in one way make `run --base-url` exit 1 with the
 * broken requirements named in report.json, while the reference itself passes.
 */
const ADDRESS_HEADER = 'x-forwarded-for';

type Mutation = (answer: { status: number; headers: Record<string, string>; body: Buffer }) => {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
};

/**
 * A deployment that changes the reference's answers: a proxy in front of a reference whose own host is the
 * proxy's (as a platform behind a proxy is configured), so everything but the mutation conforms.
 */
async function mutatingProxy(mutate: Mutation): Promise<Server> {
  let upstream = '';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);
    const headers = Object.entries(req.headers).flatMap(([n, v]) => (v === undefined || hopByHop.has(n) ? [] : [n, Array.isArray(v) ? v.join(', ') : v]));
    const answer = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body: body.length ? body : null });
    const answerHeaders: Record<string, string> = {};
    for (const [n, v] of Object.entries(answer.headers)) if (v !== undefined && !hopByHop.has(n)) answerHeaders[n] = Array.isArray(v) ? v.join(', ') : v;
    const mutated = mutate({ status: answer.statusCode, headers: answerHeaders, body: Buffer.from(await answer.body.arrayBuffer()) });
    delete mutated.headers['content-length'];
    delete mutated.headers['content-encoding'];
    res.writeHead(mutated.status, mutated.headers).end(mutated.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const behind = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER, authority: new URL(urlOf(server)).host });
  upstream = behind.url;
  server.on('close', () => void behind.close());
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function run(baseUrl: string, only: string[], more: string[] = []): Promise<{ code: number; report: RunReport }> {
  const out = mkdtempSync(join(tmpdir(), 'apc-wrong-'));
  const { code, stdout } = await spawnCli([
    'run',
    '--base-url',
    baseUrl,
    '--client-address-header',
    ADDRESS_HEADER,
    '--out',
    out,
    '--json',
    ...only.flatMap((o) => ['--only', o]),
    ...more,
  ]);
  return { code, report: JSON.parse(stdout) as RunReport };
}

const failingChecks = (report: RunReport) => report.results.filter((r) => r.verdict === 'fail');
const failing = (report: RunReport) => new Set(failingChecks(report).flatMap((r) => r.requirements));

/** Every broken requirement is named by a failing check, and every failing check names one of them. */
function expectBroken(report: RunReport, broken: readonly string[]): void {
  for (const id of broken) expect(failing(report), id).toContain(id);
  for (const check of failingChecks(report))
    expect(
      check.requirements.some((id) => broken.includes(id)),
      `${check.name}: ${check.message}`,
    ).toBe(true);
}

let reference: ServedReference;
const proxies: Server[] = [];
beforeAll(async () => {
  reference = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER });
});
afterAll(async () => {
  for (const p of proxies) p.close();
  await reference.close();
});

const REPLAYED = requirementId('AUTH', AUTH_CODES.signature_replayed);
const MISSING = requirementId('AUTH', AUTH_CODES.missing_credential);
const COVERAGE = requirementId('AUTH', AUTH_CODES.signature_coverage_insufficient);
const INVALID = requirementId('AUTH', AUTH_CODES.signature_invalid);

describe('run --base-url fails against wrong deployments and names what they broke', () => {
  test('the reference itself passes the same selection', async () => {
    const { code, report } = await run(reference.url, [REPLAYED, MISSING, COVERAGE]);
    expect(code).toBe(0);
    expect(report.counts.fail).toBe(0);
    expect(report.counts.pass).toBeGreaterThan(5);
  }, 120_000);

  test('a deployment answering 200 to everything', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { [HEADERS.contentType]: 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxies.push(server);
    const { code, report } = await run(urlOf(server), [INVALID, MISSING]);
    expect(code).toBe(1);
    expectBroken(report, [INVALID, MISSING]);
    for (const check of failingChecks(report)) expect(check.message).toMatch(/expected 401 [a-z_]+, but the answer was 200/);
  }, 120_000);

  test('a deployment dropping Accept-Signature', async () => {
    const proxy = await mutatingProxy((a) => {
      const { [HEADERS.acceptSignature]: _dropped, ...headers } = a.headers;
      return { ...a, headers };
    });
    proxies.push(proxy);
    const { code, report } = await run(urlOf(proxy), [MISSING, COVERAGE, REPLAYED]);
    expect(code).toBe(1);
    // The MCP refusals judge Accept-Signature on every 401 too (their own requirement, beside the code's); every failure
    // names the dropped header, none the replay itself.
    expectBroken(report, [MISSING, COVERAGE, PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401.id]);
    for (const check of failingChecks(report)) {
      expect(check.message).toContain(`the answer carries no ${HEADERS.acceptSignature} header`);
      expect(check.exchanges?.length).toBeGreaterThan(0);
    }
  }, 120_000);

  test('a deployment answering signature_invalid for a replay', async () => {
    const proxy = await mutatingProxy((a) => ({
      ...a,
      body: Buffer.from(a.body.toString('utf8').replace(`"${AUTH_CODES.signature_replayed}"`, `"${AUTH_CODES.signature_invalid}"`)),
    }));
    proxies.push(proxy);
    const { code, report } = await run(urlOf(proxy), [REPLAYED]);
    expect(code).toBe(1);
    expectBroken(report, [REPLAYED]);
    for (const check of failingChecks(report))
      expect(check.message).toMatch(new RegExp(`expected error_code ${AUTH_CODES.signature_replayed}\\b.*, got ${AUTH_CODES.signature_invalid}\\b`));

    // The same deviation, known and listed: reported as expected, and the run passes the gate.
    const file = join(mkdtempSync(join(tmpdir(), 'apc-xf-')), 'expected-failures.yaml');
    writeFileSync(file, `expected_failures:\n  - id: ${REPLAYED}\n    reason: "PLAT-400: replays answer signature_invalid"\n`);
    const listed = await run(urlOf(proxy), [REPLAYED], ['--expected-failures', file]);
    expect(listed.code).toBe(0);
    expect(listed.report.results.filter((r) => r.verdict === 'fail').every((r) => r.expected?.id === REPLAYED)).toBe(true);
    expect(listed.report.expectedFailures?.entries).toMatchObject([{ id: REPLAYED, outcome: 'failed-as-expected' }]);
  }, 180_000);
});
