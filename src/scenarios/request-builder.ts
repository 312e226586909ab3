import { serializeDictionary, Token } from 'structured-headers';
import { contentDigestHeader, ed25519Sign, parseSignatureInput, signatureBase } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { deployedHeader, type ServiceNaming } from '../spec/naming.js';
import type { DigestAlgorithm } from '../spec/wire.js';
import { COMPONENTS, ED25519_ALG, SIGNATURE_AGENT_TYPES, WEB_BOT_AUTH_TAG } from '../spec/wire.js';
import type { CaseRequest } from '../cases/types.js';
import type { KeyPair } from './identities.js';

/** One Signature-Input member to emit: any covered list and parameter text, signed exactly as written. */
export interface LabelSpec {
  readonly label: string;
  readonly key: KeyPair;
  /** Serialized component identifiers; default: the profile's list for this label. */
  readonly covered?: readonly string[];
  /** Serialized parameters in order; default: created expires keyid alg nonce tag. */
  readonly params?: ReadonlyArray<readonly [string, string]>;
  /** Changes the signature bytes after signing (for size or validity faults). */
  readonly tamper?: (signature: Uint8Array) => Uint8Array;
}

export interface RequestSpec {
  readonly method: string;
  readonly url: string;
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body?: Uint8Array;
  readonly labels: readonly LabelSpec[];
  /** The raw Signature-Agent header; default: one typed member per label naming `keySetUrl`. */
  readonly signatureAgent?: string | null;
  readonly keySetUrl: string;
  readonly digest?: DigestAlgorithm | null;
  readonly created: number;
  readonly expires: number;
  readonly nonce: (label: string) => string;
  /** A large body written as a fill (case format extension `body_fill`, docs/contracts.md) so vectors stay small. */
  readonly bodyFill?: { readonly length: number; readonly byte: number };
  /** Marks the request as one whose body a platform route already read (`body_consumed`). */
  readonly bodyConsumed?: boolean;
  /** Applied to the finished request (after signing), for faults introduced in transit. */
  readonly after?: (request: MutableRequest) => void;
  /**
   * The deployment's names for Service (src/spec/naming.ts): header fields and covered components given with the
   * catalogue's names are sent, and signed, under the deployment's. Absent: as given.
   */
  readonly naming?: ServiceNaming;
}

export interface MutableRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export function defaultCovered(label: string, hasBody: boolean): string[] {
  return [
    `"${COMPONENTS.method}"`,
    `"${COMPONENTS.authority}"`,
    `"${COMPONENTS.path}"`,
    `"${COMPONENTS.query}"`,
    ...(hasBody ? [`"${HEADERS.contentDigest}"`] : []),
    `"${HEADERS.signatureAgent}";key="${label}"`,
  ];
}

export function defaultParams(spec: Pick<RequestSpec, 'created' | 'expires' | 'nonce'>, label: LabelSpec): Array<[string, string]> {
  return [
    ['created', String(spec.created)],
    ['expires', String(spec.expires)],
    ['keyid', `"${label.key.thumbprint}"`],
    ['alg', `"${ED25519_ALG}"`],
    ['nonce', `"${spec.nonce(label.label)}"`],
    ['tag', `"${WEB_BOT_AUTH_TAG}"`],
  ];
}

export function signatureAgentHeader(labels: readonly string[], url: string, type: string | null = SIGNATURE_AGENT_TYPES.jwksUri): string {
  const params = type === null ? new Map() : new Map([['type', new Token(type)]]);
  return serializeDictionary(new Map(labels.map((l) => [l, [url, params]])));
}

const bytesToBase64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** Builds and signs a request; every byte of the Signature-Input text is the spec's, so faults are exact. */
export function buildSignedRequest(spec: RequestSpec): CaseRequest {
  const body = spec.bodyFill ? new Uint8Array(spec.bodyFill.length).fill(spec.bodyFill.byte) : (spec.body ?? new Uint8Array(0));
  const hasBody = body.length > 0;
  const naming = spec.naming;
  const headers: Array<[string, string]> = [...(spec.headers ?? []).map(([n, v]) => [naming ? deployedHeader(n, naming) : n, v] as [string, string])];
  const digest = spec.digest === undefined ? 'sha-256' : spec.digest;
  if (hasBody && digest) headers.push([HEADERS.contentDigest, contentDigestHeader(body, [digest])]);
  const agentHeader =
    spec.signatureAgent === undefined
      ? signatureAgentHeader(
          spec.labels.map((l) => l.label),
          spec.keySetUrl,
        )
      : spec.signatureAgent;
  if (agentHeader !== null) headers.push([HEADERS.signatureAgent, agentHeader]);

  const inputs: string[] = [];
  const signatures: string[] = [];
  for (const label of spec.labels) {
    const given = label.covered ?? defaultCovered(label.label, hasBody);
    // A covered field's name is the name it is sent under: the signature base names it (RFC 9421 2.1).
    const covered = naming ? given.map((c) => c.replace(/^"([^"]*)"/, (_, name: string) => `"${deployedHeader(name, naming)}"`)) : given;
    const params = label.params ?? defaultParams(spec, label);
    const memberText = `(${covered.join(' ')})${params.map(([k, v]) => `;${k}=${v}`).join('')}`;
    inputs.push(`${label.label}=${memberText}`);
    const parsed = parseSignatureInput(`${label.label}=${memberText}`)?.get(label.label);
    let signature: Uint8Array;
    try {
      const base = signatureBase({ method: spec.method, url: spec.url, headers, body }, parsed?.covered ?? [], memberText);
      signature = ed25519Sign(label.key.privateJwk, new TextEncoder().encode(base));
    } catch {
      // A base that cannot be built (the fault under test) still needs some signature bytes.
      signature = ed25519Sign(label.key.privateJwk, new TextEncoder().encode(memberText));
    }
    if (label.tamper) signature = label.tamper(signature);
    signatures.push(`${label.label}=:${bytesToBase64(signature)}:`);
  }
  headers.push([HEADERS.signatureInput, inputs.join(', ')]);
  headers.push([HEADERS.signature, signatures.join(', ')]);

  const request: MutableRequest = { method: spec.method, url: spec.url, headers, body };
  spec.after?.(request);
  const bodyMember =
    spec.bodyFill && request.body === body
      ? { body_fill: { length: spec.bodyFill.length, byte: spec.bodyFill.byte } }
      : request.body.length
        ? { body_base64: bytesToBase64(request.body) }
        : {};
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    ...bodyMember,
    ...(spec.bodyConsumed ? { body_consumed: true } : {}),
  } as CaseRequest;
}
