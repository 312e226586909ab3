import { Token, serializeDictionary, serializeInnerList, type InnerList, type Item, type Parameters } from 'structured-headers';
import { COMPONENTS, ED25519_ALG, HEADERS, SIGNATURE_AGENT_TYPES, SIGNATURE_LABELS, WEB_BOT_AUTH_TAG, type DigestAlgorithm } from '../spec/index.js';
import { contentDigestHeader } from './content-digest.js';
import { coveredComponent, type CoveredComponent } from './covered-component.js';
import { ed25519Sign } from './ed25519.js';
import { jwkThumbprint } from './jwk-thumbprint.js';
import type { HttpMessage } from './message.js';
import { signatureBase } from './signature-base.js';
import { KEY_PARAM, SIGNATURE_AGENT_TYPE_PARAM, SIGNATURE_PARAMS } from './signature-params.js';

export type SignatureAgentType = (typeof SIGNATURE_AGENT_TYPES)[keyof typeof SIGNATURE_AGENT_TYPES];

export interface SignerKey {
  readonly privateJwk: { readonly kty: 'OKP'; readonly crv: 'Ed25519'; readonly x: string; readonly d: string };
}

export interface SignRequestOptions {
  readonly method: string;
  readonly url: string;
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body?: Uint8Array | null;
  /** One or two keys: labels sig1 (and sig2). */
  readonly keys: readonly SignerKey[];
  /** The URL put in every member, e.g. the key set URL. */
  readonly signatureAgent: string;
  /** Default jwks_uri; null = untyped member. */
  readonly signatureAgentType?: SignatureAgentType | null;
  readonly created: number;
  readonly expires: number;
  /** One per label. */
  readonly nonces: readonly string[];
  /** Default true: alg="ed25519". */
  readonly alg?: boolean;
  /** Extra covered plain headers, lower-cased, after content-digest and before the signature-agent member. */
  readonly coveredHeaders?: readonly string[];
  /** Default sha-256. */
  readonly digestAlgorithm?: DigestAlgorithm;
}

export interface SignedHeaders {
  /** Lower-case names: signature-agent, signature-input, signature, and content-digest when the body is non-empty. */
  readonly headers: Readonly<Record<string, string>>;
  /** The signature base of each label, in label order. */
  readonly bases: readonly string[];
}

/** Headers signRequest writes; the caller's own copies of them are replaced, not signed. */
const WRITTEN = new Set<string>([HEADERS.contentDigest, HEADERS.signatureAgent, HEADERS.signatureInput, HEADERS.signature]);

function checkOptions(o: SignRequestOptions): void {
  if (o.keys.length < 1 || o.keys.length > SIGNATURE_LABELS.length) {
    throw new RangeError(`signRequest takes 1 to ${SIGNATURE_LABELS.length} keys, got ${o.keys.length}`);
  }
  if (o.nonces.length !== o.keys.length) throw new RangeError(`one nonce per key: ${o.keys.length} keys, ${o.nonces.length} nonces`);
  if (!Number.isSafeInteger(o.created) || !Number.isSafeInteger(o.expires)) throw new RangeError('created and expires are integer seconds');
}

function signatureAgentMember(o: SignRequestOptions): Item {
  const type = o.signatureAgentType === undefined ? SIGNATURE_AGENT_TYPES.jwksUri : o.signatureAgentType;
  const params: Parameters = new Map();
  if (type !== null) params.set(SIGNATURE_AGENT_TYPE_PARAM, new Token(type));
  return [o.signatureAgent, params];
}

function coveredFor(label: string, hasBody: boolean, coveredHeaders: readonly string[]): CoveredComponent[] {
  return [
    coveredComponent(COMPONENTS.method),
    coveredComponent(COMPONENTS.authority),
    coveredComponent(COMPONENTS.path),
    coveredComponent(COMPONENTS.query),
    ...(hasBody ? [coveredComponent(HEADERS.contentDigest)] : []),
    ...coveredHeaders.map((name) => coveredComponent(name)),
    coveredComponent(HEADERS.signatureAgent, [[KEY_PARAM, label]]),
  ];
}

function signatureInputMember(covered: readonly CoveredComponent[], params: Parameters): InnerList {
  return [covered.map((c): Item => [c.name, new Map(c.params)]), params];
}

/**
 * Signs a request the way the platform SDK does (5.2): Signature-Agent `sig1="<url>";type=jwks_uri`,
 * covered `("@method" "@authority" "@path" "@query" ["content-digest"] [extra headers] "signature-agent";key="<label>")`,
 * parameters created, expires, keyid, alg, nonce, tag. Window and nonce values are not policed here, so a
 * test can sign requests the platform must refuse.
 */
export function signRequest(o: SignRequestOptions): SignedHeaders {
  checkOptions(o);
  const body = o.body ?? new Uint8Array(0);
  const hasBody = body.length > 0;
  const labels = SIGNATURE_LABELS.slice(0, o.keys.length);
  const out: Record<string, string> = {};
  if (hasBody) out[HEADERS.contentDigest] = contentDigestHeader(body, [o.digestAlgorithm ?? 'sha-256']);
  out[HEADERS.signatureAgent] = serializeDictionary(new Map(labels.map((label) => [label, signatureAgentMember(o)])));

  const message: HttpMessage = {
    method: o.method,
    url: o.url,
    headers: [...(o.headers ?? []).filter(([name]) => !WRITTEN.has(name.toLowerCase())), ...Object.entries(out)],
    body,
  };
  const inputs = new Map<string, InnerList>();
  const signatures = new Map<string, Item>();
  const bases: string[] = [];
  labels.forEach((label, n) => {
    const key = (o.keys[n] as SignerKey).privateJwk;
    const params: Parameters = new Map<string, string | number>([
      [SIGNATURE_PARAMS.created, o.created],
      [SIGNATURE_PARAMS.expires, o.expires],
      [SIGNATURE_PARAMS.keyid, jwkThumbprint(key)],
    ]);
    if (o.alg ?? true) params.set(SIGNATURE_PARAMS.alg, ED25519_ALG);
    params.set(SIGNATURE_PARAMS.nonce, o.nonces[n] as string);
    params.set(SIGNATURE_PARAMS.tag, WEB_BOT_AUTH_TAG);
    const covered = coveredFor(label, hasBody, o.coveredHeaders ?? []);
    const member = signatureInputMember(covered, params);
    const base = signatureBase(message, covered, serializeInnerList(member));
    inputs.set(label, member);
    signatures.set(label, [ed25519Sign(key, Buffer.from(base, 'utf8')), new Map()]);
    bases.push(base);
  });
  out[HEADERS.signatureInput] = serializeDictionary(inputs);
  out[HEADERS.signature] = serializeDictionary(signatures);
  return { headers: out, bases };
}
