import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_CONTROL_PATH } from '../../src/contract/test-control.js';
import type { RunReport } from '../../src/harness/results.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { REFERENCE_ONLY_ROUTES } from '../../src/spec/publish.js';
import { spawnCli } from './spawn-cli.js';

/**
 * Issue 14: a live run against serve with every option (the test control, the operator's key, a client of the agent,
 * spending, the deployment's own name) leaves not run only what needs a fault, the deployment's private configuration
 * or real waits (NO_OPTION_GIVES), each with a reason that says what to add to run it. Without --allow-waits (its
 * waits take about 40 minutes; the checks they would run say so).
 */
const ADDRESS_HEADER = 'x-forwarded-for';
const OWNER_KEY = 'operator-key-e2e';
const CLIENT = { id: 'suite', secret: 'client-secret-e2e' };
/**
 * What no option of a live run can give, the only reasons a check of this run may be not run for: the embedded reference
 * in-process (checks that script its card processor, stores, terms, stablecoin network or races, switch on a fault of
 * its own routes, read its own records, READING-WIDGET-PUBLISH-OBSERVED, or configure its agent), real waits (--allow-waits: steps minutes
 * apart), a fixture host at an https address, or nothing at all. A check not run for anything this run gave (the test
 * control, the operator's key, a client of the agent, spending, a second instance...) fails the test, whatever the count.
 */
const NO_OPTION_GIVES = /in-process|embedded reference|--allow-waits|https fixture|nothing a run can add/;
/** A reason names what to add: an option, the in-process run, or says plainly that nothing can. */
const SAYS_WHAT_TO_ADD = /--[a-z][a-z-]+|in-process|nothing a run can add/;

let served: ServedReference;
beforeAll(async () => {
  served = await serveReference({
    port: 0,
    allowInsecureFixtures: true,
    clientAddressHeader: ADDRESS_HEADER,
    testControl: true,
    agent: { name: 'reference', clients: { [CLIENT.id]: CLIENT.secret } },
    platform: { serviceName: 'Acme', ownerKeys: [OWNER_KEY] },
  });
});
afterAll(() => served?.close());

describe('a live run against serve with every option', () => {
  test('passes, leaves not run only what no option gives, each saying what would run it, and its report names the target', async () => {
    const out = mkdtempSync(join(tmpdir(), 'apc-every-option-'));
    const agentUrl = served.agent!.urls.agentUrl;
    const { code, stdout, stderr } = await spawnCli(
      [
        'run',
        '--base-url',
        served.url,
        // One instance is its own fleet: the fleet checks (5.2-fleet) run against it and must pass.
        '--also-base-url',
        served.url,
        '--agent-url',
        agentUrl,
        '--agent-client',
        `${CLIENT.id}:${CLIENT.secret}`,
        '--owner-key',
        OWNER_KEY,
        '--control-url',
        `${served.url}${TEST_CONTROL_PATH}`,
        '--widget-host-url',
        `${served.url}${REFERENCE_ONLY_ROUTES.widgetHost}`,
        '--service-name',
        'Acme',
        '--allow-spend',
        '--spend-cap',
        '1000000',
        '--client-address-header',
        ADDRESS_HEADER,
        '--out',
        out,
        '--json',
      ],
      300_000,
    );
    const report = JSON.parse(stdout) as RunReport;
    const failures = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    expect(code, `${stderr.slice(-2000)}\n${failures.map((r) => `${r.id}: ${r.message ?? ''}`).join('\n')}`).toBe(0);
    const notRun = report.results.filter((r) => r.verdict === 'not-run');
    const unexplained = notRun.filter((r) => !SAYS_WHAT_TO_ADD.test(r.message ?? '') || !NO_OPTION_GIVES.test(r.message ?? ''));
    expect(
      unexplained.map((r) => `${r.id}: ${r.message}`),
      'checks not run for what this run gives, or not saying what would run them',
    ).toEqual([]);
    // Most checks run: what no option gives stays a small part of the whole (a fifth, against 77 of 409 on 2026-11-28).
    expect(notRun.length, notRun.map((r) => `${r.id}: ${r.message}`).join('\n')).toBeLessThan(report.results.length / 5);
    // What the test control, the operator's key, the agent's client and the blocked agent let run, ran and passed.
    const verdict = (id: string) => report.results.find((r) => r.id === id)?.verdict;
    for (const id of [
      'purchase.mpp-disabled',
      'purchase.purchase-lock-unavailable',
      'purchase.settlement-credited-once',
      'purchase.resumed-decline-fresh-challenge',
      'single-call.buyer-inactive',
      'single-call.funding-unavailable',
      'signed.refused-blocked-agent',
      'signed.continuity-owner-key',
      'discovery.token-endpoint-grant',
      'agent-errors.bearer-challenge',
    ])
      expect(verdict(id), id).toBe('pass');
    expect(report.target).toMatchObject({ platformUrl: served.url, agentUrl, serviceName: 'Acme' });
    expect(report.target.fixtureUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(report.rerun).toEqual(
      expect.arrayContaining(['--base-url', served.url, '--service-name', 'Acme', '--agent-url', agentUrl, '--owner-key', '"$OWNER_KEY"']),
    );
    expect(report.rerun?.join(' ')).not.toContain(CLIENT.secret);
  }, 320_000);
});
