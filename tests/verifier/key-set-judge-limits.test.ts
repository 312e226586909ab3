import { describe, expect, it } from 'vitest';
import { keyFromName } from '../../src/scenarios/identities.js';
import { KEY_SET_PROBLEMS as P, judgeKeySet, type KeySetJudgement, parseJsonDocument } from '../../src/verifier/key-set.js';
import { KEY_SET_DETAIL } from '../../src/verifier/messages.js';

/**
 * The one key-set judge (2.4, section 8), called directly: which problems it finds in a set, with which severity, and
 * which keys it leaves. The verdicts come from the spec: a private key or an RFC 9421 test key refuses the set, at most
 * 16 Ed25519 signing entries, unusable entries are passed over unless READING-KEY-SET-UNUSABLE-ENTRY is chosen.
 */
const A = keyFromName('key-set-judge-limits/a');
const B = keyFromName('key-set-judge-limits/b');
const other = (i: number) => keyFromName(`key-set-judge-limits/other-${i}`).publicJwk;
const RSA = {
  kty: 'RSA',
  e: 'AQAB',
  n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  use: 'sig',
};
/** RFC 9421 Appendix B.1.4 test-key-ed25519, public half. */
const RFC9421_ED25519_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs';
/** RFC 9421 Appendix B.1.3 test-key-ecc-p256, public half as a JWK (its RFC 7638 thumbprint is ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI). */
const RFC9421_P256 = { kty: 'EC', crv: 'P-256', x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA', y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0' };

const kinds = (j: KeySetJudgement) => j.problems.map((p) => [p.kind, p.severity, p.index]);

describe('documents that are no JWK Set', () => {
  it.each([
    ['null', null],
    ['a string', 'keys'],
    ['a number', 16],
    ['an array', [A.publicJwk]],
  ])('%s is not a JSON object', (_name, document) => {
    const j = judgeKeySet(document);
    expect(j).toStrictEqual({
      ok: false,
      detail: KEY_SET_DETAIL.notJsonObject,
      keys: [],
      problems: [{ kind: P.notJwkSet, severity: 'refuses', detail: KEY_SET_DETAIL.notJsonObject }],
    });
  });

  it('an object without a keys array', () => {
    expect(judgeKeySet({ keys: 'none' })).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.noKeysArray });
  });

  it('a body that is not JSON is reported as such', () => {
    expect(parseJsonDocument(new TextEncoder().encode('{"keys": ['))).toStrictEqual({ ok: false, detail: 'the body is not JSON' });
  });

  it('a JSON body is parsed', () => {
    expect(parseJsonDocument(new TextEncoder().encode('{"keys":[]}'))).toStrictEqual({ ok: true, value: { keys: [] } });
  });
});

describe('entries that are not objects, or lack a usable x', () => {
  it.each([
    ['null', null],
    ['a number', 5],
    ['a string', 'OKP'],
    ['an array', [A.publicJwk]],
  ])('%s entry is passed over with a warning', (_name, entry) => {
    const j = judgeKeySet({ keys: [A.publicJwk, entry] });
    expect(j.ok).toBe(true);
    expect(j.keys.map((k) => k.jwk.x)).toStrictEqual([A.publicJwk.x]);
    expect(kinds(j)).toStrictEqual([[P.entryNotObject, 'warns', 1]]);
  });

  it.each([
    ['no x', { kty: 'OKP', crv: 'Ed25519', use: 'sig' }],
    ['a numeric x', { kty: 'OKP', crv: 'Ed25519', use: 'sig', x: 12345 }],
    ['an x of 31 bytes', { kty: 'OKP', crv: 'Ed25519', use: 'sig', x: Buffer.alloc(31, 7).toString('base64url') }],
  ])('an Ed25519 entry with %s', (_name, entry) => {
    const j = judgeKeySet({ keys: [A.publicJwk, entry] });
    expect(j.ok).toBe(true);
    expect(kinds(j)).toStrictEqual([[P.entryInvalidX, 'warns', 1]]);
  });
});

describe('entries of another key type or curve are not keys', () => {
  it.each([
    ['an OKP X25519 key', { ...B.publicJwk, crv: 'X25519' }, 'OKP', 'X25519'],
    ['a kty other than OKP with crv Ed25519', { ...B.publicJwk, kty: 'EC' }, 'EC', 'Ed25519'],
    ['an entry without kty', { crv: 'Ed25519', x: B.publicJwk.x, use: 'sig' }, undefined, 'Ed25519'],
  ])('%s', (_name, entry, kty, crv) => {
    const j = judgeKeySet({ keys: [A.publicJwk, entry] });
    expect(j.ok).toBe(true);
    expect(j.keys.map((k) => k.jwk.x)).toStrictEqual([A.publicJwk.x]);
    expect(j.problems).toStrictEqual([{ kind: P.entryNotEd25519, severity: 'warns', index: 1, entry, detail: KEY_SET_DETAIL.notEd25519(1, kty, crv) }]);
  });
});

