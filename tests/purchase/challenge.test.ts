import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  challengeEcho,
  challengeId,
  createChallenge,
  credentialHeaderOf,
  expiresAtSeconds,
  parseAuthenticate,
  parsePaymentChallenge,
  paymentChallenges,
  serializeChallenge,
  singlePaymentChallenge,
  type ChallengeInput,
  type JsonObject,
} from '../../src/purchase/index.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../src/spec/limits.js';
import { DEFAULT_CREDENTIAL_HEADER, PAYMENT_CREDENTIAL_HEADER, PAYMENT_INTENTS, PAYMENT_METHODS } from '../../src/spec/payments.js';

const CREATED = 1_789_732_800; // 2026-09-18T12:00:00Z
const input: ChallengeInput = {
  realm: 'platform.example',
  method: PAYMENT_METHODS.stripe,
  // Members out of JCS order on purpose.
  request: { methodDetails: { paymentMethodTypes: ['card'], networkId: 'profile_x' }, currency: 'usd', amount: '500' },
  createdAt: CREATED,
  opaque: { userId: 'u1', kind: 'pack', packId: 'mpp_5' },
};

/** A challenge mppx 0.11.0 emitted (request JCS, header param, no opaque). */
const MPPX_CHALLENGE =
  'Payment id="AXsb4g5BN6TbipqUHgVIhRi5HPUogtn8wyM7lfT58PE", realm="api.example.com", method="tempo", intent="charge", request="eyJhbW91bnQiOiIxMDAwMDAwIiwiY3VycmVuY3kiOiIweDIwYzAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAiLCJtZXRob2REZXRhaWxzIjp7ImNoYWluSWQiOjQyMTcsInN1cHBvcnRlZE1vZGVzIjpbInB1bGwiXX0sInJlY2lwaWVudCI6IjB4NzQyZDM1Q2M2NjM0QzA1MzI5MjVhM2I4NDRCYzllNzU5NWY4ZkUwMCJ9", expires="2026-01-15T12:05:00Z", header="Payment-Authorization"';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

describe('createChallenge', () => {
  const challenge = createChallenge(input);

  it('expires the challenge lifetime (300 s) after it was created', () => {
    expect(PAYMENT_CHALLENGE_LIFETIME_S).toBe(300);
    expect(challenge.expires).toBe('2026-09-18T12:05:00.000Z');
    expect(expiresAtSeconds(challenge)).toBe(CREATED + PAYMENT_CHALLENGE_LIFETIME_S);
  });

  it('names Payment-Authorization and the charge intent', () => {
    expect(challenge.header).toBe(PAYMENT_CREDENTIAL_HEADER);
    expect(PAYMENT_CREDENTIAL_HEADER).toBe('Payment-Authorization');
    expect(credentialHeaderOf(challenge)).toBe(PAYMENT_CREDENTIAL_HEADER);
    expect(credentialHeaderOf({})).toBe(DEFAULT_CREDENTIAL_HEADER);
    expect(challenge.intent).toBe(PAYMENT_INTENTS.charge);
  });

  it('puts the request on the wire as base64url (no padding) of its JCS', () => {
    const { request } = challengeEcho(challenge);
    expect(request).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(request, 'base64url').toString('utf8')).toBe(canonicalJson(input.request));
    expect(Buffer.from(request, 'base64url').toString('utf8')).toBe(
      '{"amount":"500","currency":"usd","methodDetails":{"networkId":"profile_x","paymentMethodTypes":["card"]}}',
    );
    expect(Buffer.from(challengeEcho(challenge).opaque!, 'base64url').toString('utf8')).toBe('{"kind":"pack","packId":"mpp_5","userId":"u1"}');
  });

  it('derives the id deterministically from every bound member', () => {
    expect(createChallenge(input).id).toBe(challenge.id);
    const { id, ...members } = challengeEcho(challenge);
    expect(challengeId(members)).toBe(id);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createChallenge({ ...input, realm: 'other.example' }).id).not.toBe(id);
    expect(createChallenge({ ...input, request: { ...input.request, amount: '501' } }).id).not.toBe(id);
    expect(createChallenge({ ...input, createdAt: CREATED + 1 }).id).not.toBe(id);
    expect(createChallenge({ ...input, opaque: { kind: 'topup' } }).id).not.toBe(id);
    expect(createChallenge({ ...input, description: 'display only' }).id).toBe(id);
    const secret = new Uint8Array(32).fill(7);
    expect(createChallenge(input, { secret }).id).not.toBe(id);
    expect(createChallenge(input, { secret }).id).toBe(createChallenge(input, { secret }).id);
  });

  it('refuses a method id that is not lower-case letters, and an empty realm', () => {
    expect(() => createChallenge({ ...input, method: 'Stripe' })).toThrow(TypeError);
    expect(() => createChallenge({ ...input, realm: '' })).toThrow(TypeError);
    expect(() => createChallenge({ ...input, description: 'line\nbreak' })).toThrow(TypeError);
  });
});

