import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { spawnCli } from './spawn-cli.js';

/**
 * Issue 15, the publish pipeline observed live: `run --base-url` against `serve` judges steps 2 to 4 of 4.5 on the wire
 * (the agent slug, a function per tool, an exposed tool at /agents/<slug>/<path>, the single-file wrap, the bundle
 * rules a publish meets), and reports the checks only the embedded reference's records can answer as not-run.
 */
let served: ServedReference;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true });
});
afterAll(() => served?.close());

const ON_THE_WIRE = [
  'publish.agent-slug',
  'publish.remix-slug',
  'publish.function-sources',
  'publish.agent-http-endpoint',
  'publish.single-file-wrapped',
  'publish.manifest-missing-refused',
  'publish.manifest-not-json-refused',
  'publish.manifest-invalid-refused',
  'publish.entry-missing',
  'publish.tool-source-missing',
  'widgets.csp-fallback',
  'widgets.function-source-too-large',
];
const IN_PROCESS_ONLY = ['publish.agent-custom-tools', 'publish.tool-billing'];

describe('run --base-url against serve: the publish pipeline (4.4, 4.5)', () => {
  test('judges steps 2 to 4 and the bundle rules on the wire, and leaves the records no public surface shows not-run', async () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-publish-'));
    const { code, stdout, stderr } = await spawnCli(['run', '--base-url', served.url, '--only', '4.5', '--only', '4.4', '--out', out, '--json'], 180_000);
    const report = JSON.parse(stdout) as RunReport;
    const verdicts = new Map(report.results.map((r) => [r.id, r]));
    const failures = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    expect(code, `${stderr}\n${failures.map((r) => `${r.id}: ${r.message ?? ''}`).join('\n')}`).toBe(0);
    for (const id of ON_THE_WIRE) expect(verdicts.get(id)?.verdict, id).toBe('pass');
    for (const id of IN_PROCESS_ONLY) {
      expect(verdicts.get(id)?.verdict, id).toBe('not-run');
      expect(verdicts.get(id)?.message, id).toContain('checked in-process only');
    }
  }, 240_000);
});
