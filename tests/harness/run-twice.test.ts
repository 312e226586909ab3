import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runConformance } from '../../src/harness/run.js';
import { REQUIREMENTS } from '../../src/spec/requirements.js';

/** runConformance is a library function: two runs in one process at once keep their own selection, seed and target. */
describe('two runs at once', () => {
  test('each reports exactly its own selection and seed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-twice-'));
    const replay = 'AUTH-SIGNATURE-REPLAYED';
    const directory = REQUIREMENTS.keyDirectoryEntries.id;
    const [a, b] = await Promise.all([runConformance({ only: [replay], seed: 11, out }), runConformance({ only: [directory], seed: 22, out })]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(a.report!.seed).toBe(11);
    expect(b.report!.seed).toBe(22);
    expect(a.report!.results.length).toBeGreaterThan(0);
    expect(b.report!.results.length).toBeGreaterThan(0);
    for (const r of a.report!.results) expect(r.requirements).toContain(replay);
    for (const r of b.report!.results) expect(r.requirements).toContain(directory);
    expect(a.runDir).not.toBe(b.runDir);
  }, 60_000);
});
