import { AGENT_CHECK_PROBLEMS as C, type AgentCheckProblemCode } from '../spec/agent-check.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { ED25519_JWK } from '../spec/wire.js';
import { judgeKeySet, KEY_SET_PROBLEMS as K, type KeySetProblem, type KeySetProblemKind } from '../verifier/key-set.js';
import { exposedKeyMessage, privateMembersOf, problem, shown, type AgentProblem } from './problems.js';

const RULE = REQUIREMENTS.agentKeySetRules.id;
const MAX = LIMITS.keysPerKeySet.value;

/** The Ed25519 keys a key set publishes (thumbprint and x), as far as they are valid. */
export interface PublishedEd25519 {
  readonly thumbprint: string;
  readonly x: string;
}

/** A member as a message names it: `use "enc"`, or `no use member` when it is absent (never "use nothing"). */
const member = (name: string, value: unknown) => (value === undefined ? `no ${name} member` : `${name} ${shown(value)}`);

/** What platforms do with an entry the verifier passes over: either reading of READING-KEY-SET-UNUSABLE-ENTRY. */
const PASSED_OVER =
  'Platforms pass over an entry they cannot use (RFC 7517 section 5) or refuse the whole set (2.4 admits Ed25519 signing keys only), so it can only hurt: remove it.';

/**
 * The words of each problem the one judge (src/verifier/key-set.ts) finds: what was found, what 2.4 wants, how to
 * fix it. The verdict is the judge's: a problem that refuses the set is an error, one that leaves it valid a warning.
 */
const WORDS: Readonly<Record<KeySetProblemKind, (p: KeySetProblem, at: string) => { code: AgentCheckProblemCode; message: string; rule?: string }>> = {
  [K.notJwkSet]: (p) => ({
    code: C.keySetNotJwkSet,
    message: `The key set is not a JWK Set (${p.detail}). 2.4 wants {"keys": [ … ]} with Ed25519 public keys.`,
  }),
  [K.noUsableKey]: (p) =>
    p.count === 0
      ? {
          code: C.keySetEmpty,
          message: 'The key set\'s "keys" array is empty, so nothing this agent signs can verify. Publish the agent\'s Ed25519 public key in it.',
        }
      : {
          code: C.keySetNoUsableKey,
          message: `None of the ${p.count} entries is an Ed25519 public key with use "sig", so nothing this agent signs toward the platform can verify (2.4: entries are Ed25519 keys; an RSA key only rides beside them). Publish the agent's Ed25519 public key.`,
        },
  [K.tooManyKeys]: (p) => ({
    code: C.keySetTooManyKeys,
    rule: LIMITS.keysPerKeySet.id,
    message: `The key set holds ${p.count} Ed25519 keys; 2.4 and section 8 allow at most ${MAX}, and the platform refuses the whole set. Remove retired keys (keep the current one and the one you are rotating to).`,
  }),
  [K.entriesOverLimit]: (p) => ({
    code: C.keySetEntriesOverLimit,
    rule: LIMITS.keysPerKeySet.id,
    message: `The key set holds ${p.count} entries, at most ${MAX} of them Ed25519 signing keys. A platform counting every entry against section 8's "Keys per key set 16" refuses the whole set (READING-KEY-SET-RSA); keep ${MAX} entries or fewer in all.`,
  }),
  [K.testKey]: (_p, at) => ({
    code: C.keyIsTestKey,
    message: `${at} is an RFC 9421 Appendix B test key, whose private half is published in the RFC: anyone can sign as this agent. 2.4 never admits it. Generate a key of your own (agent-platform-conformance keygen) and publish that.`,
  }),
  [K.privateKey]: (p, at) => ({
    code: C.keyPrivate,
    message: exposedKeyMessage(`${at}`, privateMembersOf(p.entry).length ? privateMembersOf(p.entry) : ['d']),
  }),
  [K.entryNotObject]: (p, at) => ({
    code: C.keyNotEd25519,
    message: `${at} is ${shown(p.entry)}, not a JWK object. ${PASSED_OVER}`,
  }),
  [K.entryNotEd25519]: (p, at) => {
    const k = p.entry as Record<string, unknown>;
    return {
      code: C.keyNotEd25519,
      message: `${at} has ${member('kty', k.kty)} and ${member('crv', k.crv)}; 2.4 admits Ed25519 keys (kty "${ED25519_JWK.kty}", crv "${ED25519_JWK.crv}") and, between SDK agents, an RSA key. ${PASSED_OVER}`,
    };
  },
  [K.entryInvalidX]: (p, at) => ({
    code: C.keyInvalidX,
    message: `${at} ${(p.entry as Record<string, unknown>).x === undefined ? 'has no x member' : `has x ${shown((p.entry as Record<string, unknown>).x)}, which is not 32 bytes of base64url (no padding)`}: no verifier can use it. x must be the raw Ed25519 public key, base64url encoded (43 characters). ${PASSED_OVER}`,
  }),
  [K.entryUseNotSig]: (p, at) => ({
    code: C.keyUseNotSig,
    message: `${at} has ${member('use', (p.entry as Record<string, unknown>).use)}, so it is not a signing key and verifies nothing; 2.4 wants use "${ED25519_JWK.use}". Set "use": "${ED25519_JWK.use}" if the agent signs with it. ${PASSED_OVER}`,
  }),
  [K.entryUseMissing]: (_p, at) => ({
    code: C.keyUseMissing,
    message: `${at} has no use member; 2.4 writes the entries as use "${ED25519_JWK.use}", and a platform reading that strictly refuses the set (READING-KEY-SET-UNUSABLE-ENTRY). Add "use": "${ED25519_JWK.use}".`,
  }),
  [K.rsaKey]: (_p, at) => ({
    code: C.keyRsaBesideEd25519,
    message: `${at} is an RSA key, which 2.4 allows between SDK agents. The platform verifies signed requests with Ed25519 keys only and passes over this one: sign toward the platform with an Ed25519 key of this set.`,
  }),
  [K.duplicateKey]: (_p, at) => ({
    code: C.keyDuplicate,
    message: `${at} repeats a key published earlier in the set (same RFC 7638 thumbprint). Remove the copy.`,
  }),
  [K.duplicateKid]: (p, at) => ({
    code: C.keyKidDuplicate,
    message: `${at} reuses the kid ${shown((p.entry as Record<string, unknown>).kid)} of another key (RFC 7517 4.5: different keys SHOULD have distinct kid values). Platforms select keys by thumbprint; set each kid to its key's RFC 7638 thumbprint.`,
  }),
};

/**
 * 2.4: every problem of a key set document (not only the first), as the verifier's judge finds them, and the Ed25519
 * keys it publishes. An error here is exactly what makes the verifier refuse the set with key_set_invalid.
 */
export function judgeKeySetDocument(document: unknown, url: string): { problems: AgentProblem[]; keys: PublishedEd25519[] } {
  const judged = judgeKeySet(document);
  const problems = judged.problems.map((p) => {
    const words = WORDS[p.kind](p, p.index === undefined ? 'The key set' : `keys[${p.index}]`);
    return problem(words.code, words.rule ?? RULE, url, words.message, p.severity === 'refuses' ? 'error' : 'warning');
  });
  // A key set that is itself a private JWK (not a JWK Set) publishes the private key: say so first, whatever else.
  const exposed = privateMembersOf(document);
  if (exposed.length > 0) problems.unshift(problem(C.keyPrivate, RULE, url, exposedKeyMessage('The key set is itself a JWK, not a JWK Set, and', exposed)));
  return { problems, keys: judged.keys.map((k) => ({ thumbprint: k.thumbprint, x: k.jwk.x })) };
}
