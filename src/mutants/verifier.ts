import { AUTH_CODES, AUTH_ERRORS } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { SIGNED_REQUIREMENTS } from '../spec/signed-requirements.js';
import { COMPONENTS, ED25519_JWK } from '../spec/wire.js';
import type { ParsedSignatureInputMember } from '../httpsig/index.js';
import { jwkThumbprint } from '../httpsig/index.js';
import { cardKeys } from '../verifier/card.js';
import { refusal as refuse, type CheckResult, type LabelState, type SignedContext } from '../verifier/context.js';
import { parseJsonDocument } from '../verifier/key-set.js';
import { SIGNED_REQUEST_CHECKS, type Check } from '../verifier/order.js';
import type { Mutant } from './types.js';

/**
 * Section 7.3 and 5.2 broken where they are decided: inside the verifier's order of checks, not in its answers.
 * Each mutant swaps one entry of the order (src/verifier/order.ts) for a faulty one.
 */

const requirementsOf = (check: Check) => check.codes.map((code) => AUTH_ERRORS[code].id);

/** The reference's order with one check replaced (or dropped, when `run` is null). */
function withCheck(name: string, run: ((original: Check['run']) => Check['run']) | null): readonly Check[] {
  const found = SIGNED_REQUEST_CHECKS.find((c) => c.name === name);
  if (!found) throw new Error(`no check named ${name}`);
  return SIGNED_REQUEST_CHECKS.flatMap((c) => (c !== found ? [c] : run === null ? [] : [{ ...c, run: run(c.run) }]));
}

const orderMutant = (id: string, description: string, requirements: readonly string[], checks: readonly Check[]): Mutant => ({
  id,
  description,
  requirements,
  platform: { config: (c) => ({ ...c, checks }) },
});

/** Checks that also build what later ones need: without them even a good request cannot verify. */
const BUILDING: ReadonlySet<string> = new Set(['headers-parse', 'labels', 'signature-base', 'key-set', 'key-known']);

/** Every check of the order left out in turn: the rules it decides are never decided. */
const skipped: Mutant[] = SIGNED_REQUEST_CHECKS.map((check) =>
  orderMutant(
    `verifier-skips-${check.name}`,
    `never runs the ${check.name} check (${check.codes.join(', ')})`,
    [...requirementsOf(check), ...(BUILDING.has(check.name) ? [REQUIREMENTS.signedRequestAccepted.id] : [])],
    withCheck(check.name, null),
  ),
);

const REQUIRED_BY_PROFILE = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path];

/** Lets a label through coverage when the only thing it leaves out is among @method, @authority and @path. */
function coverageWithoutRequestTarget(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    if (answer?.code !== AUTH_CODES.signature_coverage_insufficient) return answer;
    const missesOnlyTarget = ctx.labels.every((l) => {
      const covered = new Set(l.member.covered.map((c) => c.name));
      return (
        [COMPONENTS.query, ...(ctx.hasBody ? [HEADERS.contentDigest] : [])].every((n) => covered.has(n)) && REQUIRED_BY_PROFILE.some((n) => !covered.has(n))
      );
    });
    return missesOnlyTarget ? undefined : answer;
  };
}

/** Refuses a nonce longer than 128 characters, though 5.2 allows up to 256. */
function nonceCappedAt128(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    if (answer) return answer;
    const long = ctx.labels.find((l) => l.nonce.length > 128);
    return long ? refuse(ctx, AUTH_CODES.signature_params_invalid, `nonce of label ${long.label} is longer than 128 characters`) : undefined;
  };
}

/**
 * Takes a covered whole Signature-Agent field for the first member it holds, whether or not the label keys it: the
 * member "keyed by the covered key" (7.3 signature_agent_invalid) is no longer asked.
 */
function agentFieldForAnyMember(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    const first = ctx.agentDictionary?.keys().next().value;
    if (answer?.code !== AUTH_CODES.signature_coverage_insufficient || first === undefined) return answer;
    const needed = [
      COMPONENTS.method,
      COMPONENTS.authority,
      COMPONENTS.path,
      COMPONENTS.query,
      HEADERS.signatureAgent,
      ...(ctx.hasBody ? [HEADERS.contentDigest] : []),
    ];
    for (const l of ctx.labels) {
      const plain = new Set(l.member.covered.filter((c) => c.params.size === 0).map((c) => c.name));
      if (!needed.every((n) => plain.has(n))) return answer;
      l.agentKey = first;
    }
    return undefined;
  };
}

/** Changes each label before the labels check reads it: the rule is then decided on what the fault made of it. */
function beforeLabels(change: (ctx: SignedContext, l: LabelState) => void): (original: Check['run']) => Check['run'] {
  return (original) => (ctx) => {
    for (const l of ctx.labels) change(ctx, l);
    return original(ctx);
  };
}

/** A member with one parameter set (and its kind), as a lenient parser would have filled it in. */
function withParam(l: LabelState, name: string, value: string | number, kind: 'integer' | 'string'): void {
  const member: ParsedSignatureInputMember = {
    ...l.member,
    params: new Map([...l.member.params, [name, value]]),
    paramKinds: new Map([...l.member.paramKinds, [name, kind]]),
  };
  (l as { member: ParsedSignatureInputMember }).member = member;
}

