import { describe, expect, it } from 'vitest';
import { SignerJudge } from '../../src/client-judge/signer.js';
import { judgeSigner } from '../../src/client-judge/judge.js';
import type { ClientExchange, ObservedRequest, SignerJudgement } from '../../src/client-judge/types.js';
import type { CaseDocuments } from '../../src/cases/types.js';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { CLIENT_MUTANTS } from '../../src/mutants/client.js';
import { clientDocuments, clientIdentity } from '../../src/reference/client/client.js';
import { planSignature, signPlan, type OutgoingRequest } from '../../src/reference/client/sign.js';
import type { ClientFault } from '../../src/reference/client/types.js';

const NOW = 1_800_000_000;
const AUTHORITY = 'platform.test';
const identity = clientIdentity('https://client.example/agents/alice', 1, 'signer-test');
const BODY = new TextEncoder().encode('{"purpose":"unit"}');

/** A request signed by the reference signer, a fault applied where it acts. */
function request(o: { body?: Uint8Array; headers?: Array<[string, string]>; fault?: ClientFault; nonce?: string; serial?: number } = {}): ObservedRequest {
  const body = o.body ?? new Uint8Array(0);
  let plan = planSignature({
    method: body.length ? 'POST' : 'GET',
    url: `https://${AUTHORITY}/api/client-probe?page=2`,
    headers: o.headers ?? [],
    body,
    keys: identity.keys,
    signatureAgent: { url: `${identity.agentUrl}/.well-known/jwks.json`, type: 'jwks_uri' },
    nowS: NOW,
    windowS: 60,
    nonce: () => o.nonce ?? `nonce-${Math.random().toString(36).slice(2)}`,
    digest: 'sha-256',
    alg: true,
    coverHeaders: [],
  });
  if (o.fault?.plan) plan = o.fault.plan(plan, { serial: o.serial ?? 0 });
  let sent: OutgoingRequest = signPlan(plan);
  if (o.fault?.sent) sent = o.fault.sent(sent);
  return { method: sent.method, url: sent.url, headers: sent.headers, body: sent.body };
}

function judgeWith(documents: CaseDocuments = clientDocuments(identity)): SignerJudge {
  return new SignerJudge({ fetcher: createMemoryFetcher(documents) });
}

const faultOf = (id: string): ClientFault => {
  const mutant = CLIENT_MUTANTS.find((m) => m.id === id);
  if (!mutant) throw new Error(`no client mutant ${id}`);
  return mutant.fault();
};

