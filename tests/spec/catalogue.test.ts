import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  AUTH_ERROR_LIST,
  BRIDGE_ERROR_LIST,
  BRIDGE_TABLE_LIST,
  ENDPOINT_ERROR_LIST,
  HEADERS,
  LIMIT_LIST,
  LIMITS,
  MEDIA_TYPES,
  PROBLEM_TYPES,
  PURCHASE_ERROR_LIST,
  PURCHASE_ERRORS,
} from '../../src/spec/index.js';
import { SPEC_TEXT, sectionText, tableRows } from './spec-tables.js';

describe('the catalogue holds every row of the spec tables', () => {
  test('spec/ holds the published text of the interface, unchanged', () => {
    // The digest of the text this catalogue was built from: an edit of the spec is deliberate and re-pins it here.
    expect(createHash('sha256').update(SPEC_TEXT).digest('hex')).toBe('72fe3a2e96a08aa4eeb0715de2292b263b8cfed529cd00a90e1fe0583aa95963');
  });

  test('7.3: every error_code, in order, with status 401 and MUST', () => {
    const codes = tableRows(sectionText('7.3')).map((r) => r[0]);
    expect(codes).toHaveLength(24);
    expect(AUTH_ERROR_LIST.map((r) => r.code)).toEqual(codes);
    for (const r of AUTH_ERROR_LIST) expect([r.status, r.level, r.section]).toEqual([401, 'MUST', '7.3']);
  });

  test('7.3: Accept-Signature rides exactly on missing credential and insufficient coverage', () => {
    expect(AUTH_ERROR_LIST.filter((r) => r.acceptSignature).map((r) => r.code)).toEqual(['missing_credential', 'signature_coverage_insufficient']);
  });

  test('7.2: one record per row with its status and code', () => {
    const rows = tableRows(sectionText('7.2'));
    expect(ENDPOINT_ERROR_LIST).toHaveLength(rows.length);
    rows.forEach(([status, code], i) => {
      const record = ENDPOINT_ERROR_LIST[i]!;
      expect(record.status).toBe(status === 'n/a' ? null : Number(status));
      expect(record.code).toBe(/^[A-Za-z_]+$/.test(code!) && code !== 'n/a' ? code : null);
    });
  });

  test('7.1: every bridge code of the table, then CODE_TOO_LARGE and FN_NOT_FOUND', () => {
    const codes = tableRows(sectionText('7.1')).map((r) => r[0]);
    expect(BRIDGE_TABLE_LIST.map((r) => r.code)).toEqual(codes);
    const named = [...sectionText('7.1').matchAll(/\b([A-Z]+_[A-Z_]+)\b/g)].map((m) => m[1]);
    expect(BRIDGE_ERROR_LIST.slice(codes.length).map((r) => r.code)).toEqual(named);
  });

  test('7.4: every code and problem type of the table, with its status', () => {
    const expected: Array<[string, number]> = [];
    for (const [status, cell] of tableRows(sectionText('7.4'))) {
      const withoutNote = cell!.replace(/\(.*\)/, '');
      for (const part of withoutNote.split(',')) {
        const code = part.trim().replace(/^\{[a-z_]+\}\//, '');
        expected.push([code, Number(status)]);
      }
    }
    expect(PURCHASE_ERROR_LIST.map((r) => [r.code, r.status])).toEqual(expected);
  });

  test('7.4: retry.sameCredential exactly as the spec lists it, on every 503 and the 409s', () => {
    const text = sectionText('7.4');
    const list = (after: string, before: string) =>
      text.slice(text.indexOf(after) + after.length, text.indexOf(before, text.indexOf(after))).match(/[a-z_]+_[a-z_]+/g)!;
    const sameTrue = list('retry.sameCredential true for', '(re-present');
    const sameFalse = list('false for', 'and for the 409');
    expect(sameTrue).toEqual([
      'terms_record_failed',
      'purchase_in_flight',
      'purchase_lock_unavailable',
      'charge_outcome_unknown',
      'charge_processing',
      'grant_failed',
      'sale_serve_pending',
    ]);
    for (const code of sameTrue) expect(PURCHASE_ERRORS[code as keyof typeof PURCHASE_ERRORS].retry).toEqual({ sameCredential: true });
    expect(PURCHASE_ERRORS.tempo_unavailable.retry).toEqual({ sameCredential: true });
    expect(PURCHASE_ERRORS.tempo_settlement_pending.retry).toEqual({ sameCredential: true });
    for (const code of sameFalse) expect(PURCHASE_ERRORS[code as keyof typeof PURCHASE_ERRORS].retry).toEqual({ sameCredential: false });
    for (const r of PURCHASE_ERROR_LIST.filter((r) => r.status === 503 || r.status === 409)) expect(r.retry).toBeDefined();
  });

  test('section 8: every limit row, with the numbers the spec gives', () => {
    const rows = tableRows(sectionText('8')).map((r) => r[0]);
    expect([...new Set(LIMIT_LIST.map((l) => l.row))]).toEqual(rows);
    expect(LIMITS.declaredEndpointBody.value).toBe(52428800);
    expect(LIMITS.signedRequestBody.value).toBe(4 * 1024 * 1024);
    expect(LIMITS.documentSize.value).toBe(64 * 1024);
    expect(LIMITS.keysPerKeySet.value).toBe(16);
    expect([LIMITS.signatureValidity.value, LIMITS.clockSkew.value]).toEqual([3600, 60]);
    expect([LIMITS.nonceMinLength.value, LIMITS.nonceMaxLength.value]).toEqual([1, 256]);
    expect([LIMITS.failedSignatures.value, LIMITS.failedSignaturesWindow.value]).toEqual([30, 60]);
  });

  test('every header name the spec spells is in the catalogue', () => {
    const spelled = new Set(
      [...SPEC_TEXT.matchAll(/\b((?:X-)?(?:Service|Payment|Signature|Content|Accept|WWW|Retry|Cache|Link|Connection)-?[A-Za-z-]*)\b/g)]
        .map((m) => m[1]!.toLowerCase())
        .filter((h) =>
          /^(x-service-|service-|payment-authorization|signature-(agent|input)|content-(digest|type)|accept-signature|www-authenticate|retry-after|cache-control)/.test(
            h,
          ),
        ),
    );
    const catalogue = new Set(Object.values(HEADERS));
    for (const header of spelled) expect(catalogue, header).toContain(header);
  });

  test('media types and problem types the spec names', () => {
    for (const media of ['application/problem+json', 'application/http-message-signatures-directory+json', 'text/event-stream']) {
      expect(SPEC_TEXT).toContain(media);
      expect(Object.values(MEDIA_TYPES)).toContain(media);
    }
    const slugs = [...SPEC_TEXT.matchAll(/\{(?:payment_)?problems_url\}\/([a-z-]+)/g)].map((m) => m[1]);
    expect(PROBLEM_TYPES.map((p) => p.slug).sort()).toEqual([...new Set(slugs)].sort());
  });
});
