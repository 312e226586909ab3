import { describe, expect, it } from 'vitest';
import { CaseInputError, loadCase, loadCaseFile, loadCases } from '../../src/cases/load-case.js';
import { asText, sampleCase, sampleVectors } from './sample-case.js';

/** The message loadCase throws for this case, with the source name stripped. */
function problemOf(value: unknown): string {
  try {
    loadCase(typeof value === 'string' ? value : asText(value), 'case.json');
  } catch (error) {
    expect(error).toBeInstanceOf(CaseInputError);
    return (error as Error).message.replace(/^case\.json: /, '');
  }
  throw new Error('the case loaded');
}

function broken(edit: (c: Record<string, any>) => void): Record<string, any> {
  const c = sampleCase();
  edit(c);
  return c;
}

describe('loadCase', () => {
  it('returns a valid case as parsed', () => {
    expect(loadCase(asText(sampleCase()), 'case.json')).toEqual(sampleCase());
  });

  it('loads the example of docs/contracts.md section 2 once its placeholders are filled in', () => {
    const example = sampleCase();
    delete example.platform.blocked_agents;
    expect(() => loadCase(asText(example), 'case.json')).not.toThrow();
  });

  it('names the member at fault as a pointer and says what is wrong', () => {
    const cases: Array<[string, Record<string, any>, string]> = [
      [
        'a header that is not a pair',
        broken((c) => c.steps[0].request.headers.push(['x-only-name'], ['a', 'b'])),
        'steps/0/request/headers/1: each header must be a [name, value] pair of strings',
      ],
      [
        'a header value that is not a string',
        broken((c) => c.steps[0].request.headers.push(['a', 'b'], ['content-length', 3])),
        'steps/0/request/headers/2: each header must be a [name, value] pair of strings',
      ],
      [
        'a header that is a string',
        broken((c) => (c.steps[0].request.headers = ['signature: x'])),
        'steps/0/request/headers/0: each header must be a [name, value] pair of strings',
      ],
      [
        'a header name with a space',
        broken((c) => (c.steps[0].request.headers = [['bad name', 'v']])),
        "steps/0/request/headers/0/0: a header name must be an HTTP field name (letters, digits and !#$%&'*+-.^_`|~)",
      ],
      ['a missing request', broken((c) => delete c.steps[0].request), 'steps/0/request: missing (a step must have "request")'],
      ['a missing id', broken((c) => delete c.id), 'id: missing (a case must have "id")'],
      [
        'an unknown error_code',
        broken((c) => (c.steps[0].expect.error_code = 'sig_expired')),
        'steps/0/expect/error_code: "sig_expired" is not an error_code of spec section 7.3 (did you mean "signature_expired"?)',
      ],
      [
        'an error_code far from any',
        broken((c) => (c.steps[0].expect.error_code = 'teapot')),
        'steps/0/expect/error_code: "teapot" is not an error_code of spec section 7.3',
      ],
      ['a misspelt member', broken((c) => (c.steps[0].expected = c.steps[0].expect)), 'steps/0/expected: unknown member (did you mean "expect"?)'],
      [
        'an unknown top-level member',
        broken((c) => (c.comment = 'x')),
        'comment: unknown member; a case has only "id", "description", "platform", "now", "documents", "dns", "registrations", "steps"',
      ],
      [
        'body and body_base64 together',
        broken((c) => (c.steps[0].request.body = '{}')),
        'steps/0/request/body_base64: give only one of body, body_base64 and body_fill',
      ],
      [
        'body_base64 and body_fill together',
        broken((c) => (c.steps[0].request.body_fill = { length: 4, byte: 97 })),
        'steps/0/request/body_fill: give only one of body, body_base64 and body_fill',
      ],
      [
        'a fill byte out of range',
        broken((c) => {
          delete c.steps[0].request.body_base64;
          c.steps[0].request.body_fill = { length: 4, byte: 256 };
        }),
        'steps/0/request/body_fill/byte: must be at most 255',
      ],
      [
        'document body and body_base64 together',
        broken((c) => (c.steps[0].documents['https://agents.example/a/alice/.well-known/agent.json'].body = '{}')),
        'steps/0/documents/https:~1~1agents.example~1a~1alice~1.well-known~1agent.json/body_base64: give body or body_base64, not both',
      ],
      [
        'body_base64 that is not base64',
        broken((c) => (c.steps[0].request.body_base64 = 'not base64!')),
        'steps/0/request/body_base64: must be standard base64 (A-Z, a-z, 0-9, + and /, padded with =)',
      ],
      [
        'a document keyed by a path',
        broken((c) => (c.documents['/jwks.json'] = { status: 200 })),
        'documents/~1jwks.json: documents must be keyed by absolute URLs',
      ],
      [
        'a document status out of range',
        broken((c) => (c.documents['https://agents.example/a/alice/.well-known/jwks.json'].status = 99)),
        'documents/https:~1~1agents.example~1a~1alice~1.well-known~1jwks.json/status: must be an HTTP status code, a whole number from 100 to 599',
      ],
      ['a client address that is not one', broken((c) => (c.steps[0].client_address = 'localhost')), 'steps/0/client_address: must be an IPv4 or IPv6 address'],
      ['now as a string', broken((c) => (c.now = '1800000000')), 'now: must be a whole number of seconds since the epoch'],
      ['no steps', broken((c) => (c.steps = [])), 'steps: a case needs at least one step'],
      [
        'a short thumbprint',
        broken((c) => (c.registrations['https://agents.example/a/alice'].thumbprints = ['abc'])),
        'registrations/https:~1~1agents.example~1a~1alice/thumbprints/0: must be an RFC 7638 thumbprint: 43 base64url characters',
      ],
      ['expect.ok as a string', broken((c) => (c.steps[0].expect.ok = 'false')), 'steps/0/expect/ok: must be true or false, not a string'],
      ['a request URL that is relative', broken((c) => (c.steps[0].request.url = '/api/auth/cli/token')), 'steps/0/request/url: must be an absolute URL'],
      [
        'an authority with a scheme',
        broken((c) => (c.platform.authority = 'https://platform.example')),
        'platform/authority: must be a host with an optional port, e.g. platform.example (no scheme, path or spaces)',
      ],
    ];
    for (const [what, value, message] of cases) expect(problemOf(value), what).toBe(message);
  });

  it('gives line and column for JSON that does not parse', () => {
    expect(problemOf('{\n  "id": "x",\n  "now": 18,\n}')).toBe(
      "(top level): not valid JSON at line 4, column 1: expected a member name in double quotes, found '}'",
    );
    expect(problemOf('{"id": tru}')).toBe(
      "(top level): not valid JSON at line 1, column 8: expected a value (object, array, string, number, true, false or null), found 't'",
    );
    expect(problemOf('')).toBe('(top level): not valid JSON at line 1, column 1: unexpected end of the text');
  });

  it('refuses JSON that is not an object', () => {
    expect(problemOf('[1]')).toBe('(top level): must be a JSON object: a signed-request case, or a vectors file with testGroups');
  });

  it('lists at most five problems and counts the rest', () => {
    const message = problemOf(broken((c) => (c.steps[0].request.headers = [1, 2, 3, 4, 5, 6, 7])));
    expect(message.split('\n')).toEqual([
      '7 problems:',
      ...[0, 1, 2, 3, 4].map((i) => `  steps/0/request/headers/${i}: each header must be a [name, value] pair of strings`),
      '  and 2 more',
    ]);
  });

  it('refuses a vectors file, which holds many cases', () => {
    expect(problemOf(sampleVectors([]))).toBe('(top level): holds a vectors file (testGroups), not a single case; read it with loadCases');
  });

  it('starts the message with the source it was given', () => {
    expect(() => loadCase('{', 'cases/broken.json')).toThrow(/^cases\/broken\.json: /);
  });
});

