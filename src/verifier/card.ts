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
  // Stryker disable next-line StringLiteral,LogicalOperator: the URL error_description names
  const primary = expectedKeySetUrls[0] ?? '';
  if (hasUri && hasInline) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardBothKeySets };
  if (hasInline) return { ok: true, keySetUrl: null, inlineKeySet: card[CARD_FIELDS.jwks] };
  if (!hasUri) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardNoKeySet(primary) };
  const uri = card[CARD_FIELDS.jwksUri];
  const named = expectedKeySetUrls.find((url) => url === uri);
  if (named === undefined) return { ok: false, code: AUTH_CODES.card_key_set_mismatch, description: MESSAGES.cardKeySet(primary, uri) };
  return { ok: true, keySetUrl: named, inlineKeySet: undefined };
}
