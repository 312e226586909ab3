import { describe, expect, it } from 'vitest';
import { judgeRefusal } from '../../src/harness/judge-refusal.js';
import type { TargetResponse } from '../../src/harness/target.js';
import { AUTH_CODES, type AuthErrorCode } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { refuse } from '../../src/verifier/refusal.js';

/** The reference verifier's 401 for `code`, with `headers` changed as a deployment might write it. */
function refusal(code: AuthErrorCode, headers: Record<string, string | undefined> = {}): TargetResponse {
  const r = refuse(code, 'Refused.', { hasBody: false });
  const merged: Record<string, string> = { ...r.headers };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return { status: 401, headers: merged, body: new TextEncoder().encode(JSON.stringify(r.body)) };
}

describe('a 401 judged as 7.3 writes it', () => {
  it('may carry Retry-After where 7.3 is silent about it', () => {
    for (const code of [AUTH_CODES.key_set_unreachable, AUTH_CODES.card_unreachable, AUTH_CODES.signature_invalid])
      expect(judgeRefusal(refusal(code, { [HEADERS.retryAfter]: '300' }), false).problems, code).toEqual([]);
  });

  it('carries no Retry-After for too_many_failed_signatures, which 7.3 says has none', () => {
    const answer = refusal(AUTH_CODES.too_many_failed_signatures, { [HEADERS.retryAfter]: '60' });
    expect(judgeRefusal(answer, false).problems).toEqual(['too_many_failed_signatures carries Retry-After, which 7.3 says it does not']);
    expect(judgeRefusal(refusal(AUTH_CODES.too_many_failed_signatures), false).problems).toEqual([]);
  });

  it('has a JSON body under any JSON media type (section 4: "Bodies are JSON unless stated")', () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/problem+json', 'Application/JSON'])
      expect(judgeRefusal(refusal(AUTH_CODES.signature_invalid, { [HEADERS.contentType]: type }), false).problems, type).toEqual([]);
    for (const type of ['text/plain', 'application/jsonp', 'text/json+x', undefined])
      expect(judgeRefusal(refusal(AUTH_CODES.signature_invalid, { [HEADERS.contentType]: type }), false).problems.join('\n'), String(type)).toContain(
        'not a JSON media type',
      );
  });
});
