import { describe, expect, it } from 'vitest';
import { SignerJudge } from '../../../src/client-judge/signer.js';
import { testToken } from '../../../src/contract/test-tokens.js';
import { createMemoryFetcher } from '../../../src/fetch/memory-fetcher.js';
import { createPlatformDouble, listenPlatformDouble } from '../../../src/harness/client/double.js';
import { caseEnvironment, fetchOf, runCasesInProcess, VirtualClock } from '../../../src/harness/client/in-process.js';
import { clientCheckResults } from '../../../src/harness/client/results.js';
import { clientDocuments, clientIdentity, runReferenceClient } from '../../../src/reference/client/client.js';
import { CLIENT_CASES, type ClientCase } from '../../../src/scenarios/clients/cases.js';

const identity = clientIdentity('https://client.example/agents/double', 1, 'double-test');
const documents = clientDocuments(identity);
const caseOf = (id: string): ClientCase => CLIENT_CASES.find((c) => c.id === id)!;

/** Each case's answers to the reference client, as the double gives them: status and code, in order. */
const ANSWERS: Readonly<Record<string, readonly string[]>> = {
  'signed-get': ['200'],
  'signed-post': ['200'],
  'pack-card': ['402', '200'],
  'pack-charge-processing': ['402', '503 charge_processing', '200'],
  'pack-charge-unknown': ['402', '503 charge_outcome_unknown', '200'],
  'pack-retry-twice': ['402', '503 purchase_lock_unavailable', '503 grant_failed', '200'],
  'terms-unauthenticated': ['402', '401 terms_acceptance_unauthenticated', '200'],
  'sale-already-granted': ['402', '409 purchase_already_granted', '200'],
  'sale-funding-failed': ['402', '503 funding_failed', '200'],
  'upstream-not-relayed': ['402', '502 upstream_payment_not_relayed'],
  'pack-stablecoin': ['402', '200'],
  'pack-tempo-settlement-pending': ['402', '503 tempo_settlement_pending', '200'],
  'pointer-no-cap': ['402'],
  'pointer-host-not-allowed': ['402'],
  'pointer-followed': ['402', '402', '200', '200'],
  'signed-upgrade': ['101', '200'],
};

describe('the platform double of client mode', () => {
  it('answers each case as its script says, and the reference client meets every rule its cases judge', async () => {
    const runs = await runCasesInProcess({
      cases: CLIENT_CASES,
      documents,
      client: (env, p) => runReferenceClient(env, { identity, fetch: p.fetch, clock: p.clock, connect: p.connect }),
    });
    expect(Object.keys(ANSWERS)).toEqual(CLIENT_CASES.map((c) => c.id));
    for (const run of runs) {
      const answered = run.exchanges.map((e) => {
        const body = JSON.parse(Buffer.from(e.response!.body).toString('utf8') || '{}') as { error_code?: string };
        return [e.response!.status, body.error_code].filter((x) => x !== undefined).join(' ');
      });
      expect(answered, run.clientCase.id).toEqual(ANSWERS[run.clientCase.id]);
    }
    const results = clientCheckResults(runs, CLIENT_CASES);
    expect(results.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict} ${r.message}`)).toEqual([]);
  });

  it('sends Retry-After on every 503 of 7.4, a second, and the retry object with it', async () => {
    const runs = await runCasesInProcess({
      cases: [caseOf('pack-charge-processing'), caseOf('sale-funding-failed')],
      documents,
      client: (env, p) => runReferenceClient(env, { identity, fetch: p.fetch, clock: p.clock, connect: p.connect }),
    });
    for (const run of runs) {
      const unavailable = run.exchanges.find((e) => e.response?.status === 503)!;
      expect(unavailable.response!.headers['retry-after']).toBe('1');
      const body = JSON.parse(Buffer.from(unavailable.response!.body).toString('utf8')) as { retry?: { sameCredential: boolean } };
      expect(body.retry?.sameCredential).toBe(run.clientCase.id === 'pack-charge-processing');
    }
  });

  it('judges each request when it arrives, by the double clock', async () => {
    const fetcher = createMemoryFetcher(documents);
    const clock = new VirtualClock(1_800_000_000_000);
    const judge = new SignerJudge({ fetcher });
    const clientCase = caseOf('pack-charge-processing');
    const token = testToken('processing', 'double-clock');
    const double = createPlatformDouble({ clientCase, origin: 'https://platform.test', fetcher, judge, clock, cardToken: token });
    await runReferenceClient(caseEnvironment(clientCase, double, token), { identity, fetch: fetchOf(double), clock });
    expect(double.exchanges.map((e) => e.receivedAtMs - 1_800_000_000_000)).toEqual([0, 0, 1000]);
    expect(double.exchanges.every((e) => e.signer.kind === 'accepted')).toBe(true);
  });

  it('on a loopback port keeps the header fields as sent and the exact body bytes', async () => {
    const fetcher = createMemoryFetcher(documents);
    const judge = new SignerJudge({ fetcher });
    const clientCase = caseOf('signed-post');
    const listening = await listenPlatformDouble((origin) =>
      createPlatformDouble({ clientCase, origin, fetcher, judge, clock: { nowMs: () => Date.now() }, cardToken: testToken('settled', 'loopback') }),
    );
    try {
      const { double } = listening;
      expect(double.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const env = caseEnvironment(clientCase, double, 'unused');
      await runReferenceClient(env, { identity, fetch: (url, init) => fetch(url, init), clock: { nowMs: () => Date.now(), sleep: async () => undefined } });
      const [exchange] = double.exchanges;
      expect(Buffer.from(exchange!.request.body).toString('utf8')).toBe(clientCase.request.body);
      expect(exchange!.request.headers.filter(([n]) => n.startsWith('signature') || n === 'content-digest').map(([n]) => n)).toEqual([
        'content-digest',
        'signature-agent',
        'signature-input',
        'signature',
      ]);
      expect(exchange!.signer.kind).toBe('accepted');
      expect(exchange!.response?.status).toBe(200);
    } finally {
      await listening.close();
    }
  });
});
