import fc from 'fast-check';
import {
  Token,
  parseDictionary,
  serializeDictionary,
  serializeInnerList,
  serializeItem,
  type BareItem,
  type Dictionary,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers';
import { describe, expect, it } from 'vitest';
import {
  checkContentDigest,
  ed25519Sign,
  ed25519Verify,
  generateEd25519Jwk,
  nobleEd25519,
  parseSignatureHeader,
  parseSignatureInput,
  splitDictionaryMembers,
  type ParamKind,
} from '../../src/httpsig/index.js';

const RUNS = { numRuns: 200 };
const CRYPTO_RUNS = { numRuns: 60 };

// ---- Ed25519 ----

const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });
const message = fc.uint8Array({ minLength: 0, maxLength: 512 });

describe('Ed25519: node:crypto and noble agree', () => {
  it('sign the same bytes and verify each other', () => {
    fc.assert(
      fc.property(seed, message, (s, m) => {
        const { privateJwk } = generateEd25519Jwk(s);
        const ours = ed25519Sign(privateJwk, m);
        expect(nobleEd25519.sign(privateJwk, m)).toEqual(ours);
        expect(ed25519Verify(privateJwk.x, m, ours)).toBe(true);
        expect(nobleEd25519.verify(privateJwk.x, m, ours)).toBe(true);
      }),
      CRYPTO_RUNS,
    );
  });

  it('one flipped bit of the signature or of the base makes both refuse', () => {
    fc.assert(
      fc.property(seed, message, fc.nat(), fc.integer({ min: 0, max: 7 }), fc.boolean(), (s, m, at, bit, inSignature) => {
        fc.pre(inSignature || m.length > 0);
        const { privateJwk } = generateEd25519Jwk(s);
        const signature = ed25519Sign(privateJwk, m);
        const target = inSignature ? Uint8Array.from(signature) : Uint8Array.from(m);
        const index = at % target.length;
        target[index] = (target[index] as number) ^ (1 << bit);
        const [data, sig] = inSignature ? [m, target] : [target, signature];
        expect(ed25519Verify(privateJwk.x, data, sig)).toBe(false);
        expect(nobleEd25519.verify(privateJwk.x, data, sig)).toBe(false);
      }),
      CRYPTO_RUNS,
    );
  });
});

// ---- Structured Fields ----

const key = fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,6}$/);
const sfString = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 16 });
const sfToken = fc.stringMatching(/^[A-Za-z*][!#$%&'*+.^_`|~A-Za-z0-9:/-]{0,10}$/);
const sfInteger = fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 });
const sfBytes = fc.uint8Array({ maxLength: 24 });

type Kinded = { kind: ParamKind; value: BareItem };
const bareItem: fc.Arbitrary<Kinded> = fc.oneof(
  sfString.map((value) => ({ kind: 'string' as const, value })),
  sfToken.map((value) => ({ kind: 'token' as const, value: new Token(value) })),
  sfInteger.map((value) => ({ kind: 'integer' as const, value })),
  sfBytes.map((value) => ({ kind: 'bytes' as const, value: value.buffer as ArrayBuffer })),
  fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
);
const params = fc.uniqueArray(fc.tuple(key, bareItem), { maxLength: 4, selector: ([k]) => k });
const toParams = (ps: readonly [string, Kinded][]): Parameters => new Map(ps.map(([k, v]) => [k, v.value]));
const item = fc.tuple(bareItem, params);
const member = fc.oneof(
  item.map(([v, ps]) => ({ inner: false as const, value: v, ps, items: [] as [Kinded, [string, Kinded][]][] })),
  fc.tuple(fc.array(item, { maxLength: 4 }), params).map(([items, ps]) => ({ inner: true as const, value: undefined, ps, items })),
);
const dictionary = fc.uniqueArray(fc.tuple(key, member), { minLength: 1, maxLength: 4, selector: ([k]) => k });

type Member = typeof member extends fc.Arbitrary<infer T> ? T : never;
const toSf = (m: Member): Item | InnerList =>
  m.inner ? [m.items.map(([v, ps]): Item => [v.value, toParams(ps)]), toParams(m.ps)] : [m.value.value, toParams(m.ps)];

