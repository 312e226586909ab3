import { AUTH_ERROR_LIST } from '../spec/auth-errors.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { CARD_MEMORY_TOLERANCE_S } from '../spec/readings.js';
import { SIGNED_REQUEST_CHECKS, type Check } from '../verifier/order.js';
import type { Variant } from './types.js';

/** Every 7.3 requirement and the signed-request rules: an order of checks can change any answer among them. */
const SIGNED = [...AUTH_ERROR_LIST.map((r) => r.id), REQUIREMENTS.signedRequestAccepted.id];

/** The reference's order with the check named `name` moved to stand right after `after` (or first). */
function moved(name: string, after: string | null): readonly Check[] {
  const check = SIGNED_REQUEST_CHECKS.find((c) => c.name === name);
  if (!check) throw new Error(`no check named ${name}`);
  const rest = SIGNED_REQUEST_CHECKS.filter((c) => c !== check);
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

export const VERIFIER_VARIANTS: readonly Variant[] = [
  ordered('order-policy-last', 'refuses a blocked agent only once its signatures verified, after reading its documents', moved('policy', 'signatures')),
  ordered(
    'order-network-first',
    'reads the key set as soon as the Signature-Agent member names it, before policy, digest and base',
    moved('key-set', 'signature-agent'),
  ),
  ordered('order-nonce-first', 'spends the nonce as soon as the agent URL is known, before any signature is verified', moved('nonce', 'signature-agent')),
  ordered('order-authority-first', 'checks the authority before any parameter', moved('authority', 'headers-parse')),
  cardMemory(LIMITS.cardRefusalMemory.value - CARD_MEMORY_TOLERANCE_S),
  cardMemory(LIMITS.cardRefusalMemory.value + CARD_MEMORY_TOLERANCE_S),
];
