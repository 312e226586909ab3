import { AUTH_CODES } from '../spec/auth-errors.js';
import { ed25519Verify } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { deployedHeader } from '../spec/naming.js';
import { SIGNATURE_AGENT_TYPES } from '../spec/wire.js';
import { judgeCard } from './card.js';
import { isRefused, ofLabel, perLabel, refused, type In, type KeySet, type NonEmpty, type Refused } from './context.js';
import { judgeKeySet, parseJsonDocument } from './key-set.js';
import { MESSAGES } from './messages.js';
import { andThen } from './awaitable.js';
import type { Awaitable, KeySetCacheEntry, PublishedKey, Registration } from './ports.js';
import type { AgentIdentity } from './signature-agent.js';

const encoder = new TextEncoder();

function mediaTypeOf(headers: Readonly<Record<string, string>>): string {
  return (headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Fetches and judges a key set document; a key directory must also carry its media type (2.4). */
async function readKeySet(input: In<never>, url: string, isDirectory: boolean): Promise<KeySetCacheEntry> {
  const at = input.now;
  const fetched = await input.ports.fetcher.fetch(url);
  if (!fetched.ok) return { ok: false, code: AUTH_CODES.key_set_unreachable, description: MESSAGES.keySetUnreachable(fetched.detail), at };
  const parsed = parseJsonDocument(fetched.body);
  if (!parsed.ok) return { ok: false, code: AUTH_CODES.key_set_unreachable, description: MESSAGES.keySetUnreachable(`${url}: ${parsed.detail}`), at };
  if (isDirectory && mediaTypeOf(fetched.headers) !== MEDIA_TYPES.keyDirectory) {
    const got = mediaTypeOf(fetched.headers) || 'no media type';
    return {
      ok: false,
      code: AUTH_CODES.key_set_invalid,
      description: MESSAGES.keySetInvalid(url, `a key directory must be served as ${MEDIA_TYPES.keyDirectory}, not ${got}`),
      at,
    };
  }
  const judged = judgeKeySet(parsed.value, input.config.keySets);
  return judged.ok
    ? { ok: true, keys: judged.keys, at }
    : { ok: false, code: AUTH_CODES.key_set_invalid, description: MESSAGES.keySetInvalid(url, judged.detail), at };
}

/** A card refusal remembered for this agent URL, if still within its memory window. */
async function rememberedCardRefusal(input: In<'identity'>): Promise<Refused | undefined> {
  const remembered = await input.ports.cardRefusals.get(input.identity.agentUrl);
  // Stryker disable next-line EqualityOperator: the memory lasts "about 10 minutes"; the very second it ends is either side
  if (remembered && input.now - remembered.at < (input.config.cardRefusalMemorySeconds ?? LIMITS.cardRefusalMemory.value)) {
    return refused(remembered.code, MESSAGES.rememberedCard(remembered.description));
  }
  return undefined;
}

/** Where the card says the key set is: its jwks_uri, or its inline jwks. */
type CardRead = { readonly keySetUrl: string | null; readonly inlineKeySet: unknown };

/** Reads and judges the card (2.4); a refusal is remembered per agent URL. */
async function readCard(input: In<'identity'>): Promise<Refused | CardRead> {
  const remembered = await rememberedCardRefusal(input);
  if (remembered) return remembered;
  const { identity } = input;
  const remember = async (
    code: typeof AUTH_CODES.card_unreachable | typeof AUTH_CODES.card_not_self_naming | typeof AUTH_CODES.card_key_set_mismatch,
    description: string,
  ): Promise<Refused> => {
    await input.ports.cardRefusals.set(identity.agentUrl, { code, description, at: input.now });
    return refused(code, description);
  };
  const fetched = await input.ports.fetcher.fetch(identity.cardUrl);
  if (!fetched.ok) return remember(AUTH_CODES.card_unreachable, MESSAGES.cardUnreachable(fetched.detail));
  const parsed = parseJsonDocument(fetched.body);
  if (!parsed.ok) return remember(AUTH_CODES.card_unreachable, MESSAGES.cardUnreachable(`${identity.cardUrl}: ${parsed.detail}`));
  const judged = judgeCard(parsed.value, identity.cardUrl, identity.agentUrl, identity.cardKeySetUrls);
  if (!judged.ok) return remember(judged.code, judged.description);
  return { keySetUrl: judged.keySetUrl, inlineKeySet: judged.inlineKeySet };
}

/** For type=cimd the card names the key set: card first, then its jwks_uri or inline jwks. */
async function readKeysThroughCard(input: In<'identity'>): Promise<KeySetCacheEntry | Refused> {
  const card = await readCard(input);
  if (isRefused(card)) return card;
  if (card.keySetUrl) return readKeySet(input, card.keySetUrl, false);
  const judged = judgeKeySet(card.inlineKeySet, input.config.keySets);
  const url = input.identity.cardUrl;
  return judged.ok
    ? { ok: true, keys: judged.keys, at: input.now }
    : { ok: false, code: AUTH_CODES.key_set_invalid, description: MESSAGES.keySetInvalid(`${url} (inline jwks)`, judged.detail), at: input.now };
}

/** 5.2 caching: a key set is read at most once per 5 minutes per URL; the answer, failure included, is reused. */
export function checkKeySet(input: In<'identity'>): Awaitable<Refused | { keySet: KeySet }> {
  const { identity } = input;
  const url = identity.keySetUrl ?? identity.cardUrl;
  // A cache answering synchronously keeps the cached path free of promises; reading the documents is async.
  return andThen(input.ports.keySets.get(url), (cached) => {
    if (!cached || input.now - cached.at >= LIMITS.keySetRereadInterval.value || cached.at > input.now) return rereadKeySet(input, url);
    // A cached key set of type=cimd was read through a card that passed.
    return useKeySet(url, cached, identity.type === SIGNATURE_AGENT_TYPES.cimd);
  });
}

async function rereadKeySet(input: In<'identity'>, url: string): Promise<Refused | { keySet: KeySet }> {
  const { identity } = input;
  const throughCard = identity.type === SIGNATURE_AGENT_TYPES.cimd;
  const read = throughCard ? await readKeysThroughCard(input) : await readKeySet(input, url, identity.type === SIGNATURE_AGENT_TYPES.directory);
  if (isRefused(read)) return read;
  await input.ports.keySets.set(url, read);
  return useKeySet(url, read, throughCard);
}

function useKeySet(url: string, entry: KeySetCacheEntry, cardChecked: boolean): Refused | { keySet: KeySet } {
  return entry.ok ? { keySet: { url, keys: entry.keys, cardChecked } } : refused(entry.code, entry.description);
}

/** Every label names a key of the set; one unknown key refuses the whole request. */
export function checkKeyKnown(input: In<'labels' | 'params' | 'keySet'>): Refused | { keys: NonEmpty<PublishedKey> } {
  const { keySet, params } = input;
  const keys = perLabel(input.labels, (l, at) => {
    const { keyid } = ofLabel(params, at);
    return keySet.keys.find((k) => k.thumbprint === keyid) ?? refused(AUTH_CODES.signature_key_unknown, MESSAGES.keyUnknown(l.label, keyid, keySet.url));
  });
  return isRefused(keys) ? keys : { keys };
}

export function checkSignatures(input: In<'labels' | 'bases' | 'keys'>): Awaitable<Refused | undefined> {
  const { bases, keys, labels } = input;
  const verify = input.ports.ed25519 ?? ed25519Verify;
  // Label by label, in order: the first that does not verify is the refusal, and the ones after it are not checked.
  const from = (at: number): Awaitable<Refused | undefined> => {
    const l = labels[at];
    if (l === undefined) return undefined;
    return andThen(verify(ofLabel(keys, at).jwk.x, encoder.encode(ofLabel(bases, at)), l.signature), (ok) =>
      ok ? from(at + 1) : refused(AUTH_CODES.signature_invalid, MESSAGES.signatureInvalid(l.label)),
    );
  };
  return from(0);
}

/** 5.2 key continuity: a registered agent must also sign with a key it holds, or present the operator's platform key. */
export function checkContinuity(input: In<'identity' | 'params'>): Awaitable<Refused | { registration: Registration | null }> {
  return andThen(input.ports.registrations.get(input.identity.agentUrl), (found) => {
    const registration = found ?? null;
    if (!registration) return { registration };
    const signedWithHeld = input.params.some((p) => registration.thumbprints.includes(p.keyid));
    if (signedWithHeld) return { registration };
    const ownerKeyHeader = deployedHeader(HEADERS.ownerKey, input.config.naming);
    const ownerKey = input.request.headers.find(([name]) => name.toLowerCase() === ownerKeyHeader)?.[1].trim();
    if (ownerKey && input.config.ownerKeys?.includes(ownerKey)) return { registration };
    return refused(AUTH_CODES.key_continuity_required, MESSAGES.continuity);
  });
}

/** First sight: the card is read and judged, then the agent is registered with the keys that signed. */
export function checkCardAndRegister(input: In<'identity' | 'params' | 'keySet' | 'registration'>): Awaitable<Refused | { registered: boolean }> {
  const signing: string[] = [];
  for (const p of input.params) if (!signing.includes(p.keyid)) signing.push(p.keyid);
  const { registration } = input;
  if (registration) {
    const added = signing.filter((t) => !registration.thumbprints.includes(t));
    if (added.length)
      return andThen(input.ports.registrations.put({ ...registration, thumbprints: [...registration.thumbprints, ...added] }), () => ({ registered: false }));
    return { registered: false };
  }
  return registerOnFirstSight(input, input.identity, signing);
}

async function registerOnFirstSight(input: In<'identity' | 'keySet'>, identity: AgentIdentity, signing: string[]): Promise<Refused | { registered: boolean }> {
  // Stryker disable next-line ConditionalExpression: reading the card again on the same first sight gives the same answer
  if (!input.keySet.cardChecked) {
    const card = await readCard(input);
    if (isRefused(card)) return card;
  }
  await input.ports.registrations.put({ agentUrl: identity.agentUrl, thumbprints: signing, registeredAt: input.now });
  return { registered: true };
}
