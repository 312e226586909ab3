import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCheckIndex } from '../../src/harness/check-index.js';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { PROJECT_ROOT } from '../paths.js';
import { spawnCli } from './spawn-cli.js';

/**
 * What `list` says a check needs to run live (suites/needs.json from scripts/derive-needs.ts, folded into suites/checks.json) is what a live run reports: a run
 * against serve with --base-url alone reports each check it cannot run not-run, naming a need the check declares.
 */
const ADDRESS_HEADER = 'x-forwarded-for';
let served: ServedReference;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER });
});
afterAll(() => served?.close());

describe("the checks' declared needs against a live run", () => {
  test('every check a run with --base-url alone leaves not run declares the need its reason names', async () => {
    const index = readCheckIndex(PROJECT_ROOT)!;
    const out = mkdtempSync(join(tmpdir(), 'apc-declared-needs-'));
    // Sections whose checks need --agent-url, --also-base-url, --allow-spend, --control-url, --allow-waits.
    const sections = ['2.4', '4.1', '5.2', '6'];
    const { code, stdout, stderr } = await spawnCli(
      ['run', '--base-url', served.url, '--client-address-header', ADDRESS_HEADER, ...sections.flatMap((s) => ['--only', s]), '--out', out, '--json'],
      300_000,
    );
    expect(code, stderr.slice(-2000)).toBe(0);
    const report = JSON.parse(stdout) as RunReport;
    const declared = (id: string) => index.checks.find((c) => c.id === id)?.needs ?? [];
    const notRun = report.results.filter((r) => r.verdict === 'not-run');
    const undeclared = notRun.filter((r) => !declared(r.id).includes(r.needs ?? 'other')).map((r) => `${r.id}: ${r.needs} (${r.message})`);
    expect(undeclared, 'not run for a need the check does not declare').toEqual([]);
    expect(new Set(notRun.map((r) => r.needs))).toEqual(new Set(['agent-url', 'also-base-url', 'allow-spend', 'control-url', 'allow-waits']));
    // A check that declares nothing runs live as it is.
    for (const r of report.results) if (!declared(r.id).length) expect(r.verdict, r.id).toBe('pass');
  }, 320_000);
});
