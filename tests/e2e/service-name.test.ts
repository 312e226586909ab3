import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { spawnCli } from './spawn-cli.js';

/**
 * Issue 14, the deployment's own names: a deployment that writes Acme where the spec writes Service is conformant to a
 * run told so (`run --service-name Acme`), and a run not told so fails on those names, saying which option matches.
 */
const ADDRESS_HEADER = 'x-forwarded-for';

let served: ServedReference;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER, platform: { serviceName: 'Acme' } });
});
afterAll(() => served?.close());

async function run(more: string[]): Promise<{ code: number; report: RunReport; stderr: string }> {
  const out = mkdtempSync(join(tmpdir(), 'apc-named-'));
  const { code, stdout, stderr } = await spawnCli(
    [
      'run',
      '--base-url',
      served.url,
      '--only',
      '7.4',
      '--allow-spend',
      '--spend-cap',
      '100000',
      '--client-address-header',
      ADDRESS_HEADER,
      '--out',
      out,
      '--json',
      ...more,
    ],
    180_000,
  );
  return { code, report: JSON.parse(stdout) as RunReport, stderr };
}

describe('serve --service-name Acme', () => {
  test('a run with --service-name Acme (and the addresses) is conformant, and its report shows the names it used', async () => {
    const addresses = ['--problems-url', `${served.url}/problems`, '--terms-url', `${served.url}/doc/terms-of-service`];
    const { code, report, stderr } = await run(['--service-name', 'Acme', ...addresses]);
    const failures = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    expect(code, `${stderr}\n${failures.map((r) => `${r.id}: ${r.message ?? ''}`).join('\n')}`).toBe(0);
    expect(report.counts.pass).toBeGreaterThan(10);
    expect(report.target.naming).toMatchObject({
      serviceName: 'Acme',
      realm: 'acme',
      headers: { 'service-terms-version': 'acme-terms-version' },
      problemsUrl: `${served.url}/problems`,
      termsUrl: `${served.url}/doc/terms-of-service`,
    });
  }, 200_000);

  test('the same run without --service-name fails on those names, with a message naming --service-name Acme', async () => {
    const { code, report } = await run([]);
    expect(code).toBe(1);
    expect(report.target.naming).toBeUndefined();
    const messages = report.results.filter((r) => r.verdict === 'fail').map((r) => r.message ?? '');
    expect(
      messages.some((m) => m.includes('carries Acme-Terms-Version') && m.includes('run --service-name Acme')),
      messages.join('\n'),
    ).toBe(true);
    expect(
      messages.some((m) => m.includes('realm is "acme"') && m.includes('run --service-name Acme')),
      messages.join('\n'),
    ).toBe(true);
  }, 200_000);
});
