import { describe, expect, it } from 'vitest';
import { parseSignatureHeader, parseSignatureInput, splitDictionaryMembers } from '../../src/httpsig/index.js';
import { fromBase64 } from './fixtures.js';

const NONCE = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==';

describe('splitDictionaryMembers', () => {
  it('returns the received text of each member, whitespace inside inner lists kept', () => {
    const raw = 'sig1=("@method"   "@path");created=1;nonce="a,b;c)(";tag="x",  sig2=:AAAA:;p=1 ,\tsig3=tok;x, sig4="q\\"uo,te"';
    expect([...(splitDictionaryMembers(raw) ?? [])]).toEqual([
      ['sig1', '("@method"   "@path");created=1;nonce="a,b;c)(";tag="x"'],
      ['sig2', ':AAAA:;p=1'],
      ['sig3', 'tok;x'],
      ['sig4', '"q\\"uo,te"'],
    ]);
  });

  it('writes a bare key (Boolean true) as ?1 followed by its parameters', () => {
    expect([...(splitDictionaryMembers('a, b;x=1, c=?0') ?? [])]).toEqual([
      ['a', '?1'],
      ['b', '?1;x=1'],
      ['c', '?0'],
    ]);
  });

  it('keeps the first position and the last value of a repeated key, as SF parsing does', () => {
    expect([...(splitDictionaryMembers('a=1, b=2, a=(3)') ?? [])]).toEqual([
      ['a', '(3)'],
      ['b', '2'],
    ]);
  });

  it('handles display strings, decimals and dates', () => {
    // structured-headers 2.1.0 reads a Date to the end of the input, so a Date parses only as the last item.
    expect([...(splitDictionaryMembers('a=%"caf%c3%a9", c=-1.5;d=x, b=@1700000000') ?? [])]).toEqual([
      ['a', '%"caf%c3%a9"'],
      ['c', '-1.5;d=x'],
      ['b', '@1700000000'],
    ]);
  });

  it.each(['sig1=', 'sig1=("a"', 'Sig1=1', 'a=1,', 'a=1 b=2', '=1', 'a="unterminated', 'a=1;', '\ta=1'])('null for %j', (raw) => {
    expect(splitDictionaryMembers(raw)).toBeNull();
  });

  it('an empty field is an empty dictionary', () => {
    expect(splitDictionaryMembers('')).toEqual(new Map());
  });
});

describe('parseSignatureInput', () => {
  it('parses the platform SDK member with its parameter kinds', () => {
    const raw = `sig1=("@method" "@authority" "@path" "@query" "content-digest" "signature-agent";key="sig1");created=1758067200;expires=1758067260;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";nonce="${NONCE}";tag="web-bot-auth"`;
    const member = parseSignatureInput(raw)?.get('sig1');
    expect(member?.covered.map((c) => c.name)).toEqual(['@method', '@authority', '@path', '@query', 'content-digest', 'signature-agent']);
    expect([...(member?.covered[5]?.params ?? [])]).toEqual([['key', 'sig1']]);
    expect([...(member?.covered[5]?.paramKinds ?? [])]).toEqual([['key', 'string']]);
    expect([...(member?.paramKinds ?? [])]).toEqual([
      ['created', 'integer'],
      ['expires', 'integer'],
      ['keyid', 'string'],
      ['alg', 'string'],
      ['nonce', 'string'],
      ['tag', 'string'],
    ]);
    expect(member?.params.get('nonce')).toBe(NONCE);
    expect(member?.coveredAreStrings).toBe(true);
    expect(member?.text).toBe(raw.slice('sig1='.length));
  });

  it('tells a Token from a String, an Integer from a Decimal, and carries Booleans and Byte Sequences', () => {
    const member = parseSignatureInput('sig1=("@authority");tag=web-bot-auth;created=1.0;expires=2;alg;nonce=:AQID:;keyid=?0')?.get('sig1');
    expect([...(member?.params ?? [])]).toEqual([
      ['tag', 'web-bot-auth'],
      ['created', 1],
      ['expires', 2],
      ['alg', true],
      ['nonce', new Uint8Array([1, 2, 3])],
      ['keyid', false],
    ]);
    expect([...(member?.paramKinds ?? [])]).toEqual([
      ['tag', 'token'],
      ['created', 'decimal'],
      ['expires', 'integer'],
      ['alg', 'boolean'],
      ['nonce', 'bytes'],
      ['keyid', 'boolean'],
    ]);
  });

  it('flags inner-list items that are not Strings and leaves them out of covered', () => {
    const member = parseSignatureInput('sig1=("@method" authority 1 :AA==: "@path");created=1')?.get('sig1');
    expect(member?.coveredAreStrings).toBe(false);
    expect(member?.covered.map((c) => c.name)).toEqual(['@method', '@path']);
  });

  it('keeps several labels in order', () => {
    const parsed = parseSignatureInput('sig1=("@authority");created=1, sig2=();created=2');
    expect([...(parsed?.keys() ?? [])]).toEqual(['sig1', 'sig2']);
    expect(parsed?.get('sig2')?.covered).toEqual([]);
    expect(parsed?.get('sig2')?.text).toBe('();created=2');
  });

  it.each([
    ['not a dictionary', '("@method");created=1'],
    ['a member that is not an inner list', 'sig1="@method"'],
    ['a bare member', 'sig1'],
    ['one good, one bad member', 'sig1=("@method"), sig2=1'],
    ['an RFC 9651 Date parameter', 'sig1=("@method");created=@1700000000'],
    ['an RFC 9651 Display String parameter', 'sig1=("@method");tag=%"x"'],
    ['a Date on a component', 'sig1=("@method";x=@1)'],
    ['garbage', 'sig1=(("@method"))'],
  ])('null for %s', (_name, raw) => {
    expect(parseSignatureInput(raw)).toBeNull();
  });
});

describe('parseSignatureHeader', () => {
  it('decodes each member Byte Sequence', () => {
    const sig = 'CjoHhKjA3wQEhEH/S/atFm0zCnqGtAoY3wCVAHcqs5HLUG15VAQcCKU9dVBM4Xt+4LdB9IW5WnHpukoD35vAAA==';
    const parsed = parseSignatureHeader(`sig1=:${sig}:, sig2=::`);
    expect(parsed?.get('sig1')).toEqual(fromBase64(sig));
    expect(parsed?.get('sig1')).toHaveLength(64);
    expect(parsed?.get('sig2')).toEqual(new Uint8Array());
  });

  it.each([
    ['a String member', 'sig1="abc"'],
    ['an inner list member', 'sig1=(:AAAA:)'],
    ['a bare member', 'sig1'],
    ['a Token member', 'sig1=abc'],
    ['not base64', 'sig1=:a-b_:'],
    ['not a dictionary', ':AAAA:'],
  ])('null for %s', (_name, raw) => {
    expect(parseSignatureHeader(raw)).toBeNull();
  });
});
