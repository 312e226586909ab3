import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { validateReport } from '../../src/harness/report-schema.js';
import { runCli, STACK_LINE } from './run-cli.js';

const run = (args: string[]) => runCli(['run', ...args]);

/** A run in-process collects its suite files; on two busy cores that takes more than the default. */
const RUN_TIMEOUT_MS = 90_000;

/** Checks that send, sign or read a name carrying Service: each header of 7.4 and 5.2, and the 401 realm. */
const NAMED_CHECKS = [
  'purchase.challenge',
  'purchase.granted-then-already-granted',
  'purchase.ownerless-balance-cap',
  'purchase.mpp-not-configured',
  'purchase.verifier-401',
  'single-call.service-purchase',
  'stablecoin.challenge',
  'signed.continuity-owner-key',
];

describe('run --service-name', () => {
  test(
    'in-process, the embedded reference takes the name too: conformant, and the reports show the names',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'apc-named-'));
      const { code, stdout, stderr } = await run(['--service-name', 'Acme', ...NAMED_CHECKS.flatMap((id) => ['--only', id]), '--out', out, '--json']);
      const report = JSON.parse(stdout) as RunReport;
      expect(code, `${stderr}\n${report.results.map((r) => `${r.id} ${r.verdict} ${r.message ?? ''}`).join('\n')}`).toBe(0);
      expect(report.counts.pass).toBe(NAMED_CHECKS.length);
      expect(report.target.naming).toEqual({
        serviceName: 'Acme',
        headers: {
          'x-service-owner-key': 'x-acme-owner-key',
          'service-terms-version': 'acme-terms-version',
          'service-terms-accepted': 'acme-terms-accepted',
          'service-payment-methods': 'acme-payment-methods',
          'service-purchase': 'acme-purchase',
        },
        realm: 'acme',
      });
      const runDir = join(out, readdirSync(out)[0]!);
      expect(validateReport(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'))).errors).toEqual([]);
      expect(readFileSync(join(runDir, 'summary.md'), 'utf8')).toContain('Names: Service is Acme: X-Service-Owner-Key → X-Acme-Owner-Key');
      expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toMatch(/<dd data-field="naming">Service is Acme: [^<]*realm acme<\/dd>/);
    },
    RUN_TIMEOUT_MS,
  );

  test('a name that is not letters, digits and hyphens, addresses without --base-url, and --self-test with a name exit 2', async () => {
    const bad = await run(['--service-name', 'Acme Corp']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--service-name must be the name the deployment writes for Service');
    expect(bad.stderr).not.toMatch(STACK_LINE);
    const terms = await run(['--terms-url', 'https://platform.example/terms']);
    expect(terms.code).toBe(2);
    expect(terms.stderr).toContain('--terms-url goes with --base-url');
    const notUrl = await run(['--base-url', 'http://127.0.0.1:9', '--problems-url', 'problems']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('--problems-url must be an http or https URL');
    const selfTest = await run(['--self-test', '--service-name', 'Acme']);
    expect(selfTest.code).toBe(2);
    expect(selfTest.stderr).toContain('--self-test');
  });
});
