import { jsonOf, rewrite } from '../mutants/answer.js';
import type { AnswerFault } from '../mutants/types.js';
import { AUTH_CODES, AUTH_ERRORS, AUTH_ERROR_LIST } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { CARD_MEMORY_TOLERANCE_S } from '../spec/readings.js';
import { SIGNED_REQUIREMENTS } from '../spec/signed-requirements.js';
import { cardKeys } from '../verifier/card.js';
import { refused } from '../verifier/context.js';
import { parseJsonDocument, type KeySetJudgeOptions } from '../verifier/key-set.js';
import { SIGNED_REQUEST_CHECKS, typedCheck, type Check } from '../verifier/order.js';
import type { Variant } from './types.js';

/** Every 7.3 requirement and the signed-request rules: an order of checks can change any answer among them. */
const SIGNED = [...AUTH_ERROR_LIST.map((r) => r.id), REQUIREMENTS.signedRequestAccepted.id];

/** The order `from` (the reference's) with the check named `name` moved to stand right after `after` (or first). */
function moved(name: string, after: string | null, from: readonly Check[] = SIGNED_REQUEST_CHECKS): readonly Check[] {
  const check = from.find((c) => c.name === name);
  if (!check) throw new Error(`no check named ${name}`);
  const rest = from.filter((c) => c !== check);
  const at = after === null ? 0 : rest.findIndex((c) => c.name === after) + 1;
  if (at === 0 && after !== null) throw new Error(`no check named ${after}`);
  return [...rest.slice(0, at), check, ...rest.slice(at)];
}

function ordered(id: string, description: string, checks: readonly Check[]): Variant {
  return { id, description, readings: ['checkOrder', 'refusedNonce'], requirements: SIGNED, platform: { config: (c) => ({ ...c, checks }) } };
}

function cardMemory(seconds: number): Variant {
  return {
    id: `card-memory-${seconds}-seconds`,
    description: `remembers a card refusal for ${seconds} s ("about 10 minutes")`,
    readings: ['cardMemory'],
    requirements: [LIMITS.cardRefusalMemory.id, ...SIGNED],
    platform: { config: (c) => ({ ...c, cardRefusalMemorySeconds: seconds }) },
  };
}

/** The rules a key set's judgement decides: which sets are valid, and so which requests are verified. */
const KEY_SET_RULES = [AUTH_ERRORS.key_set_invalid.id, AUTH_ERRORS.signature_key_unknown.id, LIMITS.keysPerKeySet.id, REQUIREMENTS.signedRequestAccepted.id];

function keySets(id: string, description: string, readings: Variant['readings'], options: KeySetJudgeOptions): Variant {
  return { id, description, readings, requirements: KEY_SET_RULES, platform: { config: (c) => ({ ...c, keySets: { ...c.keySets, ...options } }) } };
}

/** The rules a covered whole Signature-Agent field decides: coverage, the member it names, and acceptance. */
const AGENT_FIELD_RULES = [AUTH_ERRORS.signature_coverage_insufficient.id, AUTH_ERRORS.signature_agent_invalid.id, REQUIREMENTS.signedRequestAccepted.id];

function agentField(id: string, description: string, counts: 'member' | 'item'): Variant {
  return {
    id,
    description,
    readings: ['agentFieldCoveredWhole'],
    requirements: AGENT_FIELD_RULES,
    platform: { config: (c) => ({ ...c, agentFieldCovered: counts }) },
  };
}

/**
 * On first sight, refuses an agent whose card carries a key (2.4: "It carries no key") with credential_refused, once
 * the key set is read: a check inserted in the reference's order.
 */
const CARD_CARRYING_KEY_REFUSED: Check = typedCheck({
  name: 'card-carries-no-key',
  codes: [AUTH_CODES.credential_refused],
  why: 'A variant: a card that breaks 2.4 refuses the agent on first sight.',
  needs: ['identity'],
  gives: [],
  run: async ({ identity, ports }) => {
    if (await ports.registrations.get(identity.agentUrl)) return undefined;
    const fetched = await ports.fetcher.fetch(identity.cardUrl);
    const card = fetched.ok ? parseJsonDocument(fetched.body) : undefined;
    return card?.ok && cardKeys(card.value).length > 0 ? refused(AUTH_CODES.credential_refused, 'The agent card carries a key.') : undefined;
  },
});

function inserted(check: Check, after: string): readonly Check[] {
  const at = SIGNED_REQUEST_CHECKS.findIndex((c) => c.name === after) + 1;
  if (at === 0) throw new Error(`no check named ${after}`);
  return [...SIGNED_REQUEST_CHECKS.slice(0, at), check, ...SIGNED_REQUEST_CHECKS.slice(at)];
}

/** A 401 of 7.3 as another deployment may write it: Retry-After where 7.3 is silent, and a +json media type. */
const REFUSAL_EXTRAS: AnswerFault = rewrite(
  (a) => a.status === 401 && jsonOf(a)?.error_code !== undefined,
  (a) => {
    a.headers.set(HEADERS.contentType, 'application/problem+json; charset=utf-8');
    if (jsonOf(a)?.error_code !== AUTH_CODES.too_many_failed_signatures) a.headers.set(HEADERS.retryAfter, '300');
  },
);

export const VERIFIER_VARIANTS: readonly Variant[] = [
  {
    id: 'refusal-retry-after-problem-json',
    description: 'adds Retry-After: 300 to every 401 but too_many_failed_signatures, and types its body application/problem+json',
    readings: ['refusalHeaders'],
    requirements: SIGNED,
    platform: { answer: REFUSAL_EXTRAS },
  },
  ordered('order-policy-last', 'refuses a blocked agent only once its signatures verified, after reading its documents', moved('policy', 'signatures')),
  ordered(
    'order-network-first',
    'reads the key set as soon as the Signature-Agent member names it, before policy, digest and base',
    moved('key-set', 'signature-agent'),
  ),
  ordered(
    'order-nonce-first',
    'spends the nonce as soon as the agent URL is known, before any signature is verified',
    moved('nonce', 'nonce-reserve', moved('nonce-reserve', 'signature-agent')),
  ),
  ordered('order-authority-first', 'checks the authority before any parameter', moved('authority', 'headers-parse')),
  cardMemory(LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S),
  cardMemory(LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S),
  agentField(
    'agent-field-covers-member',
    'takes the whole Signature-Agent field, covered without key, for the member keyed by the label when the field holds it',
    'member',
  ),
  agentField('agent-field-one-item', 'counts the whole Signature-Agent field and its member as one signature-agent item covered twice', 'item'),
  {
    id: 'card-carrying-key-refused',
    description: 'refuses an agent whose card carries a key, on first sight, with credential_refused',
    readings: ['cardCarryingKey'],
    requirements: [
      SIGNED_REQUIREMENTS.keysFromKeySet.id,
      AUTH_ERRORS.signature_key_unknown.id,
      AUTH_ERRORS.credential_refused.id,
      REQUIREMENTS.signedRequestAccepted.id,
    ],
    platform: { config: (c) => ({ ...c, checks: inserted(CARD_CARRYING_KEY_REFUSED, 'key-set') }) },
  },
  keySets(
    'key-set-unusable-entry-voids-set',
    'refuses a whole key set (key_set_invalid) for one entry that is no Ed25519 signing key, or an Ed25519 key without use',
    ['keySetUnusableEntry'],
    { refuseUnusableEntries: true },
  ),
  keySets(
    'key-set-counts-every-entry',
    'counts every entry of a key set against the 16 keys of section 8, an RSA key or an unusable entry included',
    ['keySetRsa'],
    { countEveryEntry: true },
  ),
];
