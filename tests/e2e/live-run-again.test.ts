import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../src/harness/run.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';

/**
 * Issue 23: a second live run within 60 s of the first (a retry, or a second pipeline against one staging deployment)
 * must not meet the first run's failed signatures. With --client-address-header each case's address is derived from
 * the run id too, so the throttle checks of the second run start from a clean count.
 */
const ADDRESS_HEADER = 'x-forwarded-for';
const THROTTLE_CHECKS = ['signed.throttle-thirty-failures'];

let served: ServedReference;
let out: string;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER });
  out = mkdtempSync(join(tmpdir(), 'apc-run-again-'));
});
afterAll(async () => {
  await served?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('the same live run twice within 60 s', () => {
  test('passes the throttle check both times', async () => {
    const live = { baseUrl: served.url, clientAddressHeader: ADDRESS_HEADER };
    for (const attempt of ['first', 'second']) {
      const outcome = await runConformance({ only: THROTTLE_CHECKS, live, out });
      const results = outcome.report?.results ?? [];
      const failed = results.filter((r) => r.verdict !== 'pass');
      expect(failed.map((r) => `${attempt} run, ${r.id}: ${r.verdict} ${r.message ?? ''}`)).toEqual([]);
      expect(results.map((r) => r.id).sort(), `${attempt} run`).toEqual([...THROTTLE_CHECKS].sort());
      expect(outcome.exitCode, `${attempt} run`).toBe(0);
    }
  }, 120_000);
});
