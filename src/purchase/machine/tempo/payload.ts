import { TEMPO_PAYLOAD_MEMBERS, TEMPO_PAYLOAD_TYPES } from '../../../spec/payments.js';
import type { JsonObject } from '../../wire/json.js';

/**
 * What a stablecoin credential's payload offers. Only `transaction` (a signed, unbroadcast transaction the
 * platform broadcasts) is admitted for a priced call; `hash` (already broadcast by the buyer) and `proof`
 * (a zero-amount signature) are readable but not admitted (7.4 invalid-payload).
 */
export type TempoPayloadRead = { readonly kind: 'transaction'; readonly serialized: string } | { readonly kind: 'not-admitted'; readonly detail: string };

const notAdmitted = (detail: string): TempoPayloadRead => ({ kind: 'not-admitted', detail });

export function readTempoPayload(payload: JsonObject): TempoPayloadRead {
  const type = payload[TEMPO_PAYLOAD_MEMBERS.type];
  if (type === TEMPO_PAYLOAD_TYPES.hash || type === TEMPO_PAYLOAD_TYPES.proof) {
    return notAdmitted(
      `payload.${TEMPO_PAYLOAD_MEMBERS.type} ${type} is not admitted for a priced purchase; send payload.${TEMPO_PAYLOAD_MEMBERS.type} ${TEMPO_PAYLOAD_TYPES.transaction} with the signed, unbroadcast transaction`,
    );
  }
  if (type !== TEMPO_PAYLOAD_TYPES.transaction) {
    return notAdmitted(`payload.${TEMPO_PAYLOAD_MEMBERS.type} must be ${TEMPO_PAYLOAD_TYPES.transaction}, not ${JSON.stringify(type ?? null)}`);
  }
  const serialized = payload[TEMPO_PAYLOAD_MEMBERS.signature];
  if (typeof serialized !== 'string' || serialized === '') {
    return notAdmitted(`payload.${TEMPO_PAYLOAD_MEMBERS.signature} must carry the serialized signed transaction`);
  }
  return { kind: 'transaction', serialized };
}
