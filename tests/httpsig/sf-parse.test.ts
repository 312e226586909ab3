import fc from 'fast-check';
import {
  Token,
  parseDictionary as libraryParse,
  serializeDictionary,
  serializeItem,
  type BareItem,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { serializeComponentId } from '../../src/httpsig/covered-component.js';
import { fieldValue } from '../../src/httpsig/message.js';
import { parseDictionaryWithText, type ReceivedMember } from '../../src/httpsig/sf-parse.js';
import { plainItem } from '../../src/httpsig/sf-plain.js';
import { lexDictionaryMembers, paramKindsOf } from '../../src/httpsig/sf-text.js';

/**
 * The verifier's fast paths against what they stand for: the recording pass of sf-parse.ts reads what
 * sf-text.ts's lexer reads, the serialisation shortcuts write the library's text, fieldValue matches its
 * definition. Parsing itself is structured-headers'.
 */

/** Fragments of dictionary syntax, valid and not, glued at random: most inputs land near a parse decision. */
const FRAGMENTS = [
  'sig1',
  'a',
  '*',
  'k_1.-*',
  'A',
  '1a',
  '=',
  '(',
  ')',
  ';',
  ',',
  ' ',
  '  ',
  '\t',
  ', ',
  '"',
  '"x"',
  '"a\\"b"',
  '"\\\\"',
  '"\\x"',
  '"é"',
  '"\t"',
  '"\x7f"',
  '"\x1f"',
  '"~ "',
  'tok',
  "T:/!#$%&'*+-.^_`|~9",
  '*t',
  '1',
  '-',
  '-0',
  '0',
  '123456789012345',
  '1234567890123456',
  '1.5',
  '1.',
  '1.2345',
  '123456789012.5',
  '1234567890123.5',
  '12.',
  '.5',
  ':',
  ':AAEC:',
  ':AAE=:',
  ':A:',
  ':A=B:',
  ':!:',
  '?1',
  '?0',
  '?2',
  '?',
  '@1',
  '@-1',
  '@',
  '@1234567890123456',
  '%"',
  '%"a%20b"',
  '%"%ZZ"',
  '%"%c3%28"',
  '%"\u0100"',
  '%',
  '"@method"',
  '"signature-agent";key="sig1"',
  ';created=1800000000',
  ';keyid="abc"',
  ';alg="ed25519"',
  ';nonce="bm9uY2U="',
  ';tag="web-bot-auth"',
  ';type=jwks_uri',
  '\u00e9',
  '\u{1f600}',
  '\r',
  '\n',
];
const fragmented = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 14 }).map((parts) => parts.join(''));

/** Valid dictionaries from the library's own serializer, so the accepting paths are covered too. */
const sfBare: fc.Arbitrary<BareItem> = fc.oneof(
  fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
  fc.integer({ min: -999_999_999, max: 999_999_999 }).map((n) => n / 1000),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z*][!#$%&'*+.^_`|~A-Za-z0-9:/-]{0,8}$/).map((t) => new Token(t)),
  fc.uint8Array({ maxLength: 12 }).map((b) => b.buffer as ArrayBuffer),
  fc.boolean(),
);
const sfKey = fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,5}$/);
const sfParams: fc.Arbitrary<Parameters> = fc.array(fc.tuple(sfKey, sfBare), { maxLength: 3 }).map((e) => new Map(e));
const sfItem: fc.Arbitrary<Item> = fc.tuple(sfBare, sfParams);
const sfMember: fc.Arbitrary<Item | InnerList> = fc.oneof(sfItem, fc.tuple(fc.array(sfItem, { maxLength: 4 }), sfParams));
const serialized = fc.array(fc.tuple(sfKey, sfMember), { minLength: 1, maxLength: 4 }).map((entries) => {
  try {
    return serializeDictionary(new Map(entries));
  } catch {
    return 'a=1';
  }
});
/** A valid dictionary with one character inserted, removed or replaced. */
const mutated = fc
  .tuple(
    serialized,
    fc.nat(),
    fc.constantFrom('', ' ', '\t', ',', ';', '=', '(', ')', '"', '\\', ':', '.', '-', '?', '@', '%', 'A', '0', '\x7f', '\u00e9'),
    fc.boolean(),
  )
  .map(([s, at, c, replace]) => {
    const i = at % (s.length + 1);
    return s.slice(0, i) + c + s.slice(replace ? i + 1 : i);
  });