describe('RFC 9421 test keys refuse the set (2.4)', () => {
  it('the B.1.3 P-256 key, found by its thumbprint', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, RFC9421_P256] });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.testKey(1) });
    expect(kinds(j)).toStrictEqual([[P.testKey, 'refuses', 1]]);
  });

  it('the B.1.4 Ed25519 key', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, { kty: 'OKP', crv: 'Ed25519', x: RFC9421_ED25519_X, use: 'sig' }] });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.testKey(1) });
  });

  it('the B.1.4 x under another curve (no matching thumbprint) is still the test key, found by x', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, { kty: 'OKP', crv: 'X25519', x: RFC9421_ED25519_X }] });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.testKey(1) });
    expect(kinds(j)).toStrictEqual([[P.testKey, 'refuses', 1]]);
  });

  it('the B.1.4 x on an OKP entry without crv (no thumbprint at all)', () => {
    expect(judgeKeySet({ keys: [A.publicJwk, { kty: 'OKP', x: RFC9421_ED25519_X }] })).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.testKey(1) });
  });

  it('the B.1.4 x on a non-OKP entry is not the Ed25519 test key', () => {
    const entry = { kty: 'EC', crv: 'P-256', x: RFC9421_ED25519_X, y: RFC9421_P256.y };
    const j = judgeKeySet({ keys: [A.publicJwk, entry] });
    expect(j.ok).toBe(true);
    expect(kinds(j)).toStrictEqual([[P.entryNotEd25519, 'warns', 1]]);
  });
});

describe('private keys refuse the set', () => {
  it('an Ed25519 key with d', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, { ...B.publicJwk, d: B.privateJwk.d }] });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.privateKey(1) });
    expect(kinds(j)).toStrictEqual([[P.privateKey, 'refuses', 1]]);
  });

  it('refuses even with refuseUnusableEntries unset or false', () => {
    expect(judgeKeySet({ keys: [A.publicJwk, { ...RSA, d: 'AQAB' }] }, { refuseUnusableEntries: false })).toMatchObject({
      ok: false,
      detail: KEY_SET_DETAIL.privateKey(1),
    });
  });
});

describe('READING-KEY-SET-UNUSABLE-ENTRY: refuseUnusableEntries', () => {
  it.each([
    ['a null entry', null, P.entryNotObject],
    ['an X25519 entry', { ...B.publicJwk, crv: 'X25519' }, P.entryNotEd25519],
    ['an entry with a bad x', { ...B.publicJwk, x: 'AQAB' }, P.entryInvalidX],
    ['an entry with use enc', { ...B.publicJwk, use: 'enc' }, P.entryUseNotSig],
  ])('%s warns by default and refuses under the stricter reading', (_name, entry, kind) => {
    const lenient = judgeKeySet({ keys: [A.publicJwk, entry] });
    expect(lenient.ok).toBe(true);
    expect(kinds(lenient)).toStrictEqual([[kind, 'warns', 1]]);
    const strict = judgeKeySet({ keys: [A.publicJwk, entry] }, { refuseUnusableEntries: true });
    expect(strict.ok).toBe(false);
    expect(kinds(strict)).toStrictEqual([[kind, 'refuses', 1]]);
  });

  it('an Ed25519 key without use is used, and refuses the set only under the stricter reading', () => {
    const entry = { kty: 'OKP', crv: 'Ed25519', x: B.publicJwk.x };
    const lenient = judgeKeySet({ keys: [entry] });
    expect(lenient.ok).toBe(true);
    expect(lenient.keys.map((k) => k.jwk)).toStrictEqual([{ kty: 'OKP', crv: 'Ed25519', x: B.publicJwk.x, use: 'sig' }]);
    expect(kinds(lenient)).toStrictEqual([[P.entryUseMissing, 'warns', 0]]);
    expect(kinds(judgeKeySet({ keys: [entry] }, { refuseUnusableEntries: true }))).toStrictEqual([[P.entryUseMissing, 'refuses', 0]]);
  });

  it('an RSA key and a repeated key still only warn under the stricter reading', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, RSA, A.publicJwk] }, { refuseUnusableEntries: true });
    expect(j.ok).toBe(true);
    expect(kinds(j)).toStrictEqual([
      [P.rsaKey, 'warns', 1],
      [P.duplicateKey, 'warns', 2],
    ]);
  });
});

