import { DisplayString, ParseError, Token, base64ToArrayBuffer, type BareItem, type Dictionary, type InnerList, type Item, type Parameters } from 'structured-headers';
import type { BareItemKind } from './sf-text.js';

/**
 * RFC 8941 dictionary parsing, the same function as structured-headers' `parseDictionary` (2.1.0), for the
 * verifier's hot path. It is that library's parser step for step: it accepts and refuses exactly the same
 * inputs, returns the same values (its Token, DisplayString, ArrayBuffer and Date, in Maps of the same
 * order) and throws its ParseError with the same message and offset. Only the character tests differ:
 * char codes and a lookup table instead of one regular expression per character, and slices instead of
 * character-by-character concatenation. tests/httpsig/sf-parse.test.ts holds the two side by side.
 *
 * parseDictionaryWithText also records what sf-text.ts's lexer reads off the received text (each member's
 * text and the kind of each parameter), in the same pass.
 */

/** The kind of a bare item from its text (null text = a bare parameter key, i.e. Boolean true). */
export function bareItemKind(valueText: string | null): BareItemKind {
  if (valueText === null) return 'boolean';
  const first = valueText[0];
  if (first === '"') return 'string';
  if (first === ':') return 'bytes';
  if (first === '?') return 'boolean';
  if (first === '@') return 'date';
  if (first === '%') return 'display-string';
  if (first === '-' || (first !== undefined && first >= '0' && first <= '9')) {
    return valueText.includes('.') ? 'decimal' : 'integer';
  }
  return 'token';
}

/** One dictionary member as received: what sf-text.ts's lexDictionaryMembers gives, with kinds instead of texts. */
export interface ReceivedMember {
  /** Everything after `key=`, parameters included; `?1` plus the parameters for a bare key. */
  readonly text: string;
  /** For an inner list, the kinds of each item's parameters; null when the member is a single item. */
  readonly itemParamKinds: readonly ReadonlyMap<string, BareItemKind>[] | null;
  /** The kinds of the member's own parameters (after the item, or after the closing parenthesis). */
  readonly paramKinds: ReadonlyMap<string, BareItemKind>;
}


/**
 * An empty Map that stays empty (set throws). Most items carry no parameters; they all share this one
 * instead of each allocating its own: the values are the same, and nothing in this project writes to a
 * parsed Parameters map.
 */
class EmptyMap<K, V> extends Map<K, V> {
  override set(): this {
    throw new TypeError('this empty map is shared and read-only');
  }
}
export const NO_PARAMETERS: Parameters = new EmptyMap();
/** The same, for any read-only map that would be empty. */
export const EMPTY_MAP: ReadonlyMap<never, never> = new EmptyMap();
const NO_KINDS: ReadonlyMap<string, BareItemKind> = EMPTY_MAP;

const SP = 0x20;
const HTAB = 0x09;
const DQUOTE = 0x22;
const BACKSLASH = 0x5c;

