import { INBAND_SCHEMES, PAYMENT_REQUIREMENTS_MEMBERS, POINTER_BODY_MEMBERS, SCHEME_ENTRY_MEMBERS } from '../spec/inband.js';

/**
 * The purchase URL of a rail's pointer (section 6): a 402 whose body's requirements.schemes hold an mpp entry with
 * purchase_url and no challenge. Undefined for any other answer (a 402 with a Payment challenge is not a pointer).
 */
export function pointerUrlOf(status: number, body: unknown): string | undefined {
  if (status !== 402 || body === null || typeof body !== 'object') return undefined;
  const requirements = (body as Record<string, unknown>)[POINTER_BODY_MEMBERS.requirements];
  if (requirements === null || typeof requirements !== 'object') return undefined;
  const schemes = (requirements as Record<string, unknown>)[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
  if (!Array.isArray(schemes)) return undefined;
  for (const entry of schemes) {
    if (entry === null || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    if (e[SCHEME_ENTRY_MEMBERS.scheme] !== INBAND_SCHEMES.mpp || e[SCHEME_ENTRY_MEMBERS.challenge] !== undefined) continue;
    const url = e[SCHEME_ENTRY_MEMBERS.purchaseUrl];
    if (typeof url === 'string') return url;
  }
  return undefined;
}
