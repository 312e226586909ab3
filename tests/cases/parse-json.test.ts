import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJson } from '../../src/schema/parse-json.js';

function failure(text: string): { line: number; column: number; problem: string } {
  try {
    parseJson(text, 'f.json');
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    const { line, column, problem } = error as JsonSyntaxError;
    return { line, column, problem };
  }
  throw new Error('parsed');
}

describe('parseJson', () => {
  it('parses JSON, with or without a byte order mark', () => {
    expect(parseJson('{"a":[1,true,null]}', 'f.json')).toEqual({ a: [1, true, null] });
    expect(parseJson('\uFEFF{"a":1}', 'f.json')).toEqual({ a: 1 });
  });

  it('says where and why the text goes wrong', () => {
    expect(failure('{"a":1,}')).toEqual({ line: 1, column: 8, problem: "expected a member name in double quotes, found '}'" });
    expect(failure('{"a" 1}')).toEqual({ line: 1, column: 6, problem: "expected ':' after the member name, found '1'" });
    expect(failure('[1 2]')).toEqual({ line: 1, column: 4, problem: "expected ',' or ']' after an element, found '2'" });
    expect(failure('{\n  "a": "b\n"}')).toEqual({ line: 2, column: 10, problem: 'control character (such as a line break) inside a string' });
    expect(failure('{"a": "b')).toEqual({ line: 1, column: 7, problem: 'string not closed' });
    expect(failure('{"a": 1} x')).toEqual({ line: 1, column: 10, problem: 'unexpected text after the JSON value' });
    expect(failure('{"a": 01}')).toEqual({ line: 1, column: 8, problem: "expected ',' or '}' after a member, found '1'" });
    expect(failure('{"a": "\\x"}')).toEqual({ line: 1, column: 8, problem: 'invalid escape in a string' });
  });

  it('puts the source, line and column in the message', () => {
    expect(() => parseJson('{', 'keys/alice.json')).toThrow('keys/alice.json: not valid JSON at line 1, column 2: unexpected end of the text');
  });
});
