import { AUTH_CODES } from '../spec/auth-errors.js';
import { CARD_FIELDS } from '../spec/wire.js';
import { MESSAGES } from './messages.js';

export type CardJudgement =
  | { ok: true; keySetUrl: string | null; inlineKeySet: unknown }
  | { ok: false; code: typeof AUTH_CODES.card_not_self_naming | typeof AUTH_CODES.card_key_set_mismatch; description: string };

/**
 * 2.4 self-naming: client_id is the card's own URL, url is the agent URL (no trailing slash), and exactly one
 * of jwks_uri (equal to the key set URL) or an inline jwks. `expectedKeySetUrls` lists the key set URLs this
 * request's Signature-Agent allows the card to name.
 */
export function judgeCard(document: unknown, cardUrl: string, agentUrl: string, expectedKeySetUrls: readonly string[]): CardJudgement {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { ok: false, code: AUTH_CODES.card_not_self_naming, description: MESSAGES.cardNotJson(cardUrl) };
  }
  const card = document as Record<string, unknown>;
  if (card[CARD_FIELDS.clientId] !== cardUrl) {
    return { ok: false, code: AUTH_CODES.card_not_self_naming, description: MESSAGES.cardClientId(cardUrl, card[CARD_FIELDS.clientId]) };
  }
  if (card[CARD_FIELDS.url] !== agentUrl) {
    return { ok: false, code: AUTH_CODES.card_not_self_naming, description: MESSAGES.cardUrl(agentUrl, card[CARD_FIELDS.url]) };
  }
  const hasUri = CARD_FIELDS.jwksUri in card;
  const hasInline = CARD_FIELDS.jwks in card;
  const primary = expectedKeySetUrls[0] ?? '';
  if (hasUri && hasInline) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardBothKeySets };
  if (hasInline) return { ok: true, keySetUrl: null, inlineKeySet: card[CARD_FIELDS.jwks] };
  if (!hasUri) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardNoKeySet(primary) };
  const uri = card[CARD_FIELDS.jwksUri];
  const named = expectedKeySetUrls.find((url) => url === uri);
  if (named === undefined) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardKeySet(primary, uri) };
  return { ok: true, keySetUrl: named, inlineKeySet: undefined };
}

/** A key the card carries, and where: `jwk` at a JSON path such as `keys[0]` or `verificationMethod[0].publicKeyJwk`. */
export interface CardKey {
  readonly path: string;
  readonly jwk: Readonly<Record<string, unknown>>;
}

/**
 * 2.4: the agent card "carries no key". Every JWK (an object with a string kty) the card holds outside its inline
 * jwks, which is the key set in the card and not the card's own key. Platforms read keys from the key set only.
 */
export function cardKeys(card: unknown): CardKey[] {
  const found: CardKey[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    } else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      if (typeof object.kty === 'string') found.push({ path: path || '(the card itself)', jwk: object });
      else for (const [name, member] of Object.entries(object)) if (path !== '' || name !== CARD_FIELDS.jwks) walk(member, path ? `${path}.${name}` : name);
    }
  };
  walk(card, '');
  return found;
}