describe('serializeChallenge', () => {
  it('writes the parameters in the platform order, every value quoted', () => {
    const challenge = createChallenge({ ...input, description: 'Say "hi" \\ bye' });
    const echo = challengeEcho(challenge);
    expect(serializeChallenge(challenge)).toBe(
      `Payment id="${challenge.id}", realm="platform.example", method="stripe", intent="charge", expires="2026-09-18T12:05:00.000Z", request="${echo.request}", description="Say \\"hi\\" \\\\ bye", opaque="${echo.opaque}", header="Payment-Authorization"`,
    );
  });
});

describe('parsePaymentChallenge', () => {
  it("reads mppx's challenge and finds it canonical", () => {
    const parsed = parsePaymentChallenge(MPPX_CHALLENGE);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.canonical).toBe(true);
    expect(parsed.challenge).toMatchObject({
      id: 'AXsb4g5BN6TbipqUHgVIhRi5HPUogtn8wyM7lfT58PE',
      method: 'tempo',
      intent: 'charge',
      expires: '2026-01-15T12:05:00Z',
      header: PAYMENT_CREDENTIAL_HEADER,
    });
    expect(parsed.challenge.request).toMatchObject({ amount: '1000000', methodDetails: { chainId: 4217, supportedModes: ['pull'] } });
  });

  it('round-trips what it serialises', () => {
    const challenge = createChallenge({ ...input, description: 'a "quoted" \\ text', digest: 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:' });
    const parsed = parsePaymentChallenge(serializeChallenge(challenge));
    expect(parsed).toEqual({ ok: true, challenge, echo: challengeEcho(challenge), canonical: true });
  });

  it('takes scheme and parameter names case-insensitively, token values, odd whitespace and empty list elements', () => {
    const req = b64('{"amount":"1"}');
    const parsed = parsePaymentChallenge(
      `payment ID=abc ,Realm = r,, METHOD=tempo,intent=charge,\trequest=${req}, expires="2026-01-15T12:05:00+01:00", extra="ignored"`,
    );
    expect(parsed).toMatchObject({ ok: true, canonical: true, challenge: { id: 'abc', realm: 'r', method: 'tempo', request: { amount: '1' } } });
    if (parsed.ok) expect(parsed.challenge.header).toBeUndefined();
  });

  it('unescapes quoted-pairs', () => {
    const req = b64('{}');
    const parsed = parsePaymentChallenge(
      `Payment id="a\\"b\\\\c", realm="\\r", method="tempo", intent="charge", request="${req}", expires="2026-01-15T12:05:00Z"`,
    );
    expect(parsed).toMatchObject({ ok: true, challenge: { id: 'a"b\\c', realm: 'r' } });
  });

  it('finds the Payment challenge beside other schemes and ignores "Payment" inside quotes', () => {
    const header = `Bearer realm="Payment id=x", error="invalid_token", ${MPPX_CHALLENGE}, Basic dXNlcjpwYXNz==`;
    expect(parsePaymentChallenge(header)).toMatchObject({ ok: true, challenge: { realm: 'api.example.com' } });
  });

  it('reads an explicit header="Authorization" as the default and refuses any other header', () => {
    const base = MPPX_CHALLENGE.replace(', header="Payment-Authorization"', '');
    expect(parsePaymentChallenge(`${base}, header="Authorization"`)).toMatchObject({ ok: true, canonical: false });
    expect(parsePaymentChallenge(`${base}, header=payment-authorization`)).toMatchObject({
      ok: true,
      canonical: false,
      challenge: { header: PAYMENT_CREDENTIAL_HEADER },
    });
    expect(parsePaymentChallenge(`${base}, header="X-Other"`)).toMatchObject({ ok: false, reason: 'header-unsupported' });
  });

  const valid = { id: '"a"', realm: '"r"', method: '"tempo"', intent: '"charge"', request: `"${b64('{"a":1}')}"`, expires: '"2026-01-15T12:05:00Z"' };
  const build = (over: Record<string, string | undefined>) =>
    `Payment ${Object.entries({ ...valid, ...over })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`;
  const refusals: [string, string, string][] = [
    ['an unterminated quote', 'Payment id="abc', 'syntax'],
    ['a CR LF inside', build({ realm: '"r\r\nx"' }), 'syntax'],
    ['a missing comma', 'Payment id="a" realm="r"', 'syntax'],
    ['another scheme only', 'Bearer realm="service"', 'not-payment'],
    ['an empty value', '', 'not-payment'],
    ['two Payment challenges', `${MPPX_CHALLENGE}, ${MPPX_CHALLENGE}`, 'several-challenges'],
    ['a token68', 'Payment abc==', 'token68'],
    ['a parameter twice', `${build({})}, ID="b"`, 'duplicate-param'],
    ['no id', build({ id: undefined }), 'missing-param'],
    ['no request', build({ request: undefined }), 'missing-param'],
    ['no expires', build({ expires: undefined }), 'missing-param'],
    ['an empty id', build({ id: '""' }), 'empty-param'],
    ['an upper-case method', build({ method: 'Tempo' }), 'method-invalid'],
    ['a method with digits', build({ method: 'tempo2' }), 'method-invalid'],
    ['an intent with a dot', build({ intent: 'char.ge' }), 'intent-invalid'],
    ['a padded request', build({ request: `"${b64('{"a":1}')}="` }), 'request-not-base64url'],
    ['a standard-base64 request', build({ request: '"ab+/"' }), 'request-not-base64url'],
    ['a request that is not JSON', build({ request: b64('{a') }), 'request-not-json'],
    ['a request that is an array', build({ request: b64('[1]') }), 'request-not-object'],
    ['a request with a number JCS cannot write', build({ request: b64('{"a":1e999}') }), 'request-not-json'],
    ['an RFC 1123 expires', build({ expires: '"Thu, 15 Jan 2026 12:05:00 GMT"' }), 'expires-invalid'],
    ['an expires in month 13', build({ expires: '"2026-13-15T12:05:00Z"' }), 'expires-invalid'],
    ['an opaque that is not base64url JSON', build({ opaque: '"!!"' }), 'opaque-invalid'],
    ['an opaque with a number', build({ opaque: b64('{"a":1}') }), 'opaque-invalid'],
  ];
  it.each(refusals)('refuses %s', (_name, value, reason) => {
    const parsed = parsePaymentChallenge(value);
    expect(parsed).toMatchObject({ ok: false, reason });
    if (!parsed.ok) expect(parsed.detail.length).toBeGreaterThan(0);
  });
});

describe('paymentChallenges / singlePaymentChallenge (7.4: exactly one per 402)', () => {
  const one = serializeChallenge(createChallenge(input));
  const two = serializeChallenge(createChallenge({ ...input, method: PAYMENT_METHODS.tempo }));

  it('counts challenges across several WWW-Authenticate values and comma-joined lists', () => {
    expect(paymentChallenges([one]).challenges).toHaveLength(1);
    expect(paymentChallenges([one, two]).challenges).toHaveLength(2);
    expect(paymentChallenges(`${one}, ${two}`).challenges).toHaveLength(2);
    expect(paymentChallenges(['Bearer realm="service"', one]).challenges).toHaveLength(1);
    expect(paymentChallenges([]).challenges).toHaveLength(0);
    expect(singlePaymentChallenge(['Bearer realm="service"', one])).toMatchObject({ ok: true });
    expect(singlePaymentChallenge([one, two])).toMatchObject({ ok: false, reason: 'several-challenges' });
    expect(singlePaymentChallenge([])).toMatchObject({ ok: false, reason: 'not-payment' });
  });

  it('counts a refused Payment challenge too, and reports a malformed value', () => {
    const scan = paymentChallenges([one, 'Payment id=""', 'Payment id="x']);
    expect(scan.challenges.map((c) => c.ok)).toEqual([true, false]);
    expect(scan.malformed).toMatchObject([{ index: 2 }]);
    expect(singlePaymentChallenge([one, 'Payment id="x'])).toMatchObject({ ok: false, reason: 'syntax' });
  });
});

describe('properties', () => {
  const printable = fc.string({ unit: fc.constantFrom(...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i))) });
  const challengeInputs = fc.record({
    realm: printable.filter((s) => s.length > 0),
    method: fc.stringMatching(/^[a-z]{1,8}$/),
    intent: fc.stringMatching(/^[A-Za-z0-9-]{1,8}$/),
    request: fc.dictionary(fc.string(), fc.jsonValue()),
    createdAt: fc.integer({ min: 0, max: 4_000_000_000 }),
    opaque: fc.option(fc.dictionary(fc.string(), fc.string()), { nil: undefined }),
    description: fc.option(printable, { nil: undefined }),
  });

  it('serialise then parse gives the same challenge, canonical', () => {
    fc.assert(
      fc.property(challengeInputs, (generated) => {
        const challenge = createChallenge({ ...generated, request: generated.request as JsonObject });
        const parsed = parsePaymentChallenge(serializeChallenge(challenge));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.canonical).toBe(true);
        expect(canonicalJson(parsed.echo)).toBe(canonicalJson(challengeEcho(challenge)));
        expect(parsed.challenge.id).toBe(challenge.id);
        expect(canonicalJson(parsed.challenge.request)).toBe(canonicalJson(challenge.request));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary header strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string().map((s) => `Payment ${s}`),
        ),
        (value) => {
          expect(typeof parseAuthenticate(value).ok).toBe('boolean');
          expect(typeof parsePaymentChallenge(value).ok).toBe('boolean');
          expect(Array.isArray(paymentChallenges([value, value]).challenges)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on a valid challenge with a character inserted or removed anywhere', () => {
    const valid = serializeChallenge(createChallenge(input));
    fc.assert(
      fc.property(
        fc.nat({ max: valid.length }),
        fc.constantFrom('"', '\\', ',', '=', ' ', '\t', '\r', 'x', '\u00ff', '\u0100', ''),
        fc.boolean(),
        (at, c, remove) => {
          const value = remove ? valid.slice(0, at) + valid.slice(at + 1) : valid.slice(0, at) + c + valid.slice(at);
          expect(typeof parsePaymentChallenge(value).ok).toBe('boolean');
        },
      ),
      { numRuns: 200 },
    );
  });
});
