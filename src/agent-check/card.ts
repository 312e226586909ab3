import { AGENT_CHECK_PROBLEMS as P } from '../spec/agent-check.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { CARD_FIELDS } from '../spec/wire.js';
import { cardKeys } from '../verifier/card.js';
import { problem, shown, type AgentProblem } from './problems.js';

const RULE = REQUIREMENTS.agentCardSelfNaming.id;

/** What the card says about the key set: a URL to fetch, an inline set to judge, or nothing usable. */
export type CardKeySet = { readonly kind: 'uri'; readonly url: string } | { readonly kind: 'inline'; readonly jwks: unknown } | { readonly kind: 'none' };

/** 2.4 self-naming, every problem at once: client_id is the card URL, url the agent URL, and exactly one of jwks_uri (the key set URL) or jwks. */
export function judgeCardDocument(
  document: unknown,
  urls: { readonly cardUrl: string; readonly agentUrl: string; readonly keySetUrl: string },
): { problems: AgentProblem[]; keySet: CardKeySet } {
  const at = urls.cardUrl;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return {
      problems: [
        problem(P.cardNotObject, RULE, at, `The card is ${shown(document)}, not a JSON object. 2.4 wants an object with client_id, url and jwks_uri.`),
      ],
      keySet: { kind: 'none' },
    };
  }
  const card = document as Record<string, unknown>;
  const problems: AgentProblem[] = [];
  if (card[CARD_FIELDS.clientId] !== urls.cardUrl) {
    problems.push(
      problem(
        P.cardClientId,
        RULE,
        at,
        `client_id is ${shown(card[CARD_FIELDS.clientId])}; 2.4 wants the card's own URL, exactly "${urls.cardUrl}". Set "client_id": "${urls.cardUrl}" (same scheme, host, port and path; no trailing slash).`,
      ),
    );
  }
  if (card[CARD_FIELDS.url] !== urls.agentUrl) {
    const hint =
      typeof card[CARD_FIELDS.url] === 'string' && (card[CARD_FIELDS.url] as string).replace(/\/+$/, '') === urls.agentUrl ? ' Drop the trailing slash.' : '';
    problems.push(
      problem(
        P.cardUrl,
        RULE,
        at,
        `url is ${shown(card[CARD_FIELDS.url])}; 2.4 wants the agent URL without a trailing slash, exactly "${urls.agentUrl}".${hint}`,
      ),
    );
  }
  for (const key of cardKeys(card)) {
    problems.push(
      problem(
        P.cardCarriesKey,
        RULE,
        at,
        `The card carries a key at ${key.path} (kty ${shown(key.jwk.kty)}); 2.4: the card "carries no key". Platforms verify with the key set only, so a key named here verifies nothing. Publish it in the key set ("${urls.keySetUrl}") and remove it from the card.`,
      ),
    );
  }
  const hasUri = CARD_FIELDS.jwksUri in card;
  const hasInline = CARD_FIELDS.jwks in card;
  if (hasUri && hasInline) {
    problems.push(
      problem(
        P.cardKeySetBoth,
        RULE,
        at,
        `The card has both jwks_uri and an inline jwks; 2.4 allows one or the other, never both. Keep "jwks_uri": "${urls.keySetUrl}" and remove jwks.`,
      ),
    );
    return { problems, keySet: { kind: 'none' } };
  }
  if (hasInline) return { problems, keySet: { kind: 'inline', jwks: card[CARD_FIELDS.jwks] } };
  if (!hasUri) {
    problems.push(
      problem(P.cardKeySetMissing, RULE, at, `The card names no key set; 2.4 wants "jwks_uri": "${urls.keySetUrl}" (or an inline jwks). Add jwks_uri.`),
    );
    return { problems, keySet: { kind: 'none' } };
  }
  if (card[CARD_FIELDS.jwksUri] !== urls.keySetUrl) {
    problems.push(
      problem(
        P.cardJwksUri,
        RULE,
        at,
        `jwks_uri is ${shown(card[CARD_FIELDS.jwksUri])}; 2.4 wants the key set URL "${urls.keySetUrl}" (the agent URL plus /.well-known/jwks.json). Point jwks_uri there.`,
      ),
    );
  }
  return { problems, keySet: { kind: 'uri', url: urls.keySetUrl } };
}
