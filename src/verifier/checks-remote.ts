import { AUTH_CODES } from '../spec/auth-errors.js';
import { ed25519Verify } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { deployedHeader } from '../spec/naming.js';
import { SIGNATURE_AGENT_TYPES } from '../spec/wire.js';
import { judgeCard } from './card.js';
import { refusal, type CheckResult, type SignedContext } from './context.js';
import { judgeKeySet, parseJsonDocument } from './key-set.js';
import { MESSAGES } from './messages.js';
import { andThen, isPromiseLike } from './awaitable.js';
import type { Awaitable, KeySetCacheEntry } from './ports.js';

const encoder = new TextEncoder();

function mediaTypeOf(headers: Readonly<Record<string, string>>): string {
  return (headers[HEADERS.contentType] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Fetches and judges a key set document; a key directory must also carry its media type (2.4). */
async function readKeySet(ctx: SignedContext, url: string, isDirectory: boolean): Promise<KeySetCacheEntry> {
  const at = ctx.now;
  const fetched = await ctx.ports.fetcher.fetch(url);
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
  const judged = judgeKeySet(parsed.value, ctx.config.keySets);
  return judged.ok
    ? { ok: true, keys: judged.keys, at }
    : { ok: false, code: AUTH_CODES.key_set_invalid, description: MESSAGES.keySetInvalid(url, judged.detail), at };
}

/** A card refusal remembered for this agent URL, if still within its memory window. */
async function rememberedCardRefusal(ctx: SignedContext): Promise<CheckResult> {
  const agentUrl = ctx.identity!.agentUrl;
  const remembered = await ctx.ports.cardRefusals.get(agentUrl);
  // Stryker disable next-line EqualityOperator: the memory lasts "about 10 minutes"; the very second it ends is either side
  if (remembered && ctx.now - remembered.at < (ctx.config.cardRefusalMemorySeconds ?? LIMITS.cardRefusalMemory.value)) {
    return refusal(ctx, remembered.code, MESSAGES.rememberedCard(remembered.description));
  }
  return undefined;
}

type CardRead = { refusal: CheckResult; keySetUrl: string | null; inlineKeySet: unknown };

/** Reads and judges the card (2.4); a refusal is remembered per agent URL. */
async function readCard(ctx: SignedContext): Promise<CardRead> {
  const remembered = await rememberedCardRefusal(ctx);
  if (remembered) return { refusal: remembered, keySetUrl: null, inlineKeySet: undefined };
  const identity = ctx.identity!;
  const remember = async (
    code: typeof AUTH_CODES.card_unreachable | typeof AUTH_CODES.card_not_self_naming | typeof AUTH_CODES.card_key_set_mismatch,
    description: string,
  ): Promise<CardRead> => {
    await ctx.ports.cardRefusals.set(identity.agentUrl, { code, description, at: ctx.now });
    return { refusal: refusal(ctx, code, description), keySetUrl: null, inlineKeySet: undefined };
  };
  const fetched = await ctx.ports.fetcher.fetch(identity.cardUrl);
  if (!fetched.ok) return remember(AUTH_CODES.card_unreachable, MESSAGES.cardUnreachable(fetched.detail));
  const parsed = parseJsonDocument(fetched.body);
  if (!parsed.ok) return remember(AUTH_CODES.card_unreachable, MESSAGES.cardUnreachable(`${identity.cardUrl}: ${parsed.detail}`));
  const judged = judgeCard(parsed.value, identity.cardUrl, identity.agentUrl, identity.cardKeySetUrls);
  if (!judged.ok) return remember(judged.code, judged.description);
  return { refusal: undefined, keySetUrl: judged.keySetUrl, inlineKeySet: judged.inlineKeySet };
}

/** For type=cimd the card names the key set: card first, then its jwks_uri or inline jwks. */
async function readKeysThroughCard(ctx: SignedContext): Promise<KeySetCacheEntry | CheckResult> {
  const card = await readCard(ctx);
  if (card.refusal) return card.refusal;
  ctx.cardChecked = true;
  if (card.keySetUrl) return readKeySet(ctx, card.keySetUrl, false);
  const judged = judgeKeySet(card.inlineKeySet, ctx.config.keySets);
  const url = ctx.identity!.cardUrl;
  return judged.ok
    ? { ok: true, keys: judged.keys, at: ctx.now }
    : { ok: false, code: AUTH_CODES.key_set_invalid, description: MESSAGES.keySetInvalid(`${url} (inline jwks)`, judged.detail), at: ctx.now };
}

/** 5.2 caching: a key set is read at most once per 5 minutes per URL; the answer, failure included, is reused. */
export function checkKeySet(ctx: SignedContext): Awaitable<CheckResult> {
  const identity = ctx.identity!;
  const cacheKey = identity.keySetUrl ?? identity.cardUrl;
  ctx.keySetUrl = cacheKey;
  // A cache answering synchronously keeps the cached path free of promises; reading the documents is async.
  return andThen(ctx.ports.keySets.get(cacheKey), (cached) => {
    if (!cached || ctx.now - cached.at >= LIMITS.keySetRereadInterval.value || cached.at > ctx.now) return rereadKeySet(ctx, cacheKey);
    if (identity.type === SIGNATURE_AGENT_TYPES.cimd) ctx.cardChecked = true;
    return useKeySet(ctx, cached);
  });
}

async function rereadKeySet(ctx: SignedContext, cacheKey: string): Promise<CheckResult> {
  const identity = ctx.identity!;
  const read =
    identity.type === SIGNATURE_AGENT_TYPES.cimd
      ? await readKeysThroughCard(ctx)
      : await readKeySet(ctx, cacheKey, identity.type === SIGNATURE_AGENT_TYPES.directory);
  if (read === undefined || 'status' in read) return read;
  await ctx.ports.keySets.set(cacheKey, read);
  return useKeySet(ctx, read);
}

function useKeySet(ctx: SignedContext, entry: KeySetCacheEntry): CheckResult {
  if (!entry.ok) return refusal(ctx, entry.code, entry.description);
  ctx.keys = entry.keys;
  return undefined;
}

/** Every label names a key of the set; one unknown key refuses the whole request. */
export function checkKeyKnown(ctx: SignedContext): CheckResult {
  for (const l of ctx.labels) {
    l.key = ctx.keys!.find((k) => k.thumbprint === l.keyid);
    if (!l.key) return refusal(ctx, AUTH_CODES.signature_key_unknown, MESSAGES.keyUnknown(l.label, l.keyid, ctx.keySetUrl!));
  }
  return undefined;
}

export function checkSignatures(ctx: SignedContext): CheckResult {
  for (const l of ctx.labels) {
    if (!ed25519Verify(l.key!.jwk.x, encoder.encode(l.base), l.signature))
      return refusal(ctx, AUTH_CODES.signature_invalid, MESSAGES.signatureInvalid(l.label));
  }
  return undefined;
}

/** 5.2 key continuity: a registered agent must also sign with a key it holds, or present the operator's platform key. */
export function checkContinuity(ctx: SignedContext): Awaitable<CheckResult> {
  return andThen(ctx.ports.registrations.get(ctx.identity!.agentUrl), (registration) => {
    ctx.registration = registration;
    if (!registration) return undefined;
    const signedWithHeld = ctx.labels.some((l) => registration.thumbprints.includes(l.keyid));
    if (signedWithHeld) return undefined;
    const ownerKeyHeader = deployedHeader(HEADERS.ownerKey, ctx.config.naming);
    const ownerKey = ctx.request.headers.find(([name]) => name.toLowerCase() === ownerKeyHeader)?.[1].trim();
    if (ownerKey && ctx.config.ownerKeys?.includes(ownerKey)) return undefined;
    return refusal(ctx, AUTH_CODES.key_continuity_required, MESSAGES.continuity);
  });
}

/** Nonces are spent only by requests whose signatures verified, so replays cannot burn someone else's. */
export function checkNonces(ctx: SignedContext): Awaitable<CheckResult> {
  let until = -Infinity;
  for (const l of ctx.labels) until = Math.max(until, l.expires);
  return spendNonces(ctx, 0, until + LIMITS.clockSkew.value);
}

/** Spends the nonces of labels `from` onwards, one after the other, stopping at the first replay. */
function spendNonces(ctx: SignedContext, from: number, until: number): Awaitable<CheckResult> {
  for (let n = from; n < ctx.labels.length; n++) {
    const l = ctx.labels[n]!;
    const spent = ctx.ports.nonces.spend(ctx.identity!.agentUrl, l.nonce, until);
    // Stryker disable next-line ConditionalExpression: either branch gives the same answer for a value (andThen awaits only a promise)
    if (isPromiseLike(spent))
      return andThen(spent, (ok) => (ok ? spendNonces(ctx, n + 1, until) : refusal(ctx, AUTH_CODES.signature_replayed, MESSAGES.replayed(l.label))));
    if (!spent) return refusal(ctx, AUTH_CODES.signature_replayed, MESSAGES.replayed(l.label));
  }
  return undefined;
}

/** First sight: the card is read and judged, then the agent is registered with the keys that signed. */
export function checkCardAndRegister(ctx: SignedContext): Awaitable<CheckResult> {
  const signing: string[] = [];
  for (const l of ctx.labels) if (!signing.includes(l.keyid)) signing.push(l.keyid);
  if (ctx.registration) {
    const registration = ctx.registration;
    const added = signing.filter((t) => !registration.thumbprints.includes(t));
    if (added.length) return andThen(ctx.ports.registrations.put({ ...registration, thumbprints: [...registration.thumbprints, ...added] }), () => undefined);
    return undefined;
  }
  return registerOnFirstSight(ctx, signing);
}

async function registerOnFirstSight(ctx: SignedContext, signing: string[]): Promise<CheckResult> {
  const identity = ctx.identity!;
  // Stryker disable next-line ConditionalExpression: reading the card again on the same first sight gives the same answer
  if (!ctx.cardChecked) {
    const card = await readCard(ctx);
    if (card.refusal) return card.refusal;
  }
  await ctx.ports.registrations.put({ agentUrl: identity.agentUrl, thumbprints: signing, registeredAt: ctx.now });
  ctx.registered = true;
  return undefined;
}
