import { Token, serializeDictionary, serializeInnerList, type InnerList, type Item, type Parameters } from 'structured-headers';
import {
  contentDigestHeader,
  coveredComponent,
  ed25519Sign,
  jwkThumbprint,
  KEY_PARAM,
  SIGNATURE_AGENT_TYPE_PARAM,
  SIGNATURE_PARAMS,
  signatureBase,
  type CoveredComponent,
  type Ed25519PrivateJwk,
  type HttpMessage,
} from '../../httpsig/index.js';
import { HEADERS } from '../../spec/headers.js';
import { COMPONENTS, ED25519_ALG, SIGNATURE_LABELS, WEB_BOT_AUTH_TAG, type DigestAlgorithm } from '../../spec/wire.js';

/** One label the client signs with: its key, what it covers and its parameters. */
export interface LabelPlan {
  readonly label: string;
  readonly key: Ed25519PrivateJwk;
  /** Component identifiers in order: `@method`, `content-digest`, `signature-agent;key=sig1`, ... */
  readonly covered: readonly string[];
  readonly created: number;
  readonly expires: number;
  readonly keyid: string;
  /** null: no alg parameter (5.2: "ed25519 if sent"). */
  readonly alg: string | null;
  readonly nonce: string;
  readonly tag: string;
  /** How many bytes of the Ed25519 signature are written; all 64 by default (a fault's field). */
  readonly signatureBytes?: number;
}

/** Everything a signed request will be: a fault of the client changes one part of it before it is signed. */
export interface SignPlan {
  readonly method: string;
  /** The URL the request is sent to and signed for. */
  readonly url: string;
  /** Header fields sent beside the signature headers (Content-Type, the purchase headers, a credential). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
  /** The Content-Digest algorithm, or null for none (a request with a body owes one). */
  readonly digest: DigestAlgorithm | null;
  /** The bytes the digest is computed over: the body by default (a fault may hash others). */
  readonly digestOver?: Uint8Array;
  /** The URL each Signature-Agent member names, and its type (null: no type parameter). */
  readonly signatureAgent: { readonly url: string; readonly type: string | null };
  readonly labels: readonly LabelPlan[];
}

/** What the client sends: the plan's request with its signature headers. */
export interface OutgoingRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
}

export interface PlanInput {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
  readonly keys: readonly Ed25519PrivateJwk[];
  readonly signatureAgent: { readonly url: string; readonly type: string | null };
  readonly nowS: number;
  readonly windowS: number;
  readonly nonce: () => string;
  readonly digest: DigestAlgorithm;
  readonly alg: boolean;
  /** Header fields (lower case) to cover besides the profile's own; the purchase headers are covered whenever sent. */
  readonly coverHeaders: readonly string[];
}

/** The header fields 7.4 says a signed request covers when it sends them. */
const COVERED_WHEN_SENT: readonly string[] = [HEADERS.termsAccepted, HEADERS.paymentMethods, HEADERS.purchase];

/**
 * The plan the reference client signs by (5.2): every label covers @method @authority @path @query, content-digest
 * when there is a body, the purchase headers it sends and any asked for, and its own Signature-Agent member once;
 * parameters created, expires (created + the window), keyid, alg, nonce, tag.
 */
export function planSignature(input: PlanInput): SignPlan {
  const hasBody = input.body.length > 0;
  const sent = new Set(input.headers.map(([n]) => n.toLowerCase()));
  const extra = [...new Set([...input.coverHeaders, ...COVERED_WHEN_SENT])].filter((n) => sent.has(n));
  const labels = input.keys.map((key, n): LabelPlan => {
    const label = SIGNATURE_LABELS[n]!;
    return {
      label,
      key,
      covered: [
        COMPONENTS.method,
        COMPONENTS.authority,
        COMPONENTS.path,
        COMPONENTS.query,
        ...(hasBody ? [HEADERS.contentDigest] : []),
        ...extra,
        `${HEADERS.signatureAgent};${KEY_PARAM}=${label}`,
      ],
      created: input.nowS,
      expires: input.nowS + input.windowS,
      keyid: jwkThumbprint(key),
      alg: input.alg ? ED25519_ALG : null,
      nonce: input.nonce(),
      tag: WEB_BOT_AUTH_TAG,
    };
  });
  return {
    method: input.method,
    url: input.url,
    headers: input.headers,
    body: input.body,
    digest: hasBody ? input.digest : null,
    signatureAgent: input.signatureAgent,
    labels,
  };
}

/** `name` or `name;param=value` as a covered component. */
function componentOf(id: string): CoveredComponent {
  const [name, ...params] = id.split(';');
  return coveredComponent(
    name!,
    params.map((p) => {
      const [k, v] = p.split('=');
      return [k!, v ?? true] as const;
    }),
  );
}

/** Signs the plan: Content-Digest, Signature-Agent (one member per label), Signature-Input and Signature. */
export function signPlan(plan: SignPlan): OutgoingRequest {
  const written: Array<[string, string]> = [];
  if (plan.digest !== null) written.push([HEADERS.contentDigest, contentDigestHeader(plan.digestOver ?? plan.body, [plan.digest])]);
  const member: Item = [
    plan.signatureAgent.url,
    new Map(plan.signatureAgent.type === null ? [] : [[SIGNATURE_AGENT_TYPE_PARAM, new Token(plan.signatureAgent.type)]]),
  ];
  written.push([HEADERS.signatureAgent, serializeDictionary(new Map(plan.labels.map((l) => [l.label, member])))]);
  const message: HttpMessage = { method: plan.method, url: plan.url, headers: [...plan.headers, ...written], body: plan.body };
  const inputs = new Map<string, InnerList>();
  const signatures = new Map<string, Item>();
  for (const l of plan.labels) {
    const params: Parameters = new Map<string, string | number | Token>([
      [SIGNATURE_PARAMS.created, l.created],
      [SIGNATURE_PARAMS.expires, l.expires],
      [SIGNATURE_PARAMS.keyid, l.keyid],
    ]);
    if (l.alg !== null) params.set(SIGNATURE_PARAMS.alg, l.alg);
    params.set(SIGNATURE_PARAMS.nonce, l.nonce);
    params.set(SIGNATURE_PARAMS.tag, l.tag);
    const covered = l.covered.map(componentOf);
    const inner: InnerList = [covered.map((c): Item => [c.name, new Map(c.params)]), params];
    const base = signatureBase(message, covered, serializeInnerList(inner));
    inputs.set(l.label, inner);
    const signature = ed25519Sign(l.key, Buffer.from(base, 'utf8'));
    signatures.set(l.label, [l.signatureBytes === undefined ? signature : signature.subarray(0, l.signatureBytes), new Map()]);
  }
  return {
    method: plan.method,
    url: plan.url,
    headers: [...plan.headers, ...written, [HEADERS.signatureInput, serializeDictionary(inputs)], [HEADERS.signature, serializeDictionary(signatures)]],
    body: plan.body,
  };
}
