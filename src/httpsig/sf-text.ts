import { parseDictionary, type Dictionary } from 'structured-headers';

/**
 * The received text of a Structured Field dictionary, member by member. structured-headers gives the
 * values; this walk gives the exact characters they came from, which RFC 9421 needs twice:
 * `@signature-params` is the received member text (never re-serialised), and SF Integer and Decimal
 * parse to the same JS number, so only the text tells them apart.
 *
 * The walk runs only on input structured-headers has already accepted, so it is a lexer, not a parser.
 */

export type ParamKind = 'string' | 'token' | 'integer' | 'decimal' | 'boolean' | 'bytes';
/** A bare-item kind, including the two RFC 9651 additions that RFC 9421 (built on RFC 8941) does not know. */
export type BareItemKind = ParamKind | 'date' | 'display-string';

export interface RawParam {
  readonly key: string;
  /** The value text, or null for a bare key (Boolean true). */
  readonly valueText: string | null;
}

interface RawItem {
  readonly valueText: string;
  readonly params: readonly RawParam[];
}

export interface RawMember {
  /** Everything after `key=`, parameters included; `?1` plus the parameters for a bare key. */
  readonly text: string;
  /** The inner list's items, or null when the member is a single item. */
  readonly items: readonly RawItem[] | null;
  /** The member's own parameters (after the item, or after the closing parenthesis). */
  readonly params: readonly RawParam[];
}

/** Characters that end a bare item other than a String, Display String or Byte Sequence, by code unit. */
const BARE_ITEM_END = new Uint8Array(128);
for (const ch of ' \t;,()') BARE_ITEM_END[ch.charCodeAt(0)] = 1;
/** Characters of an SF key (lcalpha, DIGIT, `_ - . *`), by code unit. */
const KEY_CHAR = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyz0123456789_-.*') KEY_CHAR[ch.charCodeAt(0)] = 1;

interface Cursor {
  readonly s: string;
  i: number;
}

function skipSpaces(c: Cursor, tabs: boolean): void {
  while (c.s[c.i] === ' ' || (tabs && c.s[c.i] === '\t')) c.i++;
}

function readKey(c: Cursor): string {
  const start = c.i;
  while (c.i < c.s.length && KEY_CHAR[c.s.charCodeAt(c.i)] === 1) c.i++;
  return c.s.slice(start, c.i);
}

function readBareItem(c: Cursor): string {
  const { s } = c;
  const start = c.i;
  if (s[start] === '"') {
    let j = start + 1;
    while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    c.i = j + 1;
  } else if (s[start] === '%' && s[start + 1] === '"') {
    c.i = s.indexOf('"', start + 2) + 1;
  } else if (s[start] === ':') {
    c.i = s.indexOf(':', start + 1) + 1;
  } else {
    let j = start;
    while (j < s.length && BARE_ITEM_END[s.charCodeAt(j)] !== 1) j++;
    c.i = j;
  }
  if (c.i <= start) throw new Error('lexer did not advance');
  return s.slice(start, c.i);
}

function readParams(c: Cursor): RawParam[] {
  const params: RawParam[] = [];
  while (c.s[c.i] === ';') {
    c.i++;
    skipSpaces(c, false);
    const key = readKey(c);
    let valueText: string | null = null;
    if (c.s[c.i] === '=') {
      c.i++;
      valueText = readBareItem(c);
    }
    params.push({ key, valueText });
  }
  return params;
}

function readItem(c: Cursor): RawItem {
  const valueText = readBareItem(c);
  return { valueText, params: readParams(c) };
}

function readMemberValue(c: Cursor): Omit<RawMember, 'text'> {
  if (c.s[c.i] !== '(') {
    const item = readItem(c);
    return { items: null, params: item.params };
  }
  c.i++;
  const items: RawItem[] = [];
  for (;;) {
    skipSpaces(c, false);
    if (c.s[c.i] === ')') break;
    if (c.i >= c.s.length) throw new Error('unterminated inner list');
    items.push(readItem(c));
  }
  c.i++;
  return { items, params: readParams(c) };
}

function lexDictionary(s: string): Map<string, RawMember> {
  const c: Cursor = { s, i: 0 };
  const members = new Map<string, RawMember>();
  skipSpaces(c, false);
  while (c.i < s.length) {
    const key = readKey(c);
    if (key === '') throw new Error('empty key');
    if (s[c.i] === '=') {
      c.i++;
      const start = c.i;
      const value = readMemberValue(c);
      members.set(key, { text: s.slice(start, c.i), ...value });
    } else {
      const start = c.i;
      const params = readParams(c);
      members.set(key, { text: `?1${s.slice(start, c.i)}`, items: null, params });
    }
    skipSpaces(c, true);
    if (c.i >= s.length) break;
    if (s[c.i] !== ',') throw new Error('expected a comma');
    c.i++;
    skipSpaces(c, true);
  }
  return members;
}

/**
 * Each member of a dictionary with its received text; null when structured-headers does not accept the
 * input as a dictionary (pass `parsed` when the caller already parsed `raw`). Repeated keys keep the first position and the last value, as RFC 8941 parsing does.
 */
export function lexDictionaryMembers(raw: string, parsed?: Dictionary): Map<string, RawMember> | null {
  let parsedKeys: string[];
  try {
    parsedKeys = [...(parsed ?? parseDictionary(raw)).keys()];
  } catch {
    return null;
  }
  try {
    const members = lexDictionary(raw);
    const lexedKeys = [...members.keys()];
    if (lexedKeys.length !== parsedKeys.length || lexedKeys.some((k, n) => k !== parsedKeys[n])) return null;
    return members;
  } catch {
    return null;
  }
}

/** The received text of each member value (the text after `label=`). */
export function splitDictionaryMembers(raw: string): Map<string, string> | null {
  const members = lexDictionaryMembers(raw);
  if (members === null) return null;
  return new Map([...members].map(([key, member]) => [key, member.text]));
}

/** Parameter kinds by key; a repeated key keeps the last kind, as its value does. */
export function paramKindsOf(params: readonly RawParam[]): Map<string, BareItemKind> {
  return new Map(params.map((p) => [p.key, bareItemKind(p.valueText)]));
}

/** The kind of a bare item from its text (null text = a bare parameter key, i.e. Boolean true). */
function bareItemKind(valueText: string | null): BareItemKind {
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
