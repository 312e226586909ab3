import { describe, expect, it } from 'vitest';
import {
  ComponentError,
  componentValue,
  coveredComponent,
  duplicateComponentId,
  fieldValue,
  parseSignatureInput,
  serializeComponentId,
  signatureBase,
  type ComponentErrorReason,
  type CoveredComponent,
  type HttpMessage,
} from '../../src/httpsig/index.js';

const message = (headers: [string, string][], url = 'https://example.com/p?q=1', method = 'POST'): HttpMessage => ({ method, url, headers });

/** The covered component exactly as a Signature-Input member would carry it. */
const fromWire = (identifier: string): CoveredComponent => {
  const c = parseSignatureInput(`sig1=(${identifier})`)?.get('sig1')?.covered[0];
  if (c === undefined) throw new Error(`did not parse ${identifier}`);
  return c;
};

const reasonOf = (f: () => unknown): ComponentErrorReason | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof ComponentError) return e.reason;
    throw e;
  }
  return undefined;
};

describe('fieldValue (RFC 9421 §2.1)', () => {
  it('trims leading and trailing SP and HTAB only and keeps inner whitespace', () => {
    expect(fieldValue([['X-A', '  a   b  ']], 'x-a')).toBe('a   b');
    expect(fieldValue([['x-a', '\t a\t\tb \t']], 'X-A')).toBe('a\t\tb');
  });

  it('joins repeated fields with ", " in received order, matching names case-insensitively', () => {
    expect(
      fieldValue(
        [
          ['Cache-Control', 'max-age=60'],
          ['other', 'x'],
          ['cache-control', '  must-revalidate '],
        ],
        'cache-control',
      ),
    ).toBe('max-age=60, must-revalidate');
    expect(
      fieldValue(
        [
          ['x', 'a'],
          ['X', ''],
        ],
        'x',
      ),
    ).toBe('a, ');
  });

  it('is undefined when absent and empty when present but empty', () => {
    expect(fieldValue([['x', 'a']], 'y')).toBeUndefined();
    expect(fieldValue([['y', '   ']], 'y')).toBe('');
  });
});

describe('componentValue', () => {
  const msg = message(
    [
      ['Host', 'example.com'],
      ['Date', 'Tue, 20 Apr 2021 02:07:55 GMT'],
      ['X-Empty', ''],
    ],
    'https://Example.COM:443/a%2Fb?x=1',
    'post',
  );

  it('gives derived components from the URL and the method as received', () => {
    expect(componentValue(msg, coveredComponent('@method'))).toBe('post');
    expect(componentValue(msg, coveredComponent('@authority'))).toBe('example.com');
    expect(componentValue(msg, coveredComponent('@path'))).toBe('/a%2Fb');
    expect(componentValue(msg, coveredComponent('@query'))).toBe('?x=1');
    expect(componentValue(msg, coveredComponent('date'))).toBe('Tue, 20 Apr 2021 02:07:55 GMT');
    expect(componentValue(msg, coveredComponent('x-empty'))).toBe('');
  });

  it('re-serialises a dictionary member as an SF item, keeping quotes and parameters', () => {
    const agent = message([['Signature-Agent', 'sig1="https://a.example/.well-known/jwks.json";type=jwks_uri,  sig2="https://b.example"']]);
    expect(componentValue(agent, fromWire('"signature-agent";key="sig1"'))).toBe('"https://a.example/.well-known/jwks.json";type=jwks_uri');
    expect(componentValue(agent, fromWire('"signature-agent";key="sig2"'))).toBe('"https://b.example"');
    // A Token member (no quotes) is valid SF and re-serialises as a Token: refusing it is the verifier's call.
    const token = message([['Signature-Agent', 'sig1=https://a.example']]);
    expect(componentValue(token, fromWire('"signature-agent";key="sig1"'))).toBe('https://a.example');
  });

  it('follows the RFC 9421 §2.1.2 Example-Dict values', () => {
    const dict = message([['Example-Dict', ' a=1,    b=2;x=1;y=2,   c=(a   b   c), d']]);
    expect(componentValue(dict, fromWire('"example-dict";key="a"'))).toBe('1');
    expect(componentValue(dict, fromWire('"example-dict";key="d"'))).toBe('?1');
    expect(componentValue(dict, fromWire('"example-dict";key="b"'))).toBe('2;x=1;y=2');
    expect(componentValue(dict, fromWire('"example-dict";key="c"'))).toBe('(a b c)');
  });

  it.each<[string, ComponentErrorReason | 'none', string, [string, string][]]>([
    ['an absent field', 'missing-field', '"date"', []],
    ['an absent dictionary field', 'missing-field', '"signature-agent";key="sig1"', []],
    ['an absent member', 'missing-member', '"signature-agent";key="sig2"', [['signature-agent', 'sig1="https://a.example"']]],
    ['a legacy string Signature-Agent', 'not-a-dictionary', '"signature-agent";key="sig1"', [['signature-agent', '"https://a.example"']]],
    ['an unparseable field', 'not-a-dictionary', '"signature-agent";key="sig1"', [['signature-agent', 'sig1="https://a.example']]],
    ['a Token key', 'bad-parameter', '"signature-agent";key=sig1', [['signature-agent', 'sig1="https://a.example"']]],
    ['a bare key', 'bad-parameter', '"signature-agent";key', [['signature-agent', 'sig1="https://a.example"']]],
    ['an Integer key', 'bad-parameter', '"signature-agent";key=1', [['signature-agent', 'sig1="https://a.example"']]],
    ['sf', 'unsupported-component', '"signature-agent";sf', [['signature-agent', 'sig1="x"']]],
    ['bs', 'unsupported-component', '"x-a";bs', [['x-a', 'a']]],
    ['tr', 'unsupported-component', '"x-a";tr', [['x-a', 'a']]],
    ['req on a field', 'unsupported-component', '"x-a";req', [['x-a', 'a']]],
    ['key with sf', 'unsupported-component', '"signature-agent";key="sig1";sf', [['signature-agent', 'sig1="x"']]],
    ['req on a derived component', 'unsupported-component', '"@authority";req', []],
    ['@query-param', 'unsupported-component', '"@query-param";name="q"', []],
    ['@target-uri', 'unsupported-component', '"@target-uri"', []],
    ['@scheme', 'unsupported-component', '"@scheme"', []],
    ['@request-target', 'unsupported-component', '"@request-target"', []],
    ['@status', 'unsupported-component', '"@status"', []],
    ['@signature-params', 'unsupported-component', '"@signature-params"', []],
    ['an unknown derived component', 'unsupported-component', '"@nope"', []],
    ['an upper-case field name', 'unsupported-component', '"Date"', [['Date', 'x']]],
    ['an empty name', 'unsupported-component', '""', []],
    ['a non-ASCII value', 'non-ascii', '"x-a"', [['x-a', 'caf\u00e9']]],
    ['a value with a line feed', 'non-ascii', '"x-a"', [['x-a', 'a\n"@method": GET']]],
    ['a value with a carriage return', 'non-ascii', '"x-a"', [['x-a', 'a\rb']]],
  ])('%s -> %s', (_what, reason, identifier, headers) => {
    expect(reasonOf(() => componentValue(message(headers), fromWire(identifier))) ?? 'none').toBe(reason);
  });

  it('a method with a non-ASCII character is refused too', () => {
    expect(reasonOf(() => componentValue(message([], 'https://example.com/', 'G\u00c9T'), coveredComponent('@method')))).toBe('non-ascii');
  });
});

