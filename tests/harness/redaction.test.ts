import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordRequest, recordResponse, redactedReport, redactText } from '../../src/harness/exchange.js';
import { validateReport } from '../../src/harness/report-schema.js';
import { writeReports } from '../../src/harness/write-reports.js';
import { check, report } from './sample-reports.js';

// A platform token as a deployment issues one (three base64url segments), and other credentials of the same run.
const TOKEN =
  'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZ2VudDphbGljZSIsInNjb3BlIjoiYWdlbnQtdXNlIiwiZXhwIjoxOTAwMDAwMDAwfQ.c2lnbmF0dXJlLWJ5dGVzLW9mLXRoZS1wbGF0Zm9ybS1rZXktNjQtYnl0ZXMtbG9uZy1hbmQtYS1iaXQtbW9yZQ';
const REFRESH = 'rt_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SECRET = 'cs_live_0123456789abcdef0123456789';
const OPAQUE = 'tok_opaque_abcdefghijklmnopqrstuvwxyz';

const enc = (s: string) => new TextEncoder().encode(s);
const secrets = [TOKEN, REFRESH, SECRET, OPAQUE];
const middles = secrets.map((s) => s.slice(8)); // what must never show, even in part

const ANSWER = JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', refresh_token: REFRESH, expires_in: 300, note: `echo ${TOKEN}` }, null, 2);

function leakingExchange() {
  return {
    request: recordRequest({
      method: 'POST',
      url: `https://agents.example/auth/token?access_token=${OPAQUE}`,
      headers: [['content-type', 'application/x-www-form-urlencoded']],
      body: enc(`grant_type=client_credentials&client_id=alice&client_secret=${SECRET}&scope=read`),
    }),
    response: recordResponse({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: enc(ANSWER),
    }),
  };
}

describe('credentials in recorded bodies', () => {
  it('redacts token members, form secrets, URL tokens and JWT-shaped strings, keeping a prefix to recognise them', () => {
    const e = leakingExchange();
    const recorded = JSON.stringify(e);
    for (const m of middles) expect(recorded).not.toContain(m);
    expect(e.response.body).toContain(`"access_token": "${TOKEN.slice(0, 8)}…[redacted]"`);
    expect(e.response.body).toContain(`"refresh_token": "${REFRESH.slice(0, 8)}…[redacted]"`);
    expect(e.response.body).toContain(`"note": "echo ${TOKEN.slice(0, 8)}…[redacted]"`);
    expect(e.response.body).toContain('"token_type": "Bearer"');
    expect(e.response.body).toContain('"expires_in": 300');
    expect(e.request.body).toBe(`grant_type=client_credentials&client_id=alice&client_secret=${SECRET.slice(0, 8)}…[redacted]&scope=read`);
    expect(e.request.url).toBe(`https://agents.example/auth/token?access_token=${OPAQUE.slice(0, 8)}…[redacted]`);
    // The length recorded is the body's own, not the redacted text's.
    expect(e.response.bodyLength).toBe(enc(ANSWER).length);
  });

  it('shows nothing of a short credential, and leaves a body without credentials as it was', () => {
    expect(redactText('{"token":"abc"}')).toBe('{"token":"…[redacted]"}');
    const plain = '{"error":"Unauthorized","error_code":"missing_credential","error_description":"no token was presented"}';
    expect(recordResponse({ status: 401, headers: {}, body: plain }).body).toBe(plain);
  });

  it("redacts a JWK's private members in a key set, and not members of the same names elsewhere", () => {
    const jwks = JSON.stringify({
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A' }],
    });
    const shown = recordResponse({ status: 200, headers: {}, body: jwks }).body;
    expect(shown).not.toContain('ne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A');
    expect(shown).toContain('"x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"');
    expect(redactText('{"d":"2026-01-01","p":"page 2"}')).toBe('{"d":"2026-01-01","p":"page 2"}');
  });

  it('redacts a token that stands across the 4096-byte cut', () => {
    const body = `${'x'.repeat(4090)} ${TOKEN}`;
    const shown = recordResponse({ status: 200, headers: {}, body }).body;
    expect(shown).not.toContain(TOKEN.slice(0, 20));
    expect(shown.length).toBeLessThanOrEqual(4096);
  });
});

describe('every report of a failing run', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('shows no issued token, secret or refresh token in report.json, report.html or junit.xml', () => {
    const failing = check('CLI token answers 401 to an unsigned request', ['AUTH-CLI-TOKEN'], 'fail', {
      message: `expected 401, got 200 with body {"access_token":"${TOKEN}"}`,
      exchanges: [leakingExchange()],
    });
    const r = report([failing, check('Replay refused', ['AUTH-SIGNATURE-REPLAYED'], 'pass')]);
    const out = mkdtempSync(join(tmpdir(), 'apc-redact-'));
    dirs.push(out);
    const runDir = writeReports(out, r);
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md']) {
      const text = readFileSync(join(runDir, file), 'utf8');
      for (const m of middles) expect(text, `${file} shows ${m.slice(0, 12)}`).not.toContain(m);
    }
    // The reports still show that a token was there, and which.
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain(`${TOKEN.slice(0, 8)}…[redacted]`);
    expect(readFileSync(join(runDir, 'junit.xml'), 'utf8')).toContain(`${TOKEN.slice(0, 8)}…[redacted]`);
    expect(validateReport(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')))).toEqual({ valid: true, errors: [] });
  });
});

describe('a large body', () => {
  it('is shown cut to 4096 bytes as text, even when the cut falls inside a character', () => {
    const body = `${'x'.repeat(4095)}é${'y'.repeat(100_000)}`;
    const recorded = recordResponse({ status: 200, headers: {}, body });
    expect(recorded.bodyEncoding).toBe('utf8');
    expect(recorded.body).toBe('x'.repeat(4095));
    expect(recorded.bodyLength).toBe(Buffer.byteLength(body));
  });
});

describe('what --json and the terminal print', () => {
  it('is the report with credentials redacted from its messages and harness errors too', () => {
    const r = report([check('x', ['AUTH-CLI-TOKEN'], 'fail', { message: `got ${TOKEN}` })], { harnessErrors: [`token ${TOKEN} refused`] });
    const shown = JSON.stringify(redactedReport(r));
    for (const m of middles) expect(shown).not.toContain(m);
    expect(redactedReport(r).results[0]!.message).toBe(`got ${TOKEN.slice(0, 8)}…[redacted]`);
    expect(redactedReport(redactedReport(r))).toEqual(redactedReport(r));
  });
});
