import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { THROTTLE_WAIT_MS } from '../../src/harness/failure-budget.js';
import { runConformance } from '../../src/harness/run.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';

/**
 * Issue 23: a second live run within 60 s of the first (a retry, or a second pipeline against one staging deployment)
 * must not meet the first run's failed signatures. With --client-address-header each case's address is derived from
 * the run id too, so the throttle checks of the second run start from a clean count. Without it (issue 27), under
 * --allow-waits, the throttle check trips the deployment's throttle from the run's one address and waits its window
 * out before the run ends, so the second run starts from a clean count too.
 */
const ADDRESS_HEADER = 'x-forwarded-for';
const THROTTLE_CHECKS = ['signed.throttle-thirty-failures'];

let served: ServedReference;
/** The reference as `serve` runs it by default: its throttle counts the address each request comes from. */
let plain: ServedReference;
let out: string;
beforeAll(async () => {
  served = await serveReference({ port: 0, allowInsecureFixtures: true, clientAddressHeader: ADDRESS_HEADER });
  plain = await serveReference({ port: 0, allowInsecureFixtures: true });
  out = mkdtempSync(join(tmpdir(), 'apc-run-again-'));
});
afterAll(async () => {
  await served?.close();
  await plain?.close();
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

describe('the same live run twice from the run’s one address (no --client-address-header, --allow-waits)', () => {
  test('passes the throttle check both times, each run waiting out the window it tripped, once', async () => {
    for (const attempt of ['first', 'second']) {
      const lines: string[] = [];
      const started = Date.now();
      const outcome = await runConformance({
        only: THROTTLE_CHECKS,
        live: { baseUrl: plain.url, allowWaits: true },
        out,
        progress: { section: () => {}, notice: (line) => void lines.push(line) },
      });
      const wallMs = Date.now() - started;
      const results = outcome.report?.results ?? [];
      expect(results.map((r) => `${attempt} run, ${r.id}: ${r.verdict} ${r.message ?? ''}`.trim())).toEqual(
        THROTTLE_CHECKS.map((id) => `${attempt} run, ${id}: pass`),
      );
      expect(outcome.exitCode, `${attempt} run`).toBe(0);
      // The throttle was tripped on purpose and its window waited out once: the run's one extra wait, a window and a margin.
      expect(
        lines.filter((l) => /tripped the deployment's throttle from the run's one address on purpose/.test(l)),
        `${attempt} run`,
      ).toHaveLength(1);
      expect(
        lines.some((l) => /holding back the run's failing signed requests/.test(l)),
        `${attempt} run: nothing to wait for before`,
      ).toBe(false);
      expect(outcome.report?.pacing).toMatchObject({ throttled: true, waitedMs: THROTTLE_WAIT_MS });
      expect(wallMs).toBeGreaterThanOrEqual(THROTTLE_WAIT_MS);
      expect(wallMs, `${attempt} run`).toBeLessThan(THROTTLE_WAIT_MS + 40_000);
    }
  }, 360_000);
});
