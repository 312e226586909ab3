import type { CaseDocuments } from '../cases/types.js';
import { generateEd25519Jwk, jwkThumbprint } from '../httpsig/index.js';
import { decodeBase64urlJson } from '../purchase/wire/base64url-json.js';
import { expiresAtSeconds } from '../purchase/wire/challenge.js';
import { parseCredential } from '../purchase/wire/credential.js';
import { isJsonObject } from '../purchase/wire/json.js';
import { tempoQuoteOf } from '../purchase/machine/tempo/quote.js';
import { quotedTransfer, signTransfer } from '../reference/client/transfer.js';
import { CASE_WALLET_KEY } from '../scenarios/clients/cases.js';
import { serializeCredential } from '../purchase/buyer/credential-write.js';
import type { OutgoingRequest, SignPlan } from '../reference/client/sign.js';
import type { BuyerAnswer, ClientFault, NextStep } from '../reference/client/types.js';
import { CLIENT_REQUIREMENTS as C } from '../spec/client-requirements.js';
import { HEADERS } from '../spec/headers.js';
import { PURCHASE_ERRORS } from '../spec/purchase-errors.js';
import {
  COMPONENTS,
  ED25519_JWK,
  PAYMENT_METHODS,
  RFC9421_TEST_KEYS,
  STRIPE_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_TYPES,
  WELL_KNOWN,
} from '../spec/index.js';
import type { MutantDepth } from './types.js';

/**
 * A named fault of the reference client (client mode's self-test): one rule of the signer or the buyer broken. A
 * client case judging one of `requirements` must fail with it on. Deep faults break the rule where the client decides
 * it (the signer's plan, the buyer's next step, its payment, the documents it publishes); answer-depth faults only
 * rewrite the finished request. `fault` makes a fresh fault for one run (some keep a count).
 */
export interface ClientMutant {
  readonly id: string;
  readonly description: string;
  readonly requirements: readonly string[];
  readonly fault: () => ClientFault;
}

/** Deep unless the fault only rewrites the request already signed. */
export function clientMutantDepth(m: ClientMutant): MutantDepth {
  const { sent, ...deep } = m.fault();
  return Object.keys(deep).length || !sent ? 'deep' : 'answer';
}

/** Every label of the plan changed by `change`. */
const eachLabel = (change: (l: SignPlan['labels'][number]) => Partial<SignPlan['labels'][number]>) => (plan: SignPlan) => ({
  ...plan,
  labels: plan.labels.map((l) => ({ ...l, ...change(l) })),
});

/** The request's header fields with `name` (lower case) rewritten by `change` (undefined drops the field). */
function rewriteHeader(request: OutgoingRequest, name: string, change: (value: string) => string | undefined): OutgoingRequest {
  const headers: Array<readonly [string, string]> = [];
  for (const [n, v] of request.headers) {
    if (n.toLowerCase() !== name) headers.push([n, v]);
    else {
      const changed = change(v);
      if (changed !== undefined) headers.push([n, changed]);
    }
  }
  return { ...request, headers };
}

/** A second key, the same in every run: what a client rotating its key signs with. */
const ROTATED_KEY = generateEd25519Jwk(new Uint8Array(32).fill(7)).privateJwk;

const when = (code: keyof typeof PURCHASE_ERRORS, answer: BuyerAnswer) => answer.code === PURCHASE_ERRORS[code].code;

/** The credential of `value` with another card token: a fresh credential for the same challenge. */
function freshCredential(value: string, token: string): string {
  const parsed = parseCredential(value);
  if (!parsed.ok) return value;
  return serializeCredential({ challenge: parsed.credential.challenge, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: `${token}_fresh` } });
}

