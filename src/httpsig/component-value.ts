import { isInnerList, serializeInnerList, serializeItem, type Dictionary } from 'structured-headers';
import { ALLOWED_DERIVED_COMPONENTS, COMPONENTS } from '../spec/index.js';
import { ComponentError } from './component-error.js';
import type { CoveredComponent } from './covered-component.js';
import { deriveAuthority, derivePath, deriveQuery } from './derived-components.js';
import { fieldValue, type HttpMessage } from './message.js';
import { parseDictionary } from './sf-parse.js';
import { plainItem } from './sf-plain.js';
import { KEY_PARAM } from './signature-params.js';

const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** Printable ASCII and HTAB: anything else (CR and LF above all) could forge lines of the base. */
const BASE_SAFE = /^[\t\x20-\x7e]*$/;

/** The target URI, parsed at most once per signature base (WHATWG parsing is a pure function of the text). */
export type TargetUrl = () => URL;

function derivedValue(msg: HttpMessage, name: string, target: TargetUrl): string {
  switch (name) {
    case COMPONENTS.method:
      return msg.method;
    case COMPONENTS.authority:
      return deriveAuthority(target());
    case COMPONENTS.path:
      return derivePath(target());
    case COMPONENTS.query:
      return deriveQuery(target());
    default:
      throw new ComponentError('unsupported-component', `derived component ${name} is not supported`);
  }
}

/**
 * Dictionary fields the caller has already parsed, by lower-case field name: each must be exactly
 * `parseDictionary(fieldValue(msg.headers, name))` for the message at hand, so that using it is the same as
 * parsing again (the verifier parses Signature-Agent before building bases).
 */
export type ParsedDictionaries = ReadonlyMap<string, Dictionary>;

/** What a caller already parsed from the message, so that building a base does not parse it again. */
export interface PreparedMessage {
  /** Exactly `new URL(msg.url)`, not to be modified. */
  readonly targetUrl?: URL | undefined;
  readonly dictionaries?: ParsedDictionaries | undefined;
}

function dictionaryMemberValue(msg: HttpMessage, c: CoveredComponent, key: string, parsed: ParsedDictionaries | undefined): string {
  let dictionary = parsed?.get(c.name);
  if (dictionary === undefined) {
    const raw = fieldValue(msg.headers, c.name);
    if (raw === undefined) throw new ComponentError('missing-field', `field ${c.name} is absent`);
    try {
      dictionary = parseDictionary(raw);
    } catch {
      throw new ComponentError('not-a-dictionary', `field ${c.name} is not a structured-field dictionary`);
    }
  }
  const member = dictionary.get(key);
  if (member === undefined) throw new ComponentError('missing-member', `field ${c.name} has no member ${key}`);
  try {
    if (isInnerList(member)) return serializeInnerList(member);
    return plainItem(member[0], member[1]) ?? serializeItem(member);
  } catch {
    throw new ComponentError('not-a-dictionary', `member ${key} of field ${c.name} cannot be re-serialised`);
  }
}

function fieldComponentValue(msg: HttpMessage, c: CoveredComponent, parsed: ParsedDictionaries | undefined): string {
  if (!FIELD_NAME.test(c.name)) {
    throw new ComponentError('unsupported-component', `${JSON.stringify(c.name)} is not a lower-case field name`);
  }
  if (c.params.size === 0) {
    const value = fieldValue(msg.headers, c.name);
    if (value === undefined) throw new ComponentError('missing-field', `field ${c.name} is absent`);
    return value;
  }
  // The only parameter admitted is key, so from here on the component names a dictionary member.
  for (const p of c.params.keys()) {
    if (p !== KEY_PARAM) throw new ComponentError('unsupported-component', `parameter ${p} on ${c.name} is not supported`);
  }
  const key = c.params.get(KEY_PARAM);
  const kind = c.paramKinds?.get(KEY_PARAM) ?? 'string';
  if (typeof key !== 'string' || kind !== 'string') {
    throw new ComponentError('bad-parameter', `the key parameter of ${c.name} must be a String`);
  }
  return dictionaryMemberValue(msg, c, key, parsed);
}

/** A TargetUrl handing back `parsed` (the caller's `new URL(msg.url)`), or parsing `msg.url` on first use and keeping it. */
export function targetUrlOf(msg: HttpMessage, parsed?: URL): TargetUrl {
  let url = parsed;
  return () => (url ??= new URL(msg.url));
}

/**
 * The value of one covered component (RFC 9421 §2.1, §2.2): the four derived components the profile
 * admits (5.2), a plain field, or one member of a dictionary field re-serialised with its parameters.
 * `target` lets the components of one base share one parse of the target URI, `parsed` the caller's parse
 * of a dictionary field.
 */
export function componentValue(msg: HttpMessage, c: CoveredComponent, target: TargetUrl = targetUrlOf(msg), parsed?: ParsedDictionaries): string {
  let value: string;
  if (c.name.startsWith('@')) {
    if (!ALLOWED_DERIVED_COMPONENTS.includes(c.name) || c.params.size > 0) {
      const params = c.params.size > 0 ? ` with parameters ${[...c.params.keys()].join(', ')}` : '';
      throw new ComponentError('unsupported-component', `derived component ${c.name}${params} is not supported`);
    }
    value = derivedValue(msg, c.name, target);
  } else {
    value = fieldComponentValue(msg, c, parsed);
  }
  if (!BASE_SAFE.test(value)) throw new ComponentError('non-ascii', `the value of ${c.name} is not printable ASCII`);
  return value;
}
