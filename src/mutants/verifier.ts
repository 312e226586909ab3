import { AUTH_CODES, AUTH_ERRORS } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { SIGNED_REQUIREMENTS } from '../spec/signed-requirements.js';
import { COMPONENTS, ED25519_JWK } from '../spec/wire.js';
import type { ParsedSignatureInputMember } from '../httpsig/index.js';
import { jwkThumbprint } from '../httpsig/index.js';
import { cardKeys } from '../verifier/card.js';
import { isRefused, refused, type FactName, type In, type Label, type NonEmpty, type Outcome } from '../verifier/context.js';
import { parseJsonDocument } from '../verifier/key-set.js';
import { SIGNED_REQUEST_CHECKS, type Check } from '../verifier/order.js';
import type { Mutant } from './types.js';

/**
 * Section 7.3 and 5.2 broken where they are decided: inside the verifier's order of checks, not in its answers.
 * Each mutant swaps one entry of the order (src/verifier/order.ts) for a faulty one.
 */

const requirementsOf = (check: Check) => check.codes.map((code) => AUTH_ERRORS[code].id);

/** The reference's order with one check replaced (or dropped, when `run` is null). */
function withCheck(name: string, run: ((original: Run) => Run) | null): readonly Check[] {
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

/**
 * Every check of the order left out in turn: the rules it decides are never decided. A check that gives facts later
 * checks need (its `gives`) leaves an order the verifier will not run (verify-request.ts), so even a good request
 * cannot verify.
 */
const skipped: Mutant[] = SIGNED_REQUEST_CHECKS.map((check) =>
  orderMutant(
    `verifier-skips-${check.name}`,
    `never runs the ${check.name} check (${check.codes.join(', ')})`,
    [...requirementsOf(check), ...(check.gives.length > 0 ? [REQUIREMENTS.signedRequestAccepted.id] : [])],
    withCheck(check.name, null),
  ),
);

/** A run of an entry of the order, which reads any fact given before it. */
type Run = Check['run'];

const codeOf = (outcome: Outcome) => (isRefused(outcome) ? outcome.refused : undefined);

const REQUIRED_BY_PROFILE = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path];

/** Lets a label through coverage when the only thing it leaves out is among @method, @authority and @path. */
function coverageWithoutRequestTarget(original: Run): Run {
  return async (input): Promise<Outcome> => {
    const answer = await original(input);
    if (codeOf(answer) !== AUTH_CODES.signature_coverage_insufficient) return answer;
    const missesOnlyTarget = input.labels.every((l) => {
      const covered = new Set(l.member.covered.map((c) => c.name));
      return (
        [COMPONENTS.query, ...(input.hasBody ? [HEADERS.contentDigest] : [])].every((n) => covered.has(n)) && REQUIRED_BY_PROFILE.some((n) => !covered.has(n))
      );
    });
    return missesOnlyTarget ? { agentKeys: labelKeys(input.labels) } : answer;
  };
}

/** Refuses a nonce longer than 128 characters, though 5.2 allows up to 256. */
function nonceCappedAt128(original: Run): Run {
  return async (input): Promise<Outcome> => {
    const answer = await original(input);
    if (isRefused(answer) || answer?.params === undefined) return answer;
    const long = answer.params.findIndex((p) => p.nonce.length > 128);
    return long >= 0 ? refused(AUTH_CODES.signature_params_invalid, `nonce of label ${input.labels[long]?.label} is longer than 128 characters`) : answer;
  };
}

/**
 * Takes a covered whole Signature-Agent field for the first member it holds, whether or not the label keys it: the
 * member "keyed by the covered key" (7.3 signature_agent_invalid) is no longer asked.
 */
function agentFieldForAnyMember(original: Run): Run {
  return async (input): Promise<Outcome> => {
    const answer = await original(input);
    const first = input.agentDictionary.keys().next().value;
    if (codeOf(answer) !== AUTH_CODES.signature_coverage_insufficient || first === undefined) return answer;
    const needed = [
      COMPONENTS.method,
      COMPONENTS.authority,
      COMPONENTS.path,
      COMPONENTS.query,
      HEADERS.signatureAgent,
      ...(input.hasBody ? [HEADERS.contentDigest] : []),
    ];
    for (const l of input.labels) {
      const plain = new Set(l.member.covered.filter((c) => c.params.size === 0).map((c) => c.name));
      if (!needed.every((n) => plain.has(n))) return answer;
    }
    return { agentKeys: mapLabels(input.labels, () => first) };
  };
}

/** One value per label, as a per-label fact holds. */
function mapLabels<T>(labels: NonEmpty<Label>, each: (l: Label) => T): NonEmpty<T> {
  const [first, ...others] = labels;
  return [each(first), ...others.map(each)];
}

const labelKeys = (labels: NonEmpty<Label>) => mapLabels(labels, (l) => l.label);

/**
 * Hands the labels check each label as the fault makes it: the rule is then decided on what the fault made of it,
 * and the checks after it (signatures among them) read the same changed labels.
 */
function beforeLabels(change: (input: In<FactName>, l: Label) => Label): (original: Run) => Run {
  return (original) => async (input) => {
    const labels = mapLabels(input.labels, (l) => change(input, l));
    const answer = await original({ ...input, labels });
    return isRefused(answer) ? answer : { ...answer, labels };
  };
}

/** A member with one parameter set (and its kind), as a lenient parser would have filled it in. */
function withParam(l: Label, name: string, value: string | number, kind: 'integer' | 'string'): Label {
  const member: ParsedSignatureInputMember = {
    ...l.member,
    params: new Map([...l.member.params, [name, value]]),
    paramKinds: new Map([...l.member.paramKinds, [name, kind]]),
  };
  return { ...l, member };
}

/** Takes a missing created to mean now, so a signature without it passes the parameter rules. */
const createdDefaultsToNow = beforeLabels((input, l) => (l.member.params.has('created') ? l : withParam(l, 'created', input.now, 'integer')));

/** Checks only that keyid is base64url of 42 to 44 characters, so a keyid a character short or long is looked up (and unknown). */
const keyidLengthLoose = beforeLabels((_input, l) => {
  const keyid = l.member.params.get('keyid');
  return l.member.paramKinds.get('keyid') === 'string' && typeof keyid === 'string' && /^[A-Za-z0-9_-]{42,44}$/.test(keyid)
    ? withParam(l, 'keyid', keyid.padEnd(43, 'A').slice(0, 43), 'string')
    : l;
});

/** Reads the first 64 bytes of a longer signature, so a 65-byte one passes the size rule. */
const signatureTrimmedTo64 = beforeLabels((_input, l) =>
  l.signature.length > LIMITS.signatureSize.value ? { ...l, signature: l.signature.slice(0, LIMITS.signatureSize.value) } : l,
);

/** Lets a request through without verifying its signature when a bearer, payment token or cookie rides beside it. */
function credentialBesideDecides(original: Run): Run {
  return (input) => {
    const names = new Set(input.request.headers.map(([name]) => name.toLowerCase()));
    return [HEADERS.cookie, HEADERS.paymentAuthorization, HEADERS.authorization].some((n) => names.has(n)) ? undefined : original(input);
  };
}

/** Adds the Ed25519 keys the agent card carries to the keys of the key set (2.4: the card carries no key). */
function keysFromCard(original: Run): Run {
  return async (input) => {
    const answer = await original(input);
    if (isRefused(answer) || answer?.keySet === undefined) return answer;
    const fetched = await input.ports.fetcher.fetch(input.identity.cardUrl);
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
    return { keySet: { ...answer.keySet, keys: [...answer.keySet.keys, ...extra] } };
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