/** Takes a missing created to mean now, so a signature without it passes the parameter rules. */
const createdDefaultsToNow = beforeLabels((ctx, l) => {
  if (!l.member.params.has('created')) withParam(l, 'created', ctx.now, 'integer');
});

/** Checks only that keyid is base64url of 42 to 44 characters, so a keyid a character short or long is looked up (and unknown). */
const keyidLengthLoose = beforeLabels((_ctx, l) => {
  const keyid = l.member.params.get('keyid');
  if (l.member.paramKinds.get('keyid') === 'string' && typeof keyid === 'string' && /^[A-Za-z0-9_-]{42,44}$/.test(keyid)) {
    withParam(l, 'keyid', keyid.padEnd(43, 'A').slice(0, 43), 'string');
  }
});

/** Reads the first 64 bytes of a longer signature, so a 65-byte one passes the size rule. */
const signatureTrimmedTo64 = beforeLabels((_ctx, l) => {
  if (l.signature.length > LIMITS.signatureSize.value) (l as { signature: Uint8Array }).signature = l.signature.slice(0, LIMITS.signatureSize.value);
});

/** Lets a request through without verifying its signature when a bearer, payment token or cookie rides beside it. */
function credentialBesideDecides(original: Check['run']): Check['run'] {
  return (ctx) => {
    const names = new Set(ctx.request.headers.map(([name]) => name.toLowerCase()));
    return [HEADERS.cookie, HEADERS.paymentAuthorization, HEADERS.authorization].some((n) => names.has(n)) ? undefined : original(ctx);
  };
}

/** Adds the Ed25519 keys the agent card carries to the keys of the key set (2.4: the card carries no key). */
function keysFromCard(original: Check['run']): Check['run'] {
  return async (ctx) => {
    const answer = await original(ctx);
    if (answer || !ctx.keys) return answer;
    const fetched = await ctx.ports.fetcher.fetch(ctx.identity!.cardUrl);
    const card = fetched.ok ? parseJsonDocument(fetched.body) : undefined;
    if (!card?.ok) return answer;
    const extra = cardKeys(card.value).flatMap(({ jwk }) =>
      jwk.kty === ED25519_JWK.kty && jwk.crv === ED25519_JWK.crv && typeof jwk.x === 'string'
        ? [
            {
              thumbprint: jwkThumbprint({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: jwk.x }),
              jwk: { kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: jwk.x },
            },
          ]
        : [],
    );
    ctx.keys = [...ctx.keys, ...extra];
    return answer;
  };
}

export const VERIFIER_MUTANTS: readonly Mutant[] = [
  ...skipped,
  orderMutant(
    'verifier-coverage-without-method-authority-path',
    'does not require @method, @authority and @path to be covered',
    [AUTH_ERRORS.signature_coverage_insufficient.id],
    withCheck('coverage', coverageWithoutRequestTarget),
  ),
  orderMutant(
    'verifier-nonce-capped-at-128',
    'refuses nonces longer than 128 characters',
    [LIMITS.nonceMaxLength.id, REQUIREMENTS.signedRequestAccepted.id],
    withCheck('labels', nonceCappedAt128),
  ),
  orderMutant(
    'verifier-agent-field-for-any-member',
    'takes a covered whole Signature-Agent field for its first member, though no member is keyed by the label',
    [AUTH_ERRORS.signature_coverage_insufficient.id, AUTH_ERRORS.signature_agent_invalid.id],
    withCheck('coverage', agentFieldForAnyMember),
  ),
  orderMutant(
    'verifier-created-defaults-to-now',
    'takes a missing created parameter to mean now',
    [AUTH_ERRORS.signature_params_invalid.id],
    withCheck('labels', createdDefaultsToNow),
  ),
  orderMutant(
    'verifier-keyid-length-loose',
    'takes a keyid of 42 to 44 base64url characters as a thumbprint to look up',
    [AUTH_ERRORS.signature_params_invalid.id, LIMITS.thumbprintLength.id],
    withCheck('labels', keyidLengthLoose),
  ),
  orderMutant(
    'verifier-signature-trimmed-to-64-bytes',
    'verifies the first 64 bytes of a longer signature',
    [AUTH_ERRORS.signature_malformed.id, LIMITS.signatureSize.id],
    withCheck('labels', signatureTrimmedTo64),
  ),
  orderMutant(
    'verifier-credential-beside-signature-decides',
    'does not verify the signature of a request that also carries a bearer, a payment token or a cookie',
    [SIGNED_REQUIREMENTS.signatureInputDecides.id, AUTH_ERRORS.signature_invalid.id],
    withCheck('signatures', credentialBesideDecides),
  ),
  orderMutant(
    'verifier-keys-from-card',
    "also verifies with keys the agent card carries, beside the key set's",
    [SIGNED_REQUIREMENTS.keysFromKeySet.id, AUTH_ERRORS.signature_key_unknown.id],
    withCheck('key-set', keysFromCard),
  ),
  {
    id: 'key-directory-lists-no-key',
    description: "the platform's key directory lists no key of the agents it hosts",
    requirements: [REQUIREMENTS.keyDirectoryEntries.id],
    platform: { hostedAgentKeys: () => [] },
  },
];