describe('SignerJudge: the signer rules of 5.2, judged by the reference verifier', () => {
  it('accepts a request signed as 5.2 says, with and without a body', async () => {
    const judge = judgeWith();
    expect((await judge.judge(request(), { nowS: NOW, authority: AUTHORITY })).kind).toBe('accepted');
    const withBody = await judge.judge(request({ body: BODY, headers: [['content-type', 'application/json']] }), { nowS: NOW, authority: AUTHORITY });
    expect(withBody).toMatchObject({ kind: 'accepted', agentUrl: identity.agentUrl, labels: ['sig1'] });
  });

  // Each fault breaks the one rule named beside it, refused with the verifier's code.
  const table: Array<{ fault: string; body?: boolean; rule: string; code: string }> = [
    { fault: 'client-tag-other', rule: 'syntax', code: 'signature_malformed' },
    { fault: 'client-expires-before-created', rule: 'times', code: 'signature_params_invalid' },
    { fault: 'client-window-3601', rule: 'window', code: 'signature_params_invalid' },
    { fault: 'client-alg-other', rule: 'alg', code: 'signature_params_invalid' },
    { fault: 'client-nonce-257', rule: 'nonceLength', code: 'signature_params_invalid' },
    { fault: 'client-signature-63-bytes', rule: 'signatureSize', code: 'signature_malformed' },
    { fault: 'client-covers-dictionary-member', rule: 'components', code: 'signature_malformed' },
    { fault: 'client-created-ahead', rule: 'clock', code: 'signature_expired' },
    { fault: 'client-signed-for-alias', rule: 'authority', code: 'signature_authority_mismatch' },
    { fault: 'client-body-over-4mib', body: true, rule: 'bodySize', code: 'signature_body_too_large' },
    { fault: 'client-signature-agent-dropped', rule: 'signed', code: 'signature_agent_invalid' },
    { fault: 'client-path-uncovered', rule: 'coverage', code: 'signature_coverage_insufficient' },
    { fault: 'client-agent-url-not-key-set', rule: 'agent', code: 'signature_agent_invalid' },
    { fault: 'client-content-digest-dropped', body: true, rule: 'contentDigest', code: 'content_digest_mismatch' },
    { fault: 'client-digest-other-bytes', body: true, rule: 'contentDigest', code: 'content_digest_mismatch' },
    { fault: 'client-keyid-other-key', rule: 'keyid', code: 'signature_key_unknown' },
    { fault: 'client-signs-with-other-key', rule: 'signatureValid', code: 'signature_invalid' },
    { fault: 'client-query-changed-after-signing', rule: 'signatureValid', code: 'signature_invalid' },
  ];
  it.each(table)('$fault breaks $rule ($code)', async ({ fault, body, rule, code }) => {
    const judged = await judgeWith().judge(request({ fault: faultOf(fault), ...(body ? { body: BODY } : {}) }), { nowS: NOW, authority: AUTHORITY });
    expect(judged).toMatchObject({ kind: 'refused', rule, code });
  });

  it('breaks the key set rule for a key set holding the RFC 9421 test key, and the card rule for a card naming another URL', async () => {
    const testKey = faultOf('client-key-set-test-key');
    const judged = await judgeWith(clientDocuments(identity, [testKey])).judge(request(), { nowS: NOW, authority: AUTHORITY });
    expect(judged).toMatchObject({ kind: 'refused', rule: 'keySet', code: 'key_set_invalid' });
    const card = faultOf('client-card-not-self-naming');
    expect(await judgeWith(clientDocuments(identity, [card])).judge(request(), { nowS: NOW, authority: AUTHORITY })).toMatchObject({
      kind: 'refused',
      rule: 'card',
      code: 'card_not_self_naming',
    });
  });

  it('breaks nonce uniqueness when a nonce comes back, even a minute after its signature expired', async () => {
    const judge = judgeWith();
    expect((await judge.judge(request({ nonce: 'once' }), { nowS: NOW, authority: AUTHORITY })).kind).toBe('accepted');
    const later = NOW + 3600;
    const again = request({ nonce: 'once', fault: { plan: (p) => ({ ...p, labels: p.labels.map((l) => ({ ...l, created: later, expires: later + 60 })) }) } });
    expect(await judge.judge(again, { nowS: later, authority: AUTHORITY })).toMatchObject({ kind: 'refused', rule: 'nonceUnique', code: 'signature_replayed' });
  });

  it('breaks key continuity when a new key signs alone after another was registered', async () => {
    const rotate = faultOf('client-rotates-alone');
    const judge = judgeWith(clientDocuments(identity, [rotate]));
    expect((await judge.judge(request({ fault: rotate }), { nowS: NOW, authority: AUTHORITY })).kind).toBe('accepted');
    expect(await judge.judge(request({ fault: rotate }), { nowS: NOW, authority: AUTHORITY })).toMatchObject({ kind: 'refused', rule: 'keyContinuity' });
  });

  it('calls a request without signature headers unsigned, and tells a platform bearer apart', async () => {
    const judge = judgeWith();
    const bare: ObservedRequest = { method: 'GET', url: `https://${AUTHORITY}/x`, headers: [], body: new Uint8Array(0) };
    expect(await judge.judge(bare, { nowS: NOW, authority: AUTHORITY })).toEqual({ kind: 'unsigned', bearer: false });
    const bearer = { ...bare, headers: [['authorization', 'Bearer a.b.c']] as Array<[string, string]> };
    expect(await judge.judge(bearer, { nowS: NOW, authority: AUTHORITY })).toEqual({ kind: 'unsigned', bearer: true });
  });

  it('counts the rules of the checks a refused request passed as met', async () => {
    const judged = await judgeWith().judge(request({ fault: faultOf('client-path-uncovered') }), { nowS: NOW, authority: AUTHORITY });
    expect(judged.kind === 'refused' && judged.met).toEqual(expect.arrayContaining(['syntax', 'times', 'window', 'authority', 'signed']));
    expect(judged.kind === 'refused' && judged.met).not.toContain('coverage');
    expect(judged.kind === 'refused' && judged.met).not.toContain('signatureValid');
  });
});

describe('judgeSigner: marks per request', () => {
  const exchange = (signer: SignerJudgement, headers: Array<[string, string]> = [], body = new Uint8Array(0)): ClientExchange => ({
    request: { method: 'POST', url: 'https://platform.test/api/mpp/credits', headers, body },
    receivedAtMs: 0,
    response: { status: 200, headers: {}, body: new Uint8Array(0) },
    answeredAtMs: 0,
    signer,
    answeredBy: 'platform',
  });
  const accepted = (covered: string[]): SignerJudgement => ({ kind: 'accepted', agentUrl: identity.agentUrl, coveredFields: covered, labels: ['sig1'] });

  it('breaks the signed rule for an unsigned request, and leaves a bearer unjudged', () => {
    expect(judgeSigner([exchange({ kind: 'unsigned', bearer: false })])).toEqual([expect.objectContaining({ rule: 'signed', met: false })]);
    expect(judgeSigner([exchange({ kind: 'unsigned', bearer: true })])).toEqual([]);
  });

  it('judges the purchase headers a signed request sends: covered, or not', () => {
    const sent: Array<[string, string]> = [['service-terms-accepted', '2026-07-31']];
    const covered = judgeSigner([exchange(accepted(['service-terms-accepted']), sent)]).filter((m) => m.rule === 'purchaseHeadersCovered');
    expect(covered).toEqual([expect.objectContaining({ met: true })]);
    const uncovered = judgeSigner([exchange(accepted([]), sent)]).filter((m) => m.rule === 'purchaseHeadersCovered');
    expect(uncovered).toEqual([expect.objectContaining({ met: false })]);
    expect(judgeSigner([exchange(accepted([]))]).some((m) => m.rule === 'purchaseHeadersCovered')).toBe(false);
  });

  it('meets Content-Digest only for a request with a body', () => {
    expect(judgeSigner([exchange(accepted([]))]).some((m) => m.rule === 'contentDigest')).toBe(false);
    expect(judgeSigner([exchange(accepted([]), [], BODY)]).filter((m) => m.rule === 'contentDigest')).toEqual([expect.objectContaining({ met: true })]);
  });
});
