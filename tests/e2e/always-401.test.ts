import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { spawnCli } from './spawn-cli.js';

/**
 * A run from one address (no --client-address-header) paces its failing requests only while the deployment is seen
 * to throttle. A deployment that answers 401 to everything, never too_many_failed_signatures, is never waited for:
 * the whole run ends within a minute, every check it could make failed, exit 1.
 */
let server: Server;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    const body = JSON.stringify({ error: 'unauthorized', error_code: AUTH_CODES.signature_invalid, error_description: 'The signature does not verify.' });
    res.writeHead(401, { [HEADERS.contentType]: MEDIA_TYPES.json, [HEADERS.wwwAuthenticate]: 'Bearer error="invalid_token"' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a live run against a platform answering 401 to everything', () => {
  test('ends within a minute with exit 1, having sent its failing requests unpaced', async () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-always-401-'));
    const started = Date.now();
    const { code, stdout, stderr } = await spawnCli(
      ['run', '--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--allow-spend', '--spend-cap', '1000', '--out', out, '--json'],
      90_000,
    );
    const wallMs = Date.now() - started;
    expect(code, stderr.slice(-2000)).toBe(1);
    expect(wallMs).toBeLessThan(60_000);
    const report = JSON.parse(stdout) as RunReport;
    expect(report.complete, report.harnessErrors.join('\n')).toBe(true);
    expect(report.counts.fail).toBeGreaterThan(50);
    // What a live run stages on the wire (a registration by signing first, an origin of its own, a self-signed token, the
    // 503s of the test tokens) is judged like the rest: against a deployment that refuses everything, it fails.
    const verdict = (id: string) => report.results.find((r) => r.id === id)?.verdict;
    for (const id of [
      'signed.valid-two-labels-key-rotation',
      'signed.continuity-new-key-alone',
      'signed.precedence-continuity-before-replay',
      'signed.valid-directory-origin',
      'signed.key-directory-wrong-media-type',
      'signed.platform-token-self-signed',
      'purchase.charge-processing-503',
      'purchase.charge-outcome-unknown-503',
    ])
      expect(verdict(id), id).toBe('fail');
    // It did send them, from one address, and said what pacing cost: nothing, since the deployment never throttled.
    expect(requests).toBeGreaterThan(100);
    expect(stderr).toMatch(/from one address: \d+ failing signed requests sent in .* the deployment never throttled, so the run did not pace/);
    expect(stderr).not.toMatch(/pacing: waiting/);
  }, 120_000);
});