/** tchar plus ":" and "/" (RFC 8941 §3.3.4): what may follow the first character of a Token. */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of ":/!#$%&'*+-.^_`|~") TOKEN_CHAR[c.charCodeAt(0)] = 1;
/** lcalpha, DIGIT, "_", "-", ".", "*" (RFC 8941 §3.1.2): what may follow the first character of a key. */
const KEY_CHAR = new Uint8Array(128);
for (const c of '_-.*') KEY_CHAR[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN_CHAR[c] = KEY_CHAR[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TOKEN_CHAR[c] = KEY_CHAR[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN_CHAR[c] = 1;

const isDigitCode = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isLcAlphaCode = (code: number): boolean => code >= 0x61 && code <= 0x7a;
const isAlphaCode = (code: number): boolean => isLcAlphaCode(code) || (code >= 0x41 && code <= 0x5a);

/** bareItemKind(s.slice(start, end)), without making the slice. */
function kindOfText(s: string, start: number, end: number): BareItemKind {
  if (start >= end) return 'token';
  const first = s.charCodeAt(start);
  if (first === DQUOTE) return 'string';
  if (first === 0x3a /* : */) return 'bytes';
  if (first === 0x3f /* ? */) return 'boolean';
  if (first === 0x40 /* @ */) return 'date';
  if (first === 0x25 /* % */) return 'display-string';
  if (first === 0x2d /* - */ || isDigitCode(first)) {
    const dot = s.indexOf('.', start);
    return dot !== -1 && dot < end ? 'decimal' : 'integer';
  }
  return 'token';
}

class Parser {
  private pos = 0;
  /** When recording: the kinds of the parameters parseParameters read last. */
  private kinds: ReadonlyMap<string, BareItemKind> = NO_KINDS;

  constructor(
    private readonly input: string,
    /** Record each member as received (parseDictionaryWithText). */
    private readonly received?: Map<string, ReceivedMember>,
  ) {}

  parseDictionary(): Dictionary {
    this.skipWS();
    const dictionary: Dictionary = new Map();
    while (!this.eof()) {
      const thisKey = this.parseKey();
      let member: Item | InnerList;
      const start = this.pos;
      if (this.code() === 0x3d /* = */) {
        this.pos++;
        const itemParamKinds: ReadonlyMap<string, BareItemKind>[] | null = this.received && this.code() === 0x28 /* ( */ ? [] : null;
        member = this.parseItemOrInnerList(itemParamKinds);
        this.received?.set(thisKey, { text: this.input.slice(start + 1, this.pos), itemParamKinds, paramKinds: this.kinds });
      } else {
        member = [true, this.parseParameters()];
        this.received?.set(thisKey, { text: `?1${this.input.slice(start, this.pos)}`, itemParamKinds: null, paramKinds: this.kinds });
      }
      dictionary.set(thisKey, member);
      this.skipOWS();
      if (this.eof()) return dictionary;
      this.expectChar(',');
      this.pos++;
      this.skipOWS();
      if (this.eof()) throw new ParseError(this.pos, 'Dictionary contained a trailing comma');
    }
    return dictionary;
  }

  private parseItem(): Item {
    return [this.parseBareItem(), this.parseParameters()];
  }

  /** When recording, `itemKinds` receives the parameter kinds of each inner-list item. */
  private parseItemOrInnerList(itemKinds: ReadonlyMap<string, BareItemKind>[] | null = null): Item | InnerList {
    return this.code() === 0x28 /* ( */ ? this.parseInnerList(itemKinds) : this.parseItem();
  }

  private parseInnerList(itemKinds: ReadonlyMap<string, BareItemKind>[] | null): InnerList {
    this.expectChar('(');
    this.pos++;
    const innerList: Item[] = [];
    while (!this.eof()) {
      this.skipWS();
      if (this.code() === 0x29 /* ) */) {
        this.pos++;
        return [innerList, this.parseParameters()];
      }
      innerList.push(this.parseItem());
      itemKinds?.push(this.kinds);
      const next = this.code();
      if (next !== SP && next !== 0x29) throw new ParseError(this.pos, 'Expected a whitespace or ) after every item in an inner list');
    }
    throw new ParseError(this.pos, 'Could not find end of inner list');
  }

  private parseBareItem(): BareItem {
    if (this.eof()) throw new ParseError(this.pos, 'Unexpected end of string');
    const code = this.code();
    if (code === 0x2d /* - */ || isDigitCode(code)) return this.parseIntegerOrDecimal();
    if (code === DQUOTE) return this.parseString();
    if (isAlphaCode(code) || code === 0x2a /* * */) return this.parseToken();
    if (code === 0x3a /* : */) return this.parseByteSequence();
    if (code === 0x3f /* ? */) return this.parseBoolean();
    if (code === 0x40 /* @ */) return this.parseDate();
    if (code === 0x25 /* % */) return this.parseDisplayString();
    throw new ParseError(this.pos, 'Unexpected input');
  }

  /**
   * Items mostly carry no parameters: those all get the shared NO_PARAMETERS. When recording, also notes
   * each parameter's kind, as bareItemKind reads it off the value's text, in `this.kinds`.
   */
  private parseParameters(): Parameters {
    const recording = this.received !== undefined;
    if (this.code() !== 0x3b /* ; */) {
      if (recording) this.kinds = NO_KINDS;
      return NO_PARAMETERS;
    }
    const parameters: Parameters = new Map();
    const kinds: Map<string, BareItemKind> | undefined = recording ? new Map() : undefined;
    while (!this.eof()) {
      if (this.code() !== 0x3b /* ; */) break;
      this.pos++;
      this.skipWS();
      const key = this.parseKey();
      let value: BareItem = true;
      let kind: BareItemKind = 'boolean';
      if (this.code() === 0x3d /* = */) {
        this.pos++;
        const start = this.pos;
        value = this.parseBareItem();
        if (recording) kind = kindOfText(this.input, start, this.pos);
      }
      parameters.set(key, value);
      kinds?.set(key, kind);
    }
    if (kinds !== undefined) this.kinds = kinds;
    return parameters;
  }

  /** The number's text is the run of characters consumed, so its length is counted and the text sliced once. */
  private parseIntegerOrDecimal(): number {
    let type: 'integer' | 'decimal' = 'integer';
    let sign = 1;
    let dot = -1;
    if (this.code() === 0x2d) {
      sign = -1;
      this.pos++;
    }
    if (!isDigitCode(this.code())) throw new ParseError(this.pos, 'Expected a digit (0-9)');
    const start = this.pos;
    let integer = 0;
    while (!this.eof()) {
      const code = this.input.charCodeAt(this.pos++);
      if (isDigitCode(code)) {
        // At most 15 digits: the running value stays an exact integer, the one parseInt gives.
        integer = integer * 10 + (code - 0x30);
      } else if (type === 'integer' && code === 0x2e /* . */) {
        if (this.pos - 1 - start > 12) throw new ParseError(this.pos, 'Exceeded maximum decimal length');
        dot = this.pos - 1;
        type = 'decimal';
      } else {
        this.pos--;
        break;
      }
      const length = this.pos - start;
      if (type === 'integer' && length > 15) throw new ParseError(this.pos, 'Exceeded maximum integer length');
      if (type === 'decimal' && length > 16) throw new ParseError(this.pos, 'Exceeded maximum decimal length');
    }
    if (type === 'integer') return integer * sign;
    if (dot === this.pos - 1) throw new ParseError(this.pos, 'Decimal cannot end on a period');
    if (this.pos - 1 - dot > 3) throw new ParseError(this.pos, 'Number of digits after the decimal point cannot exceed 3');
    return parseFloat(this.input.slice(start, this.pos)) * sign;
  }

  private parseString(): string {
    const s = this.input;
    let output = '';
    this.expectChar('"');
    this.pos++;
    let run = this.pos;
    while (!this.eof()) {
      const code = s.charCodeAt(this.pos++);
      if (code === BACKSLASH) {
        output += s.slice(run, this.pos - 1);
        if (this.eof()) throw new ParseError(this.pos, 'Unexpected end of input');
        const next = s.charCodeAt(this.pos++);
        if (next !== BACKSLASH && next !== DQUOTE) throw new ParseError(this.pos, 'A backslash must be followed by another backslash or double quote');
        output += s[this.pos - 1];
        run = this.pos;
      } else if (code === DQUOTE) {
        return output + s.slice(run, this.pos - 1);
      } else if (code < 0x20 || code > 0x7e) {
        throw new ParseError(this.pos, 'Strings must be in the ASCII range');
      }
    }
    throw new ParseError(this.pos, 'Unexpected end of input');
  }

  private parseDisplayString(): DisplayString {
    const chars = this.input.substr(this.pos, 2);
    this.pos += 2;
    if (chars !== '%"') throw new ParseError(this.pos, 'Unexpected character. Display strings should start with %=');
    const result: number[] = [];
    while (!this.eof()) {
      const char = this.input[this.pos++]!;
      const code = char.charCodeAt(0);
      if (code <= 0x1f || (code >= 0x7f && code <= 0xff)) {
        throw new ParseError(this.pos, 'Invalid char found in DisplayString. Did you forget to escape?');
      }
      if (char === '%') {
        const hexChars = this.input.substr(this.pos, 2);
        this.pos += 2;
        if (/^[0-9a-f]{2}$/.test(hexChars)) {
          result.push(parseInt(hexChars, 16));
        } else {
          throw new ParseError(
            this.pos,
            `Unexpected sequence after % in DispalyString: "${hexChars}". Note that hexidecimals must be lowercase`,
          );
        }
        continue;
      }
      if (char === '"') {
        const textDecoder = new TextDecoder('utf-8', { fatal: true });
        try {
          return new DisplayString(textDecoder.decode(new Uint8Array(result)));
        } catch {
          throw new ParseError(this.pos, 'Fatal error decoding UTF-8 sequence in Display String');
        }
      }
      result.push(code);
    }
    throw new ParseError(this.pos, 'Unexpected end of input');
  }

  private parseToken(): Token {
    const s = this.input;
    const start = this.pos;
    let end = start;
    for (let code = s.charCodeAt(end); code < 128 && TOKEN_CHAR[code] === 1; code = s.charCodeAt(++end));
    this.pos = end;
    return new Token(s.slice(start, end));
  }

  private parseByteSequence(): ArrayBuffer {
    this.expectChar(':');
    this.pos++;
    const endPos = this.input.indexOf(':', this.pos);
    if (endPos === -1) throw new ParseError(this.pos, 'Could not find a closing ":" character to mark end of Byte Sequence');
    const b64Content = this.input.substring(this.pos, endPos);
    this.pos += b64Content.length + 1;
    if (!/^[A-Za-z0-9+/=]*$/.test(b64Content)) throw new ParseError(this.pos, 'ByteSequence does not contain a valid base64 string');
    try {
      return base64ToArrayBuffer(b64Content);
    } catch {
      throw new ParseError(this.pos, 'ByteSequence does not contain a valid base64 string');
    }
  }

  private parseBoolean(): boolean {
    this.expectChar('?');
    this.pos++;
    const char = this.input[this.pos++];
    if (char === '1') return true;
    if (char === '0') return false;
    throw new ParseError(this.pos, 'Unexpected character. Expected a "1" or a "0"');
  }

  private parseDate(): Date {
    this.expectChar('@');
    this.pos++;
    let sign = 1;
    let inputNumber = '';
    if (this.code() === 0x2d) {
      sign = -1;
      this.pos++;
    }
    if (!isDigitCode(this.code())) throw new ParseError(this.pos, 'Expected a digit (0-9)');
    while (!this.eof()) {
      const char = this.input[this.pos++]!;
      if (isDigitCode(char.charCodeAt(0))) inputNumber += char;
      else throw new ParseError(this.pos, 'Expected a digit (0-9), whitespace or EOL');
    }
    if (inputNumber.length > 15) throw new ParseError(this.pos, 'Exceeded max length for a date value');
    return new Date(parseInt(inputNumber, 10) * sign * 1000);
  }

  private parseKey(): string {
    const s = this.input;
    const first = s.charCodeAt(this.pos);
    if (!(isLcAlphaCode(first) || first === 0x2a /* * */)) throw new ParseError(this.pos, 'A key must begin with an asterisk or letter (a-z)');
    const start = this.pos;
    let end = start;
    for (let code = first; code < 128 && KEY_CHAR[code] === 1; code = s.charCodeAt(++end));
    this.pos = end;
    return s.slice(start, end);
  }

  /** The code unit at the cursor; NaN at the end, which equals nothing. */
  private code(): number {
    return this.input.charCodeAt(this.pos);
  }

  private expectChar(char: string): void {
    if (this.input[this.pos] !== char) throw new ParseError(this.pos, `Expected ${char}`);
  }

  private eof(): boolean {
    return this.pos >= this.input.length;
  }

  private skipOWS(): void {
    for (let code = this.code(); code === SP || code === HTAB; code = this.code()) this.pos++;
  }

  private skipWS(): void {
    while (this.code() === SP) this.pos++;
  }
}

/** Parses an RFC 8941 dictionary exactly as structured-headers' parseDictionary does; throws its ParseError. */
export function parseDictionary(input: string): Dictionary {
  return new Parser(input).parseDictionary();
}

/**
 * parseDictionary, and in the same pass each member as received (filled into `received`, keyed as the
 * dictionary is: a repeated key keeps its first position and its last text). For any input the parser
 * accepts, this is what sf-text.ts's lexDictionaryMembers reads off the text, with each RawParam's text
 * turned into its kind by bareItemKind.
 */
export function parseDictionaryWithText(input: string, received: Map<string, ReceivedMember>): Dictionary {
  return new Parser(input, received).parseDictionary();
}
