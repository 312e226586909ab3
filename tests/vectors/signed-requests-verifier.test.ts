import { describe, expect, test } from 'vitest';
import { caseRequestBody } from '../../src/cases/request-body.js';
import { runCase, type StepResult } from '../../src/cases/run-case.js';
import type { CaseRequest } from '../../src/cases/types.js';
import { AUTH_ERRORS, AUTH_ERROR_BODY_ERROR, isAuthErrorCode } from '../../src/spec/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import { acceptSignatureValue, bearerChallenge } from '../../src/verifier/refusal.js';
import { readVectors } from '../../suites/lib/vectors.js';

/**
 * vectors/signed-requests.json run through the reference verifier itself (as implementers in other languages
 * run them): every step's verdict, and on every refusal the exact status, Bearer challenge, Accept-Signature
 * where 7.3 asks for it, and body. suites/7.3-signed-requests.test.ts runs the same cases over HTTP.
 */
const vectors = readVectors('signed-requests.json');

function hasBody(request: CaseRequest): boolean {
  return (caseRequestBody(request)?.length ?? 0) > 0;
}

function assertRefusalShape(step: StepResult, request: CaseRequest): void {
  const code = step.error_code!;
  expect(isAuthErrorCode(code)).toBe(true);
  const record = AUTH_ERRORS[code as keyof typeof AUTH_ERRORS];
  expect(step.status).toBe(record.status);
  expect(step.headers[HEADERS.wwwAuthenticate]).toBe(bearerChallenge(step.description!));
  expect(step.headers[HEADERS.contentType]).toBe(MEDIA_TYPES.json);
  expect(step.headers[HEADERS.retryAfter]).toBeUndefined();
  if (record.acceptSignature) expect(step.headers[HEADERS.acceptSignature]).toBe(acceptSignatureValue(hasBody(request)));
  else expect(step.headers[HEADERS.acceptSignature]).toBeUndefined();
  expect(step.description).toMatch(/^[\x20-\x7e]{20,}$/);
  expect(step.body).toEqual({ error: AUTH_ERROR_BODY_ERROR, error_code: code, error_description: step.description });
}

describe('7.3 agent authentication: signed requests and platform bearers (vectors)', () => {
  for (const group of vectors.testGroups) {
    describe(group.comment, () => {
      for (const c of group.cases) {
        test(`${c.id}: ${c.description}`, async () => {
          const result = await runCase(c);
          result.steps.forEach((step, i) => {
            if (step.matches_expect !== true) {
              const said = step.description ? ` The verifier said: ${step.description}` : ' The verifier accepted the request.';
              expect.fail(`step ${i + 1} of ${c.steps.length}: ${step.mismatches.join('; ') || 'no expectation'}.${said}`);
            }
            if (!step.ok) assertRefusalShape(step, c.steps[i]!.request);
          });
        });
      }
    });
  }

  test('every error_code of 7.3 has at least two cases', () => {
    const counts = new Map<string, number>();
    for (const g of vectors.testGroups) {
      for (const c of g.cases) {
        for (const code of new Set(c.steps.map((s) => s.expect?.error_code).filter(Boolean))) counts.set(code!, (counts.get(code!) ?? 0) + 1);
      }
    }
    for (const code of Object.keys(AUTH_ERRORS)) expect(counts.get(code) ?? 0, code).toBeGreaterThanOrEqual(2);
  });
});
