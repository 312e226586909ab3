import { describe, expect, it } from 'vitest';
import { runCasesInProcess } from '../../src/harness/client/in-process.js';
import { clientCheckResults } from '../../src/harness/client/results.js';
import type { CheckResult } from '../../src/harness/results.js';
import { clientDocuments, clientIdentity } from '../../src/reference/client/client.js';
import { CLIENT_CASES } from '../../src/scenarios/clients/cases.js';
import type { Wrapper } from './wrappers/common.js';
import { httpMessageSigClient } from './wrappers/http-message-sig.js';
import { mppxClient } from './wrappers/mppx.js';
import { webBotAuthClient } from './wrappers/web-bot-auth.js';

const identity = clientIdentity('https://client.example/agents/independent', 1, 'independent-clients');

/** Every case run with `wrapper` in this process; the verdict of each client check. */
async function verdicts(wrapper: Wrapper): Promise<{ byId: Record<string, CheckResult['verdict']>; results: CheckResult[] }> {
  const runs = await runCasesInProcess({
    cases: CLIENT_CASES,
    documents: clientDocuments(identity),
    client: (env, ports) => wrapper(env, identity, { fetch: ports.fetch, clock: ports.clock }),
  });
  const results = clientCheckResults(runs, CLIENT_CASES);
  return { byId: Object.fromEntries(results.map((r) => [r.id, r.verdict])), results };
}

const SIGNER_CHECKS = [
  'client.signer-signed',
  'client.signer-syntax',
  'client.signer-times',
  'client.signer-keyid',
  'client.signer-alg',
  'client.signer-nonce-length',
  'client.signer-window',
  'client.signer-signature-size',
  'client.signer-components',
  'client.signer-clock',
  'client.signer-authority',
  'client.signer-body-size',
  'client.signer-coverage',
  'client.signer-agent',
  'client.signer-content-digest',
  'client.signer-key-set',
  'client.signer-signature-valid',
  'client.signer-key-continuity',
  'client.signer-nonce-unique',
  'client.signer-card',
];

/*
 * Independent clients from npm, judged by client mode. Where one deviates from the spec the check fails it: that is
 * the feature working. The verdicts are stated here so that a new version of a library that changes them is seen.
 */
describe('independent clients under client mode', () => {
  it("Cloudflare's web-bot-auth 0.1.3 as its README shows covers @authority and the whole Signature-Agent: the coverage rule fails it", async () => {
    const { byId, results } = await verdicts(webBotAuthClient(false));
    expect(byId['client.signer-coverage']).toBe('fail');
    const coverage = results.find((r) => r.id === 'client.signer-coverage')!;
    expect(coverage.message).toContain('does not cover "@method", "@path", "@query", "signature-agent";key="sig1"');
    expect(coverage.message).toContain('CLIENT-SIGNER-COVERAGE (5.2): Covered components: @method, @authority, @path, @query');
    // What it does send is right: the parameters, the window, the nonce, the tag.
    for (const id of [
      'client.signer-syntax',
      'client.signer-times',
      'client.signer-window',
      'client.signer-nonce-length',
      'client.signer-alg',
      'client.signer-clock',
    ])
      expect(byId[id], id).toBe('pass');
    expect(Object.entries(byId).filter(([, v]) => v === 'fail')).toEqual([['client.signer-coverage', 'fail']]);
  });

  it('web-bot-auth 0.1.3 given the profile components signs "signature-agent";key="sig1" over the whole field, not the member: its signatures do not verify', async () => {
    const { byId, results } = await verdicts(webBotAuthClient(true));
    expect(byId['client.signer-coverage']).toBe('pass');
    expect(byId['client.signer-content-digest']).toBe('pass');
    expect(byId['client.signer-signature-valid']).toBe('fail');
    expect(results.find((r) => r.id === 'client.signer-signature-valid')!.message).toContain('signature_invalid');
    expect(Object.entries(byId).filter(([, v]) => v === 'fail')).toEqual([['client.signer-signature-valid', 'fail']]);
  });

  it('http-message-sig 0.3 with the profile components meets every signer rule', async () => {
    const { byId } = await verdicts(httpMessageSigClient);
    for (const id of SIGNER_CHECKS) expect(byId[id], id).toBe('pass');
    // It buys nothing: the buyer rules are not run, never passed; it follows no pointer, which the cases that forbid one judge.
    expect(byId['client.buyer-echo']).toBe('not-run');
    expect(byId['client.buyer-pointer']).toBe('pass');
  });

  it('the mppx 0.11 client pays the 402 as 7.4 asks and hands every other answer back: the re-presentation rules are not run', async () => {
    const { byId } = await verdicts(mppxClient);
    for (const id of [
      ...SIGNER_CHECKS,
      'client.signer-purchase-headers-covered',
      'client.buyer-echo',
      'client.buyer-terms-accepted',
      'client.buyer-upstream',
      'client.buyer-pointer',
    ])
      expect(byId[id], id).toBe('pass');
    for (const id of [
      'client.buyer-one-credential',
      'client.buyer-same-credential',
      'client.buyer-retry-after',
      'client.buyer-resend-unpaid',
      'client.buyer-terms-signed',
    ])
      expect(byId[id], id).toBe('not-run');
  });
});
