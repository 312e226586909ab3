import { DisplayString, Token, isInnerList, type BareItem, type Dictionary, type Parameters } from 'structured-headers';
import type { CoveredComponent } from './covered-component.js';
import { EMPTY_MAP, parseDictionaryWithText, type ReceivedMember } from './sf-parse.js';
import type { BareItemKind, ParamKind } from './sf-text.js';

export interface ParsedSignatureInputMember {
  /** The String items of the inner list, in order (items of other types are left out; see coveredAreStrings). */
  readonly covered: readonly CoveredComponent[];
  /** Tokens keep their token text as a string; tell them from Strings with paramKinds. */
  readonly params: ReadonlyMap<string, string | number | boolean | Uint8Array>;
  readonly paramKinds: ReadonlyMap<string, ParamKind>;
  /** False if any inner-list item is not an SF String. */
  readonly coveredAreStrings: boolean;
  /** The member value exactly as received: the text `@signature-params` must carry. */
  readonly text: string;
}

class NotRfc8941 extends Error {}

function plainValue(item: BareItem): string | number | boolean | Uint8Array {
  if (item instanceof Token) return item.toString();
  if (item instanceof ArrayBuffer) return new Uint8Array(item);
  if (item instanceof Date || item instanceof DisplayString || typeof item === 'object') throw new NotRfc8941();
  return item;
}

/** RFC 9421 builds on RFC 8941, which has no Dates or Display Strings. */
function rfc8941Kinds(kinds: ReadonlyMap<string, BareItemKind>, shareEmpty: boolean): ReadonlyMap<string, ParamKind> {
  // The parser shares one read-only empty map between items without parameters; callers get their own
  // unless they asked to share it.
  if (kinds.size === 0) return shareEmpty ? EMPTY_MAP : new Map();
  for (const kind of kinds.values()) if (kind === 'date' || kind === 'display-string') throw new NotRfc8941();
  return kinds as ReadonlyMap<string, Exclude<BareItemKind, 'date' | 'display-string'>>;
}

function componentParams(params: Parameters, shareEmpty: boolean): ReadonlyMap<string, string | number | boolean> {
  if (params.size === 0) return shareEmpty ? EMPTY_MAP : new Map();
  const out = new Map<string, string | number | boolean>();
  for (const [key, value] of params) {
    const plain = plainValue(value);
    out.set(key, plain instanceof Uint8Array ? Buffer.from(plain).toString('base64') : plain);
  }
  return out;
}

const isPlain = (value: BareItem): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The member's parameters as plain values. The parser's map is this parse's own: when every value is
 * already plain (Strings, numbers, booleans: the usual case) it is handed over as is instead of copied.
 */
function memberParams(parsed: Parameters, shareEmpty: boolean): ReadonlyMap<string, string | number | boolean | Uint8Array> {
  if (parsed.size === 0) return shareEmpty ? EMPTY_MAP : new Map();
  let plain = true;
  for (const value of parsed.values()) if (!isPlain(value)) plain = false;
  if (plain) return parsed as ReadonlyMap<string, string | number | boolean>;
  const params = new Map<string, string | number | boolean | Uint8Array>();
  for (const [key, value] of parsed) params.set(key, plainValue(value));
  return params;
}

/**
 * Signature-Input (RFC 9421 §4.1): one inner list of component identifiers per label. Null when the field
 * is not an RFC 8941 dictionary or a member is not an inner list.
 */
export function parseSignatureInput(raw: string): Map<string, ParsedSignatureInputMember> | null {
  return readSignatureInput(raw, false);
}

/**
 * parseSignatureInput for the verifier's hot path: the same members, except that every empty `params` and
 * `paramKinds` map is one shared read-only map (its `set` throws) instead of a new one per component.
 */
export function parseSignatureInputSharingEmptyMaps(raw: string): Map<string, ParsedSignatureInputMember> | null {
  return readSignatureInput(raw, true);
}

function readSignatureInput(raw: string, shareEmpty: boolean): Map<string, ParsedSignatureInputMember> | null {
  // One pass gives the values and each member as received (its text, its parameters' kinds): the same as
  // parseDictionary followed by sf-text.ts's lexDictionaryMembers.
  const received = new Map<string, ReceivedMember>();
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionaryWithText(raw, received);
  } catch {
    return null;
  }
  const out = new Map<string, ParsedSignatureInputMember>();
  try {
    for (const [label, member] of dictionary) {
      const text = received.get(label);
      if (!isInnerList(member) || text?.itemParamKinds == null) return null;
      const itemParamKinds = text.itemParamKinds;
      const covered: CoveredComponent[] = [];
      let coveredAreStrings = true;
      const items = member[0];
      for (let n = 0; n < items.length; n++) {
        const [value, params] = items[n]!;
        const kinds = rfc8941Kinds(itemParamKinds[n] ?? EMPTY_MAP, shareEmpty);
        const paramValues = componentParams(params, shareEmpty);
        if (typeof value === 'string') covered.push({ name: value, params: paramValues, paramKinds: kinds });
        else coveredAreStrings = false;
      }
      const params = memberParams(member[1], shareEmpty);
      out.set(label, { covered, params, paramKinds: rfc8941Kinds(text.paramKinds, shareEmpty), coveredAreStrings, text: text.text });
    }
  } catch (e) {
    if (e instanceof NotRfc8941) return null;
    throw e;
  }
  return out;
}