describe('serializeComponentId', () => {
  it('writes identifiers as RFC 9421 §2.5 does', () => {
    expect(serializeComponentId(coveredComponent('signature-agent', [['key', 'sig1']]))).toBe('"signature-agent";key="sig1"');
    expect(serializeComponentId(coveredComponent('@method'))).toBe('"@method"');
    expect(serializeComponentId(fromWire('"@authority";req'))).toBe('"@authority";req');
  });

  it('keeps a Token parameter a Token when the component came off the wire', () => {
    expect(serializeComponentId(fromWire('"signature-agent";key=sig1'))).toBe('"signature-agent";key=sig1');
    expect(serializeComponentId(fromWire('"signature-agent";key="sig1"'))).toBe('"signature-agent";key="sig1"');
  });

  it('duplicateComponentId finds an identifier covered twice', () => {
    const once = [fromWire('"@method"'), fromWire('"signature-agent";key="sig1"')];
    expect(duplicateComponentId(once)).toBeUndefined();
    expect(duplicateComponentId([...once, fromWire('"signature-agent";key="sig1"')])).toBe('"signature-agent";key="sig1"');
    expect(duplicateComponentId([fromWire('"x";key="a"'), fromWire('"x";key=a')])).toBeUndefined();
  });
});

describe('signatureBase', () => {
  it('joins `<id>: <value>` lines with LF, ends with @signature-params and no trailing LF', () => {
    const msg = message([['Signature-Agent', 'sig1="https://a.example/.well-known/jwks.json"']], 'https://example.com/x');
    const covered = [
      coveredComponent('@method'),
      coveredComponent('@path'),
      coveredComponent('@query'),
      coveredComponent('signature-agent', [['key', 'sig1']]),
    ];
    expect(signatureBase(msg, covered, '("@method");created=1')).toBe(
      [
        '"@method": POST',
        '"@path": /x',
        '"@query": ?',
        '"signature-agent";key="sig1": "https://a.example/.well-known/jwks.json"',
        '"@signature-params": ("@method");created=1',
      ].join('\n'),
    );
  });

  it('is only the @signature-params line when nothing is covered', () => {
    expect(signatureBase(message([]), [], '();created=1')).toBe('"@signature-params": ();created=1');
  });
});
