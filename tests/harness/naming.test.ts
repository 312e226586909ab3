import { describe, expect, it } from 'vitest';
import { ProblemTypeAddresses, purchaseAnswerProblems, readPaidAnswer, termsHeaderProblems } from '../../src/harness/judge-purchase.js';
import { judgeRefusal } from '../../src/harness/judge-refusal.js';
import { missingNamedHeader, namingWords, realmProblem, reportedNaming, SERVICE_NAME_OPTION } from '../../src/harness/naming.js';
import type { TargetResponse } from '../../src/harness/target.js';
import { createChallenge, paymentProblemAnswer, type PaidSurface } from '../../src/purchase/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { serviceNaming } from '../../src/spec/naming.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS } from '../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES } from '../../src/spec/problem-types.js';
import { refuse } from '../../src/verifier/refusal.js';

const ACME = serviceNaming('Acme');
const TERMS = 'https://platform.example/doc/terms-of-service';
const LINK = `<${TERMS}>; rel=terms-of-service`;
const BASES = { ...DEFAULT_PROBLEM_BASES, problems: 'https://platform.example/problems' };

const answer = (headers: Record<string, string>): TargetResponse => ({ status: 402, headers: { [HEADERS.link]: LINK, ...headers }, body: new Uint8Array(0) });

describe('a header the deployment writes under its own name', () => {
  it('is read under the name the run was given', () => {
    expect(termsHeaderProblems(answer({ 'acme-terms-version': '1' }), { naming: ACME })).toEqual([]);
    expect(readPaidAnswer(answer({ 'acme-terms-version': '7' }), ACME).termsVersion).toBe('7');
    expect(readPaidAnswer(answer({ [HEADERS.termsVersion]: '7' })).termsVersion).toBe('7');
  });

  it('missing, without --service-name: names the header and what --service-name would match', () => {
    const [problem] = termsHeaderProblems(answer({ 'acme-terms-version': '1' }));
    expect(problem).toBe(
      "the answer carries no Service-Terms-Version header but carries Acme-Terms-Version: is Acme this deployment's name for Service (Acme-Terms-Version for Service-Terms-Version)? run --service-name Acme",
    );
  });

  it('missing, with --service-name: names the header as that deployment writes it, and says when the spec’s own name came instead', () => {
    expect(termsHeaderProblems(answer({ [HEADERS.termsVersion]: '1' }), { naming: ACME })).toEqual([
      "the answer carries no Acme-Terms-Version header but carries Service-Terms-Version, the spec's own name: does this deployment write Acme for Service? run without --service-name if it keeps the spec's names",
    ]);
    expect(missingNamedHeader({}, HEADERS.termsVersion, ACME)).toBe(
      'the answer carries no Acme-Terms-Version header (Service-Terms-Version as a deployment named Acme writes it, --service-name Acme)',
    );
  });

  it('missing altogether: the message still names the option', () => {
    expect(missingNamedHeader({}, HEADERS.termsVersion)).toContain(`${SERVICE_NAME_OPTION} NAME`);
    expect(missingNamedHeader({ 'x-other': '1' }, HEADERS.ownerKey)).toContain('no X-Service-Owner-Key header');
    expect(missingNamedHeader({ 'x-acme-owner-key': '1' }, HEADERS.ownerKey)).toContain('run --service-name Acme');
  });

  it("judges a 402 of a deployment named Acme under Acme's names", () => {
    const surface: PaidSurface = { problemBases: BASES, terms: { url: TERMS, version: '2026-07-31' }, naming: ACME };
    const challenge = createChallenge({
      realm: 'platform.example',
      method: PAYMENT_METHODS.stripe,
      request: { amount: '500', currency: 'usd' },
      createdAt: 1_800_000_000,
    });
    const paid = paymentProblemAnswer(PAYMENT_PROBLEMS.paymentRequired, surface, challenge);
    expect(paid.headers['acme-terms-version']).toBe('2026-07-31');
    expect(paid.headers[HEADERS.termsVersion]).toBeUndefined();
    expect((paid.body.terms as Record<string, unknown>).header).toBe('Acme-Terms-Accepted');
    const response: TargetResponse = { status: paid.status, headers: { ...paid.headers }, body: new TextEncoder().encode(JSON.stringify(paid.body)) };
    const facts = {
      clock: { now: 1_800_000_000, skewS: 0 },
      problemTypes: new ProblemTypeAddresses(BASES),
      termsUrl: TERMS,
      requestUrl: 'https://platform.example/api/mpp/credits',
    };
    expect(purchaseAnswerProblems(response, PAYMENT_PROBLEMS.paymentRequired, { ...facts, naming: ACME })).toEqual([]);
    expect(purchaseAnswerProblems(response, PAYMENT_PROBLEMS.paymentRequired, facts).join('\n')).toContain('run --service-name Acme');
  });
});

describe('the realm of a 401 (READING-SERVICE-NAME)', () => {
  const refusal = (naming?: ReturnType<typeof serviceNaming>): TargetResponse => {
    const r = refuse(AUTH_CODES.signature_invalid, 'The signature did not verify.', { hasBody: false, naming });
    return { status: 401, headers: { ...r.headers }, body: new TextEncoder().encode(JSON.stringify(r.body)) };
  };

  it("is the deployment's name, compared case-insensitively", () => {
    expect(refusal(ACME).headers[HEADERS.wwwAuthenticate]).toMatch(/^Bearer realm="acme", /);
    expect(judgeRefusal(refusal(ACME), false, ACME).problems).toEqual([]);
    expect(realmProblem('Acme', ACME)).toBeUndefined();
    expect(realmProblem('ACME', ACME)).toBeUndefined();
    expect(realmProblem('Service')).toBeUndefined();
    expect(judgeRefusal(refusal(), false).problems).toEqual([]);
  });

  it('another name says which --service-name would match; the spec’s own word says to run without it', () => {
    expect(judgeRefusal(refusal(ACME), false).problems).toEqual([
      `WWW-Authenticate realm is "acme", not service: is Acme this deployment's name for Service? run --service-name Acme`,
    ]);
    expect(judgeRefusal(refusal(), false, ACME).problems.join('\n')).toContain('run without --service-name');
    expect(realmProblem(undefined, ACME)).toContain('--service-name NAME');
    expect(realmProblem('platform.example')).toContain('--service-name NAME');
  });
});

describe('the names a report records', () => {
  it('are absent when the run was given none, else each header and the realm, and any address', () => {
    expect(reportedNaming(undefined)).toBeUndefined();
    expect(reportedNaming({})).toBeUndefined();
    const record = reportedNaming({ serviceName: 'Acme', termsUrl: TERMS });
    expect(record).toEqual({ serviceName: 'Acme', headers: { ...ACME.headers }, realm: 'acme', termsUrl: TERMS });
    expect(namingWords(record!)).toEqual([
      'Service is Acme: X-Service-Owner-Key → X-Acme-Owner-Key, Service-Terms-Version → Acme-Terms-Version, Service-Terms-Accepted → Acme-Terms-Accepted, Service-Payment-Methods → Acme-Payment-Methods, Service-Purchase → Acme-Purchase; realm acme',
      `{terms_url} ${TERMS}`,
    ]);
    expect(reportedNaming({ problemsUrl: 'https://p.example/problems' })).toMatchObject({ realm: 'service', problemsUrl: 'https://p.example/problems' });
  });
});