describe('parseDictionaryWithText: each member as sf-text.ts lexes it, in the same pass', () => {
  it('gives the lexer’s member texts and parameter kinds wherever the parser accepts', () => {
    const anyInput = fc.oneof(fragmented, serialized, mutated);
    fc.assert(
      fc.property(anyInput, (s) => {
        const received = new Map<string, ReceivedMember>();
        try {
          parseDictionaryWithText(s, received);
        } catch {
          expect(() => libraryParse(s)).toThrow();
          return;
        }
        const lexed = lexDictionaryMembers(s);
        expect(lexed, JSON.stringify(s)).not.toBeNull();
        expect([...received.keys()]).toEqual([...lexed!.keys()]);
        for (const [key, member] of received) {
          const raw = lexed!.get(key)!;
          expect(member.text).toBe(raw.text);
          expect([...member.paramKinds]).toEqual([...paramKindsOf(raw.params)]);
          expect(member.itemParamKinds?.map((k) => [...k]) ?? null).toEqual(raw.items?.map((item) => [...paramKindsOf(item.params)]) ?? null);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('serialisation shortcuts: the text structured-headers writes', () => {
  const plainish = fc.oneof(
    fc.constantFrom('@method', 'signature-agent', 'sig1', 'https://a.example/.well-known/jwks.json', 'a"b', 'a\\b', 'é', '', 'key', 'K'),
    fc.string({ maxLength: 6 }),
  );
  const paramValue: fc.Arbitrary<BareItem> = fc.oneof(
    plainish,
    plainish.filter((t) => /^[A-Za-z*][!#$%&'*+.^_`|~A-Za-z0-9:/-]*$/.test(t)).map((t) => new Token(t)),
    fc.boolean(),
    fc.integer({ min: -9, max: 9 }),
  );
  const params = fc.array(fc.tuple(fc.constantFrom('key', 'type', 'K', 'a b', '*x'), paramValue), { maxLength: 3 }).map((e) => new Map(e));

  it('plainItem, when it answers, answers serializeItem', () => {
    fc.assert(
      fc.property(paramValue, params, (value, p) => {
        const plain = plainItem(value, p);
        if (plain !== undefined) expect(plain).toBe(serializeItem([value, p]));
      }),
      { numRuns: 5_000 },
    );
  });

  it('serializeComponentId gives what serializeItem gives for the same name and parameters', () => {
    const kind = fc.constantFrom(undefined, 'string', 'token', 'bytes', 'integer');
    fc.assert(
      fc.property(
        plainish,
        fc.array(fc.tuple(fc.constantFrom('key', 'sf', 'K', 'a b'), fc.oneof(plainish, fc.integer({ min: -3, max: 3 }), fc.boolean()), kind), { maxLength: 2 }),
        (name, entries) => {
          const c = {
            name,
            params: new Map(entries.map(([k, v]) => [k, v] as const)),
            paramKinds: new Map(entries.filter(([, , k]) => k !== undefined).map(([k, , kd]) => [k, kd!] as const)),
          };
          // The reference: each parameter as its kind says (a Token only when it is one), then serializeItem.
          const reference = () =>
            serializeItem(
              c.name,
              new Map(
                [...c.params].map(([k, v]) => {
                  const kd = c.paramKinds.get(k);
                  const item: BareItem =
                    typeof v !== 'string'
                      ? v
                      : kd === 'token' && /^[A-Za-z*][:/!#$%&'*+\-.^_`|~A-Za-z0-9]*$/.test(v)
                        ? new Token(v)
                        : kd === 'bytes'
                          ? Buffer.from(v, 'base64')
                          : v;
                  return [k, item];
                }),
              ),
            );
          let expected: string;
          try {
            expected = reference();
          } catch {
            expect(() => serializeComponentId(c)).toThrow();
            return;
          }
          expect(serializeComponentId(c)).toBe(expected);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});

describe('fieldValue: the lines of a field, trimmed of SP and HTAB, joined', () => {
  it('matches the regular-expression definition', () => {
    const EDGE_WHITESPACE = /^[ \t]+|[ \t]+$/g;
    const reference = (headers: ReadonlyArray<readonly [string, string]>, name: string) => {
      const values = headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v.replace(EDGE_WHITESPACE, ''));
      return values.length === 0 ? undefined : values.join(', ');
    };
    const text = fc.array(fc.constantFrom(' ', '\t', 'a', 'A', '\n', '\u00a0', 'İ', 'K', 'k', ','), { maxLength: 6 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 4 }), text, (headers, name) => {
        expect(fieldValue(headers, name)).toBe(reference(headers, name));
      }),
      { numRuns: 5_000 },
    );
  });
});
