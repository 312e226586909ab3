import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { fixturePreflight } from '../../src/harness/fixture-preflight.js';
import { runConformance } from '../../src/harness/run.js';
import { LiveTarget } from '../../src/harness/targets/live.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';

/**
 * Issue 23: a deployment that cannot read the run's fixture host (it insists on https, as a real one does) is a broken
 * setup, not a non-conformant deployment: the run stops before the suites with exit 3 and says what to pass.
 */
let strict: ServedReference;
let lenient: ServedReference;
let out: string;
beforeAll(async () => {
  // serve without --allow-insecure-fixtures refuses agent documents at http loopback addresses, as a deployment does.
  strict = await serveReference({ port: 0 });
  lenient = await serveReference({ port: 0, allowInsecureFixtures: true });
  out = mkdtempSync(join(tmpdir(), 'apc-preflight-'));
});
afterAll(async () => {
  await Promise.all([strict?.close(), lenient?.close()]);
  rmSync(out, { recursive: true, force: true });
});

let fixture: FixtureHost | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function preflightAgainst(served: ServedReference) {
  fixture = await startFixtureHost();
  const target = new LiveTarget({
    baseUrl: served.url,
    fixture: { url: fixture.url, adminUrl: fixture.adminUrl, token: fixture.adminToken },
    runId: 'preflight-test',
    clientAddressHeader: 'x-forwarded-for',
  });
  try {
    return await fixturePreflight(target, fixture.url);
  } finally {
    await target.close();
  }
}

describe('the preflight of a live run', () => {
  test('passes when the deployment reads the fixture host', async () => {
    expect(await preflightAgainst(lenient)).toEqual({ ok: true });
  });

  test('fails, naming the refusal and --fixture-url https, when the deployment will not read an http fixture host', async () => {
    const outcome = await preflightAgainst(strict);
    expect(outcome.ok).toBe(false);
    const problem = outcome.ok ? '' : outcome.problem;
    expect(problem).toContain("cannot read the run's fixture host");
    expect(problem).toContain('401 signature_agent_invalid');
    expect(problem).toContain('--fixture-url https://');
  });

  test('stops the run with exit 3 before any suite, and writes no report', async () => {
    const outcome = await runConformance({ live: { baseUrl: strict.url }, out });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.problem).toContain('--fixture-url https://');
    expect(outcome.report).toBeNull();
    expect(readdirSync(out)).toEqual([]);
  });
});
