import { ParseError, parseDictionary as parseLibraryDictionary, type Dictionary } from 'structured-headers';
import { lexDictionaryMembers, paramKindsOf, type BareItemKind } from './sf-text.js';

/**
 * Structured Fields dictionaries for the verifier: parsed by structured-headers (never by hand), plus what
 * RFC 9421 needs that the library does not keep: each member's received text and its parameters' kinds.
 */

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
/** The shared empty map, for any read-only map that would be empty (parameters, their kinds). */
export const EMPTY_MAP: ReadonlyMap<never, never> = new EmptyMap();
const NO_KINDS: ReadonlyMap<string, BareItemKind> = EMPTY_MAP;

/** Parses an RFC 8941 dictionary with structured-headers; throws its ParseError. */
export function parseDictionary(input: string): Dictionary {
  return parseLibraryDictionary(input);
}

/**
 * parseDictionary, and each member as received (filled into `received`, keyed as the dictionary is): its
 * text after `key=` and the kind of each parameter, read off the text by sf-text.ts's lexer once
 * structured-headers accepted it. Throws the library's ParseError for what it does not accept.
 */
export function parseDictionaryWithText(input: string, received: Map<string, ReceivedMember>): Dictionary {
  const dictionary = parseLibraryDictionary(input);
  const lexed = lexDictionaryMembers(input, dictionary);
  if (lexed === null) throw new ParseError(0, 'the dictionary members could not be read off the received text');
  for (const [key, member] of lexed) {
    received.set(key, {
      text: member.text,
      itemParamKinds: member.items === null ? null : member.items.map((item) => (item.params.length ? paramKindsOf(item.params) : NO_KINDS)),
      paramKinds: member.params.length ? paramKindsOf(member.params) : NO_KINDS,
    });
  }
  return dictionary;
}
