import { Token, serializeItem, type BareItem, type Parameters } from 'structured-headers';
import { ALLOWED_DERIVED_COMPONENTS, HEADERS } from '../spec/index.js';
import { PLAIN_STRING, SF_KEY } from './sf-plain.js';
import type { ParamKind } from './sf-text.js';

/** A covered component identifier as parsed from Signature-Input: name plus its parameters. */
export interface CoveredComponent {
  readonly name: string;
  readonly params: ReadonlyMap<string, string | number | boolean>;
  /**
   * How each parameter was written, when the component came off the wire (a Token and a String both
   * arrive as JS strings; a Byte Sequence arrives as its base64 text). Absent: strings are Strings.
   */
  readonly paramKinds?: ReadonlyMap<string, ParamKind>;
}

export const coveredComponent = (name: string, params: ReadonlyArray<readonly [string, string | number | boolean]> = []): CoveredComponent => ({
  name,
  params: new Map(params),
});

const TOKEN = /^[A-Za-z*][:/!#$%&'*+\-.^_`|~A-Za-z0-9]*$/;

function bareItemFor(value: string | number | boolean, kind: ParamKind | undefined): BareItem {
  if (typeof value !== 'string') return value;
  if (kind === 'token' && TOKEN.test(value)) return new Token(value);
  if (kind === 'bytes') return Buffer.from(value, 'base64');
  return value;
}

/** The identifiers of the components every signed request covers, written once (see plainComponentId). */
const KNOWN_IDS: ReadonlyMap<string, string> = new Map(
  [...ALLOWED_DERIVED_COMPONENTS, HEADERS.contentDigest, HEADERS.signatureAgent].map((name) => [name, `"${name}"`]),
);

/**
 * The identifier written directly when the name and every parameter are Strings needing no escapes (every
 * identifier the profile admits); undefined otherwise. The text is the one serializeItem writes for them.
 */
function plainComponentId(c: CoveredComponent): string | undefined {
  if (c.params.size === 0) {
    const known = KNOWN_IDS.get(c.name);
    if (known !== undefined) return known;
  }
  if (!PLAIN_STRING.test(c.name)) return undefined;
  let id = `"${c.name}"`;
  if (c.params.size === 0) return id;
  for (const [key, value] of c.params) {
    const kind = c.paramKinds?.get(key);
    if (typeof value !== 'string' || (kind !== undefined && kind !== 'string') || !SF_KEY.test(key) || !PLAIN_STRING.test(value)) return undefined;
    id += `;${key}="${value}"`;
  }
  return id;
}

/** The identifier as RFC 9421 §2.5 writes it at the head of a base line, e.g. `"signature-agent";key="sig1"`. */
export function serializeComponentId(c: CoveredComponent): string {
  const plain = plainComponentId(c);
  if (plain !== undefined) return plain;
  const params: Parameters = new Map();
  for (const [key, value] of c.params) params.set(key, bareItemFor(value, c.paramKinds?.get(key)));
  return serializeItem(c.name, params);
}

/** The first identifier covered twice (RFC 9421 §2.5 forbids it), or undefined. */
export function duplicateComponentId(covered: readonly CoveredComponent[]): string | undefined {
  const seen = new Set<string>();
  for (const c of covered) {
    const id = serializeComponentId(c);
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
