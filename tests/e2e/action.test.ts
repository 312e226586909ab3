import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { PROJECT_ROOT } from '../paths.js';

const exec = promisify(execFile);

/**
 * Issue 26: the Action's step (scripts/action-run.mjs) run as action.yml runs it, with the inputs as INPUT_*
 * variables and the job's GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, against a live reference over HTTP.
 */
let served: ServedReference;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true, platform: { serviceName: 'Acme' } });
});
afterAll(() => served?.close());

async function step(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'apc-action-'));
  const summary = join(dir, 'step-summary.md');
  const outputFile = join(dir, 'github-output');
  writeFileSync(summary, 'an earlier step wrote this\n');
  writeFileSync(outputFile, '');
  const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: outputFile, INPUT_OUT: join(dir, 'reports') };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`] = value;
  let code = 0;
  let stdout = '';
  try {
    ({ stdout } = await exec(process.execPath, ['scripts/action-run.mjs'], { cwd: PROJECT_ROOT, env, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 }));
  } catch (error) {
    ({ code, stdout } = error as { code: number; stdout: string });
  }
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { code, stdout, outputs, summary: readFileSync(summary, 'utf8'), dir };
}

describe('the GitHub Action step', () => {
  test('passes its inputs to run, appends summary.md to the job summary and writes the outputs from report.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apc-action-'));
    const expected = join(dir, 'expected.yaml');
    writeFileSync(expected, 'expected_failures:\n  - id: purchase.challenge-expired\n    verdict: fail\n    reason: not selected here\n');
    const { code, stdout, outputs, summary } = await step({
      'base-url': served.url,
      'service-name': 'Acme',
      only: 'KEY-DIRECTORY-MEDIA-TYPE',
      skip: 'key-directory.media-type',
      'spend-cap': '100',
      'expected-failures': expected,
    });
    expect(code, stdout).toBe(0);
    expect(outputs).toMatchObject({
      verdict: 'CONFORMANT',
      'exit-code': '0',
      total: '2',
      pass: '1',
      fail: '0',
      warn: '0',
      'not-run': '1',
      error: '0',
      complete: 'true',
    });
    const report = JSON.parse(readFileSync(outputs['report-json']!, 'utf8')) as RunReport;
    expect(outputs['report-dir']).toBe(join(outputs['report-json']!, '..'));
    for (const file of ['report.html', 'junit.xml', 'summary.md']) expect(existsSync(join(outputs['report-dir']!, file)), file).toBe(true);
    expect(report.target.platformUrl).toBe(served.url);
    expect(report.rerun).toEqual(
      expect.arrayContaining([
        '--service-name',
        'Acme',
        '--allow-spend',
        '--spend-cap',
        '100',
        '--skip',
        'key-directory.media-type',
        '--expected-failures',
        expected,
      ]),
    );
    expect(report.selection).toEqual(['KEY-DIRECTORY-MEDIA-TYPE']);
    expect(report.results.find((r) => r.id === 'key-directory.media-type')).toMatchObject({ verdict: 'not-run', message: 'skipped by --skip' });
    expect(summary).toBe(`an earlier step wrote this\n${readFileSync(join(outputs['report-dir']!, 'summary.md'), 'utf8')}`);
    expect(summary).toMatch(/\n# Conformance: CONFORMANT\n/);
    expect(stdout).toContain('CONFORMANT: 1 passed, 0 failed, 0 warnings, 1 not run, 0 errors (2 checks)');
  }, 150_000);

  test('a run that writes no report says so in the job summary and the outputs, with the exit code of run', async () => {
    const { code, outputs, summary } = await step({ 'base-url': served.url, 'spend-cap': 'lots' });
    expect(code).toBe(2);
    expect(outputs).toEqual({ 'exit-code': '2', verdict: 'NO REPORT' });
    expect(summary).toBe('an earlier step wrote this\n# Conformance: NO REPORT\n\nThe run wrote no report (exit 2); its log says why.\n');
  }, 150_000);
});