/** The credential of `value` with a freshly signed transfer of the same quote: another transfer for the same challenge. */
async function anotherTransfer(value: string): Promise<string> {
  const parsed = parseCredential(value);
  if (!parsed.ok || parsed.credential.challenge.method !== PAYMENT_METHODS.tempo) return value;
  const request = decodeBase64urlJson(parsed.credential.challenge.request);
  const quote = request.ok && isJsonObject(request.value) ? tempoQuoteOf(request.value) : undefined;
  if (!quote?.ok) return value;
  const { serialized, source } = await signTransfer(
    CASE_WALLET_KEY,
    quotedTransfer(quote.quote, expiresAtSeconds({ expires: parsed.credential.challenge.expires ?? '' })),
  );
  return serializeCredential({
    challenge: parsed.credential.challenge,
    payload: { [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction, [TEMPO_PAYLOAD_MEMBERS.signature]: serialized },
    source,
  });
}

const sendAgain = (decided: NextStep, over: Partial<Extract<NextStep, { kind: 'send' }>>): NextStep =>
  decided.kind === 'send' ? { ...decided, ...over } : { kind: 'send', waitMs: 0, payment: null, signed: true, ...over };

export const CLIENT_MUTANTS: readonly ClientMutant[] = Object.freeze<ClientMutant[]>([
  {
    id: 'client-nonce-reused',
    description: 'the signer uses one fixed nonce for every signature',
    requirements: [C.nonceUnique.id],
    fault: () => ({ plan: eachLabel(() => ({ nonce: 'the-one-nonce-of-this-client' })) }),
  },
  {
    id: 'client-window-3601',
    description: 'the signer makes every signature valid for 3601 seconds',
    requirements: [C.window.id],
    fault: () => ({ plan: eachLabel((l) => ({ expires: l.created + 3601 })) }),
  },
  {
    id: 'client-expires-before-created',
    description: 'the signer writes expires one second before created',
    requirements: [C.times.id],
    fault: () => ({ plan: eachLabel((l) => ({ expires: l.created - 1 })) }),
  },
  {
    id: 'client-created-ahead',
    description: "the signer's clock runs two minutes ahead",
    requirements: [C.clock.id],
    fault: () => ({ plan: eachLabel((l) => ({ created: l.created + 120, expires: l.expires + 120 })) }),
  },
  {
    id: 'client-alg-other',
    description: 'the signer sends alg="rsa-pss-sha512" over an Ed25519 signature',
    requirements: [C.alg.id],
    fault: () => ({ plan: eachLabel(() => ({ alg: 'rsa-pss-sha512' })) }),
  },
  {
    id: 'client-keyid-other-key',
    description: 'the signer names the thumbprint of a key the key set does not hold',
    requirements: [C.keyid.id],
    fault: () => ({ plan: eachLabel(() => ({ keyid: jwkThumbprint(ROTATED_KEY) })) }),
  },
  {
    id: 'client-nonce-257',
    description: 'the signer sends nonces of 257 characters',
    requirements: [C.nonceLength.id],
    fault: () => ({ plan: eachLabel((l) => ({ nonce: l.nonce.padEnd(257, 'n').slice(0, 257) })) }),
  },
  {
    id: 'client-tag-other',
    description: 'the signer tags its signatures web-bot-auth-v2',
    requirements: [C.syntax.id],
    fault: () => ({ plan: eachLabel(() => ({ tag: 'web-bot-auth-v2' })) }),
  },
  {
    id: 'client-path-uncovered',
    description: 'the signer leaves @path out of the covered components',
    requirements: [C.coverage.id],
    fault: () => ({ plan: eachLabel((l) => ({ covered: l.covered.filter((c) => c !== COMPONENTS.path) })) }),
  },
  {
    id: 'client-covers-dictionary-member',
    description: 'the signer covers a member of another dictionary field (x-client-trace;key=a), which the profile does not allow',
    requirements: [C.components.id],
    fault: () => ({
      plan: (plan) => ({
        ...eachLabel((l) => ({ covered: [...l.covered.slice(0, -1), 'x-client-trace;key=a', ...l.covered.slice(-1)] }))(plan),
        headers: [...plan.headers, ['x-client-trace', 'a=1']],
      }),
    }),
  },
  {
    id: 'client-digest-other-bytes',
    description: 'the signer computes Content-Digest over the body without its last byte',
    requirements: [C.contentDigest.id],
    fault: () => ({ plan: (plan) => (plan.body.length ? { ...plan, digestOver: plan.body.subarray(0, -1) } : plan) }),
  },
  {
    id: 'client-content-digest-dropped',
    description: 'the covered Content-Digest is not sent',
    requirements: [C.contentDigest.id],
    fault: () => ({ sent: (request) => rewriteHeader(request, HEADERS.contentDigest, () => undefined) }),
  },
  {
    id: 'client-signed-for-alias',
    description: "the client signs for, and sends to, another name of the platform's host",
    requirements: [C.authority.id],
    fault: () => ({
      plan: (plan) => {
        const url = new URL(plan.url);
        url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : `alias.${url.hostname}`;
        return { ...plan, url: url.href };
      },
    }),
  },
  {
    id: 'client-agent-url-not-key-set',
    description: 'Signature-Agent names <agent>/keys.json with type=jwks_uri',
    requirements: [C.agent.id],
    fault: () => ({
      plan: (plan) => ({ ...plan, signatureAgent: { ...plan.signatureAgent, url: plan.signatureAgent.url.replace(WELL_KNOWN.jwks, '/keys.json') } }),
    }),
  },
  {
    id: 'client-signs-with-other-key',
    description: 'the signer names its published key but signs with another',
    requirements: [C.signatureValid.id],
    fault: () => ({ plan: eachLabel(() => ({ key: ROTATED_KEY })) }),
  },
  {
    id: 'client-query-changed-after-signing',
    description: 'the client adds a query parameter after signing',
    requirements: [C.signatureValid.id],
    fault: () => ({ sent: (request) => ({ ...request, url: `${request.url}${request.url.includes('?') ? '&' : '?'}late=1` }) }),
  },
  {
    id: 'client-signature-63-bytes',
    description: 'the client sends each signature cut to 63 bytes',
    requirements: [C.signatureSize.id],
    fault: () => ({
      sent: (request) =>
        rewriteHeader(request, HEADERS.signature, (v) =>
          v.replace(/:([A-Za-z0-9+/=]+):/g, (_, b64: string) => `:${Buffer.from(b64, 'base64').subarray(0, 63).toString('base64')}:`),
        ),
    }),
  },
  {
    id: 'client-signature-encoded-short',
    description: 'the signer writes only 63 bytes of each signature',
    requirements: [C.signatureSize.id],
    fault: () => ({ plan: eachLabel(() => ({ signatureBytes: 63 })) }),
  },
  {
    id: 'client-retries-unsigned',
    description: 'the client signs its first request only: every later one goes unsigned',
    requirements: [C.signed.id],
    fault: () => ({ next: (decided) => (decided.kind === 'send' ? { ...decided, signed: false } : decided) }),
  },
  {
    id: 'client-signature-agent-dropped',
    description: 'the client sends Signature-Input and Signature without Signature-Agent',
    requirements: [C.signed.id],
    fault: () => ({ sent: (request) => rewriteHeader(request, HEADERS.signatureAgent, () => undefined) }),
  },
  {
    id: 'client-body-over-4mib',
    description: 'the client signs and sends a body of 4 MiB and a byte',
    requirements: [C.bodySize.id],
    fault: () => ({ plan: (plan) => (plan.body.length ? { ...plan, body: new Uint8Array(4 * 1024 * 1024 + 1).fill(32) } : plan) }),
  },
  {
    id: 'client-key-set-test-key',
    description: 'the key set also publishes the RFC 9421 test key',
    requirements: [C.keySet.id],
    fault: () => ({
      documents: (documents: CaseDocuments, identity) => {
        const url = identity.agentUrl + WELL_KNOWN.jwks;
        const set = JSON.parse(documents[url]!.body ?? '{}') as { keys: unknown[] };
        const test = { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: RFC9421_TEST_KEYS.ed25519X[0], use: ED25519_JWK.use };
        return { ...documents, [url]: { ...documents[url]!, body: JSON.stringify({ keys: [...set.keys, test] }) } };
      },
    }),
  },
  {
    id: 'client-card-not-self-naming',
    description: "the card's client_id names the key set instead of the card",
    requirements: [C.card.id],
    fault: () => ({
      documents: (documents: CaseDocuments, identity) => {
        const url = identity.agentUrl + WELL_KNOWN.agentCard;
        const card = JSON.parse(documents[url]!.body ?? '{}') as Record<string, unknown>;
        return { ...documents, [url]: { ...documents[url]!, body: JSON.stringify({ ...card, client_id: identity.agentUrl + WELL_KNOWN.jwks }) } };
      },
    }),
  },
  {
    id: 'client-rotates-alone',
    description: 'after its first request the client signs with a new key alone, published beside the registered one',
    requirements: [C.keyContinuity.id],
    fault: () => {
      let signed = 0;
      return {
        documents: (documents: CaseDocuments, identity) => {
          const url = identity.agentUrl + WELL_KNOWN.jwks;
          const set = JSON.parse(documents[url]!.body ?? '{}') as { keys: unknown[] };
          const rotated = { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: ROTATED_KEY.x, use: ED25519_JWK.use };
          return { ...documents, [url]: { ...documents[url]!, body: JSON.stringify({ keys: [...set.keys, rotated] }) } };
        },
        plan: eachLabel(() => (signed++ === 0 ? {} : { key: ROTATED_KEY, keyid: jwkThumbprint(ROTATED_KEY) })),
      };
    },
  },
  {
    id: 'client-terms-uncovered',
    description: 'the signer leaves Service-Terms-Accepted out of the covered components',
    requirements: [C.purchaseHeadersCovered.id],
    fault: () => ({ plan: eachLabel((l) => ({ covered: l.covered.filter((c) => c !== HEADERS.termsAccepted) })) }),
  },
  {
    id: 'client-fresh-credential',
    description: 'asked for the same credential, the buyer presents a fresh one (another token for the same challenge)',
    requirements: [C.sameCredential.id, C.oneCredential.id],
    fault: () => ({
      next: (decided, answer, state) =>
        answer.retry?.sameCredential && decided.kind === 'send' && decided.payment
          ? { ...decided, payment: { ...decided.payment, value: freshCredential(decided.payment.value, state.cardToken) } }
          : decided,
    }),
  },
  {
    id: 'client-resends-unpaid-after-503',
    description: 'asked for the same credential, the buyer resends the request without it (and pays the next challenge again)',
    requirements: [C.sameCredential.id],
    fault: () => ({ next: (decided, answer) => (answer.retry?.sameCredential && decided.kind === 'send' ? { ...decided, payment: null } : decided) }),
  },
  {
    id: 'client-retry-too-soon',
    description: 'the buyer re-presents at once, without waiting for Retry-After',
    requirements: [C.retryAfter.id],
    fault: () => ({ next: (decided) => (decided.kind === 'send' ? { ...decided, waitMs: 0 } : decided) }),
  },
  {
    id: 'client-pays-after-upstream-502',
    description: 'the buyer presents its credential again after 502 upstream_payment_not_relayed',
    requirements: [C.upstream.id],
    fault: () => ({
      next: (decided, answer, state) =>
        when('upstream_payment_not_relayed', answer) && state.payment ? sendAgain(decided, { payment: state.payment, waitMs: 0 }) : decided,
    }),
  },
  {
    id: 'client-credential-after-409',
    description: 'the buyer presents the credential again after 409 purchase_already_granted or 503 funding_failed',
    requirements: [C.resendUnpaid.id],
    fault: () => ({
      next: (decided, answer, state) =>
        (when('purchase_already_granted', answer) || when('funding_failed', answer)) && state.payment
          ? sendAgain(decided, { payment: state.payment })
          : decided,
    }),
  },
  {
    id: 'client-no-terms-accepted',
    description: 'the paid retry carries no Service-Terms-Accepted',
    requirements: [C.termsAccepted.id],
    fault: () => ({ payment: (payment) => ({ ...payment, termsVersion: null }) }),
  },
  {
    id: 'client-credential-in-authorization',
    description: 'the buyer sends its credential as Authorization: Payment',
    requirements: [C.termsAccepted.id],
    fault: () => ({ payment: (payment) => ({ ...payment, header: HEADERS.authorization }) }),
  },
  {
    id: 'client-echo-altered',
    description: "the buyer's credential echoes the challenge with its expires rewritten",
    requirements: [C.echo.id],
    fault: () => ({
      payment: (payment) => {
        const parsed = parseCredential(payment.value);
        if (!parsed.ok) return payment;
        const { challenge, payload } = parsed.credential;
        return { ...payment, value: serializeCredential({ challenge: { ...challenge, expires: `${challenge.expires ?? ''} ` }, payload }) };
      },
    }),
  },
  {
    id: 'client-unsigned-after-terms-401',
    description: 'after 401 terms_acceptance_unauthenticated the buyer re-presents the credential unsigned',
    requirements: [C.termsSigned.id],
    fault: () => ({
      next: (decided, answer) => (when('terms_acceptance_unauthenticated', answer) && decided.kind === 'send' ? { ...decided, signed: false } : decided),
    }),
  },
  {
    id: 'client-transfer-short',
    description: 'the stablecoin buyer transfers one base unit less than the quote',
    requirements: [C.transfer.id],
    fault: () => ({ transfer: (shape) => ({ ...shape, amount: shape.amount - 1n }) }),
  },
  {
    id: 'client-transfer-past-expiry',
    description: "the stablecoin buyer's transaction stays valid a minute past the challenge expiry",
    requirements: [C.transfer.id],
    fault: () => ({ transfer: (shape) => ({ ...shape, validBefore: shape.validBefore + 60 }) }),
  },
  {
    id: 'client-transfer-other-memo',
    description: 'the stablecoin buyer transfers with a memo of its own',
    requirements: [C.transfer.id],
    fault: () => ({ transfer: (shape) => ({ ...shape, memo: `0x${'ab'.repeat(32)}` }) }),
  },
  {
    id: 'client-signs-another-transfer',
    description: 'asked for the same credential after tempo_settlement_pending, the buyer signs another transfer',
    requirements: [C.sameCredential.id],
    fault: () => ({
      next: async (decided, answer) =>
        answer.retry?.sameCredential && decided.kind === 'send' && decided.payment
          ? { ...decided, payment: { ...decided.payment, value: await anotherTransfer(decided.payment.value) } }
          : decided,
    }),
  },
  {
    id: 'client-follows-pointer-anyway',
    description: 'the buyer follows a purchase pointer whatever its allow list and daily cap say',
    requirements: [C.pointer.id],
    fault: () => ({
      next: (decided, answer) =>
        answer.pointer !== undefined && decided.kind === 'stop'
          ? {
              kind: 'send',
              waitMs: 0,
              payment: null,
              signed: true,
              target: { url: answer.pointer, method: 'POST', body: new Uint8Array(0), contentType: undefined },
            }
          : decided,
    }),
  },
  {
    id: 'client-submits-before-paying',
    description: 'on the agent socket the buyer sends payment.submit before paying the challenge',
    requirements: [C.submit.id],
    fault: () => ({ inband: (steps) => ({ ...steps, submitBeforePaying: true }) }),
  },
  {
    id: 'client-submits-token-scheme',
    description: 'on the agent socket the buyer sends payment.submit with payment.scheme token',
    requirements: [C.submit.id],
    fault: () => ({ inband: (steps) => ({ ...steps, scheme: 'token' }) }),
  },
  {
    id: 'client-new-token-after-terms-401',
    description: 'after 401 terms_acceptance_unauthenticated the buyer presents a fresh credential for the same challenge',
    requirements: [C.oneCredential.id],
    fault: () => ({
      next: (decided, answer, state) =>
        when('terms_acceptance_unauthenticated', answer) && decided.kind === 'send' && decided.payment
          ? { ...decided, payment: { ...decided.payment, value: freshCredential(decided.payment.value, state.cardToken) } }
          : decided,
    }),
  },
]);