describe('repeated keys and kids', () => {
  it('the same key twice is kept once, with a warning', () => {
    const j = judgeKeySet({ keys: [A.publicJwk, A.publicJwk] });
    expect(j.ok).toBe(true);
    expect(j.keys).toStrictEqual([{ thumbprint: A.thumbprint, jwk: { kty: 'OKP', crv: 'Ed25519', x: A.publicJwk.x, use: 'sig' } }]);
    expect(j.problems).toStrictEqual([
      { kind: P.duplicateKey, severity: 'warns', index: 1, entry: A.publicJwk, detail: KEY_SET_DETAIL.duplicate(1, A.thumbprint) },
    ]);
  });

  it('the same key twice under one kid is a repeated key, not a reused kid', () => {
    const entry = { ...A.publicJwk, kid: 'k1' };
    expect(kinds(judgeKeySet({ keys: [entry, entry] }))).toStrictEqual([[P.duplicateKey, 'warns', 1]]);
  });

  it('two different keys under one kid warn of the reused kid; both keys are kept', () => {
    const second = { ...B.publicJwk, kid: 'k1' };
    const j = judgeKeySet({ keys: [{ ...A.publicJwk, kid: 'k1' }, second] });
    expect(j.ok).toBe(true);
    expect(j.keys.map((k) => k.thumbprint)).toStrictEqual([A.thumbprint, B.thumbprint]);
    expect(j.problems).toStrictEqual([{ kind: P.duplicateKid, severity: 'warns', index: 1, entry: second, detail: KEY_SET_DETAIL.duplicateKid(1, 'k1') }]);
  });

  it('different kids, or a kid used once, raise nothing', () => {
    expect(
      judgeKeySet({
        keys: [
          { ...A.publicJwk, kid: 'k1' },
          { ...B.publicJwk, kid: 'k2' },
        ],
      }).problems,
    ).toStrictEqual([]);
    expect(judgeKeySet({ keys: [{ ...A.publicJwk, kid: 'k1' }] }).problems).toStrictEqual([]);
  });
});

describe('section 8: at most 16 keys per key set', () => {
  const fifteen = Array.from({ length: 15 }, (_, i) => other(i));

  it('exactly 16 entries (15 Ed25519 keys and an RSA key) raise nothing', () => {
    const j = judgeKeySet({ keys: [...fifteen, RSA] });
    expect(j.ok).toBe(true);
    expect(kinds(j)).toStrictEqual([[P.rsaKey, 'warns', 15]]);
  });

  it('exactly 16 Ed25519 keys raise nothing', () => {
    const j = judgeKeySet({ keys: [...fifteen, A.publicJwk] });
    expect(j).toMatchObject({ ok: true, problems: [] });
    expect(j.keys).toHaveLength(16);
  });

  it('17 Ed25519 keys refuse the set', () => {
    const j = judgeKeySet({ keys: [...fifteen, A.publicJwk, B.publicJwk] });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.tooManyKeys(17, 16) });
  });

  it('17 entries with 16 Ed25519 keys (READING-KEY-SET-RSA) warn by default', () => {
    const j = judgeKeySet({ keys: [...fifteen, A.publicJwk, RSA] });
    expect(j.ok).toBe(true);
    expect(j.problems[0]).toStrictEqual({ kind: P.entriesOverLimit, severity: 'warns', count: 17, detail: KEY_SET_DETAIL.tooManyEntries(17, 16, 16) });
  });

  it('17 entries with 16 Ed25519 keys refuse the set when every entry counts', () => {
    const j = judgeKeySet({ keys: [...fifteen, A.publicJwk, RSA] }, { countEveryEntry: true });
    expect(j).toMatchObject({ ok: false, detail: KEY_SET_DETAIL.tooManyEntries(17, 16, 16) });
    expect(j.problems[0]).toStrictEqual({ kind: P.entriesOverLimit, severity: 'refuses', count: 17, detail: KEY_SET_DETAIL.tooManyEntries(17, 16, 16) });
  });

  it('exactly 16 entries pass even when every entry counts', () => {
    expect(judgeKeySet({ keys: [...fifteen, RSA] }, { countEveryEntry: true }).ok).toBe(true);
  });
});