/** Comparable form: Tokens and byte sequences as tagged text. */
const plain = (v: unknown): unknown => {
  if (v instanceof Token) return { token: v.toString() };
  if (v instanceof ArrayBuffer) return { bytes: Buffer.from(v).toString('base64') };
  if (ArrayBuffer.isView(v)) return { bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (v instanceof Map) return [...v].map(([k, x]) => [k, plain(x)]);
  if (Array.isArray(v)) return v.map(plain);
  return v;
};

/** Serialises with the extra whitespace SF allows: OWS (SP/HTAB) around commas, several spaces inside inner lists, SP after ';'. */
function looseSerialize(d: Dictionary, spaces: readonly number[]): string {
  let n = 0;
  const sp = (min = 1) => ' '.repeat(Math.max(min, (spaces[n++ % spaces.length] ?? 1) - 1 + min));
  const ps = (p: Parameters) => [...p].map(([k, v]) => `;${sp(0)}${k}${v === true ? '' : `=${serializeItem(v)}`}`).join('');
  const one = ([v, p]: Item) => `${serializeItem(v)}${ps(p)}`;
  const members = [...d].map(([k, m]) =>
    Array.isArray(m[0]) ? `${k}=(${sp(0)}${(m as InnerList)[0].map(one).join(sp())}${sp(0)})${ps(m[1])}` : `${k}=${one(m as Item)}`,
  );
  return members.reduce((out, text) => `${out}${sp(0)}\t,\t${sp(0)}${text}`);
}

describe('Structured Field round trips', () => {
  it('parse(serialize(x)) equals x for dictionaries of strings, tokens, integers, byte sequences and booleans with parameters', () => {
    fc.assert(
      fc.property(dictionary, (entries) => {
        const d: Dictionary = new Map(entries.map(([k, m]) => [k, toSf(m)]));
        expect(plain(parseDictionary(serializeDictionary(d)))).toEqual(plain(d));
      }),
      RUNS,
    );
  });

  it('splitDictionaryMembers gives the canonical text of each member, which re-parses to the same member', () => {
    fc.assert(
      fc.property(dictionary, (entries) => {
        const d: Dictionary = new Map(entries.map(([k, m]) => [k, toSf(m)]));
        const split = splitDictionaryMembers(serializeDictionary(d));
        expect([...(split?.keys() ?? [])]).toEqual([...d.keys()]);
        for (const [k, m] of d) {
          const text = split?.get(k) ?? '';
          const canonical = Array.isArray(m[0]) ? serializeInnerList(m as InnerList) : serializeItem(m as Item);
          expect(text).toBe(m[0] === true ? `?1${serializeItem(true, m[1]).slice(2)}` : canonical);
          expect(plain(parseDictionary(`${k}=${text}`).get(k))).toEqual(plain(m));
        }
      }),
      RUNS,
    );
  });

  it('with extra whitespace, each member text still re-parses to the same member', () => {
    fc.assert(
      fc.property(dictionary, fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 5 }), (entries, spaces) => {
        const d: Dictionary = new Map(entries.map(([k, m]) => [k, toSf(m)]));
        const loose = looseSerialize(d, spaces);
        expect(plain(parseDictionary(loose))).toEqual(plain(d));
        const split = splitDictionaryMembers(loose);
        for (const [k, m] of d) expect(plain(parseDictionary(`${k}=${split?.get(k) ?? ''}`).get(k))).toEqual(plain(m));
      }),
      RUNS,
    );
  });

  it('parseSignatureInput reports the kind each parameter was written with', () => {
    fc.assert(
      fc.property(fc.array(sfString, { maxLength: 4 }), params, (names, ps) => {
        const inner: InnerList = [names.map((n): Item => [n, new Map()]), toParams(ps)];
        const raw = serializeDictionary(new Map([['sig1', inner]]));
        const parsed = parseSignatureInput(raw)?.get('sig1');
        expect(parsed?.covered.map((c) => c.name)).toEqual(names);
        expect([...(parsed?.paramKinds ?? [])]).toEqual(ps.map(([k, v]) => [k, v.kind]));
        expect(parsed?.text).toBe(serializeInnerList(inner));
      }),
      RUNS,
    );
  });
});

// ---- Robustness ----

const sfAlphabet = [
  '"',
  '(',
  ')',
  ':',
  ';',
  ',',
  '=',
  ' ',
  '\t',
  '\\',
  '?',
  '@',
  '%',
  '*',
  '-',
  '.',
  'a',
  'z',
  'A',
  '0',
  '1',
  '9',
  '/',
  '+',
  'sig1',
  'sha-256',
  'é',
  '\n',
];
const anyText = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.array(fc.constantFrom(...sfAlphabet), { maxLength: 40 }).map((parts) => parts.join('')),
);

describe('arbitrary input never throws', () => {
  it('parseSignatureInput, parseSignatureHeader, splitDictionaryMembers, checkContentDigest', () => {
    fc.assert(
      fc.property(anyText, fc.uint8Array({ maxLength: 16 }), (text, body) => {
        expect(() => parseSignatureInput(text)).not.toThrow();
        expect(() => parseSignatureHeader(text)).not.toThrow();
        expect(() => splitDictionaryMembers(text)).not.toThrow();
        expect(() => checkContentDigest(text, body)).not.toThrow();
      }),
      RUNS,
    );
  });

  it('whenever structured-headers accepts a dictionary, splitDictionaryMembers does too, with the same keys', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        let keys: string[] | null;
        try {
          keys = [...parseDictionary(text).keys()];
        } catch {
          keys = null;
        }
        const split = splitDictionaryMembers(text);
        expect(split === null ? null : [...split.keys()]).toEqual(keys);
      }),
      RUNS,
    );
  });
});