describe('loadCases and loadCaseFile', () => {
  const vectorCase = (id: string, flags = ['KeySetFetch']): Record<string, any> => ({ ...sampleCase(), id, flags });

  it('read a single case as a one-case file', () => {
    const file = loadCaseFile(asText(sampleCase()), 'case.json');
    expect(file.layout).toBe('case');
    expect(file.cases).toEqual([sampleCase()]);
    expect(loadCases(asText(sampleCase()), 'case.json')).toEqual([sampleCase()]);
  });

  it('read every case of a vectors file, in order, with flags and comment', () => {
    const text = asText(sampleVectors([vectorCase('a'), { ...vectorCase('b', []), comment: 'why' }]));
    const file = loadCaseFile(text, 'vectors.json');
    expect(file.layout).toBe('vectors');
    expect(file.cases.map((c) => c.id)).toEqual(['a', 'b']);
    expect(loadCases(text, 'vectors.json').map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('name the member at fault inside a vectors file', () => {
    const problem = (value: unknown) => {
      try {
        loadCases(asText(value), 'v.json');
      } catch (error) {
        expect(error).toBeInstanceOf(CaseInputError);
        return (error as Error).message.replace(/^v\.json: /, '');
      }
      throw new Error('the file loaded');
    };
    const withoutFlags: Record<string, any> = vectorCase('a');
    delete withoutFlags.flags;
    expect(problem(sampleVectors([withoutFlags]))).toBe('testGroups/0/cases/0/flags: missing (a case must have "flags")');
    expect(problem(sampleVectors([{ ...vectorCase('a'), bogus: 1 }]))).toMatch(
      /^testGroups\/0\/cases\/0\/bogus: unknown member; a case has only "id", .*"flags", "comment"$/,
    );
    const badStep = vectorCase('a');
    badStep.steps[0].request.headers = [['only']];
    expect(problem(sampleVectors([badStep]))).toBe('testGroups/0/cases/0/steps/0/request/headers/0: each header must be a [name, value] pair of strings');
    expect(problem({ ...sampleVectors([vectorCase('a')]), numberOfTests: 3 })).toBe('numberOfTests: says 3 but the file holds 1 case');
    expect(problem(sampleVectors([vectorCase('a', ['Unknown'])]))).toBe('testGroups/0/cases/0/flags/0: flag "Unknown" is not described in notes');
    expect(problem(sampleVectors([vectorCase('a'), vectorCase('a')]))).toBe('testGroups/0/cases/1/id: "a" is already the id of testGroups/0/cases/0');
    const noGroups: Record<string, any> = sampleVectors([]);
    delete noGroups.generatorVersion;
    expect(problem(noGroups)).toBe('generatorVersion: missing (a vectors file must have "generatorVersion")');
  });
});
