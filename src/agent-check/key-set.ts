import { jwkThumbprint } from '../httpsig/index.js';
import { AGENT_CHECK_PROBLEMS as P } from '../spec/agent-check.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { ED25519_JWK, RFC9421_TEST_KEYS } from '../spec/wire.js';
import { problem, shown, type AgentProblem } from './problems.js';

const RULE = REQUIREMENTS.agentKeySetRules.id;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The Ed25519 keys a key set publishes (thumbprint and x), as far as they are valid. */
export interface PublishedEd25519 {
  readonly thumbprint: string;
  readonly x: string;
}

function entryProblems(entry: unknown, index: number, url: string): AgentProblem[] {
  const at = `keys[${index}]`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return [
      problem(
        P.keyNotEd25519,
        RULE,
        url,
        `${at} is ${shown(entry)}, not a JWK object. Each entry must be a public key object {"kty":"OKP","crv":"Ed25519","x":"…","use":"sig"}.`,
      ),
    ];
  }
  const k = entry as Record<string, unknown>;
  if (k.kty === 'RSA') {
    return [
      problem(
        P.keyRsaBesideEd25519,
        RULE,
        url,
        `${at} is an RSA key, which 2.4 allows between SDK agents. The platform verifies signed requests with Ed25519 keys only and passes over this one: sign toward the platform with an Ed25519 key of this set.`,
        'warning',
      ),
    ];
  }
  const found: AgentProblem[] = [];
  if (k.kty !== ED25519_JWK.kty || k.crv !== ED25519_JWK.crv) {
    found.push(
      problem(
        P.keyNotEd25519,
        RULE,
        url,
        `${at} has kty ${shown(k.kty)} and crv ${shown(k.crv)}; 2.4 admits Ed25519 keys only (kty "${ED25519_JWK.kty}", crv "${ED25519_JWK.crv}"). Replace it with an Ed25519 public key (keygen writes one).`,
      ),
    );
  }
  if (k.use !== ED25519_JWK.use) {
    found.push(
      problem(P.keyUseNotSig, RULE, url, `${at} has use ${shown(k.use)}; 2.4 wants use "${ED25519_JWK.use}". Add "use": "${ED25519_JWK.use}" to the entry.`),
    );
  }
  if ('d' in k) {
    found.push(
      problem(
        P.keyPrivate,
        RULE,
        url,
        `${at} carries the private member d: the private key is public now. Remove d from the published key set at once, generate a new key (the old one is compromised) and publish only kty, crv, x, use and kid.`,
      ),
    );
  }
  if (typeof k.x !== 'string' || !BASE64URL.test(k.x) || Buffer.from(k.x, 'base64url').length !== 32) {
    found.push(
      problem(
        P.keyInvalidX,
        RULE,
        url,
        `${at} has x ${shown(k.x)}, which is not 32 bytes of base64url (no padding). x must be the raw Ed25519 public key, base64url encoded (43 characters).`,
      ),
    );
  } else if (RFC9421_TEST_KEYS.ed25519X.includes(k.x)) {
    found.push(
      problem(
        P.keyIsTestKey,
        RULE,
        url,
        `${at} is the Ed25519 test key of RFC 9421 Appendix B, whose private half is published in the RFC: anyone can sign as this agent. 2.4 never admits it. Generate a key of your own (agent-platform-conformance keygen) and publish that.`,
      ),
    );
  }
  return found;
}

/** 2.4: every problem of a key set document (not only the first), and the valid Ed25519 keys it publishes. */
export function judgeKeySetDocument(document: unknown, url: string): { problems: AgentProblem[]; keys: PublishedEd25519[] } {
  if (typeof document !== 'object' || document === null || Array.isArray(document) || !Array.isArray((document as { keys?: unknown }).keys)) {
    return {
      problems: [
        problem(P.keySetNotJwkSet, RULE, url, `The key set is ${shown(document)}, not a JWK Set. 2.4 wants {"keys": [ … ]} with Ed25519 public keys.`),
      ],
      keys: [],
    };
  }
  const entries = (document as { keys: unknown[] }).keys;
  const problems: AgentProblem[] = [];
  if (entries.length === 0)
    problems.push(
      problem(
        P.keySetEmpty,
        RULE,
        url,
        'The key set\'s "keys" array is empty, so nothing this agent signs can verify. Publish the agent\'s Ed25519 public key in it.',
      ),
    );
  const max = LIMITS.keysPerKeySet.value;
  if (entries.length > max) {
    problems.push(
      problem(
        P.keySetTooManyKeys,
        LIMITS.keysPerKeySet.id,
        url,
        `The key set holds ${entries.length} keys; 2.4 and section 8 allow at most ${max}, and the platform refuses the whole set. Remove retired keys (keep the current one and the one you are rotating to).`,
      ),
    );
  }
  const keys: PublishedEd25519[] = [];
  entries.forEach((entry, index) => {
    const found = entryProblems(entry, index, url);
    problems.push(...found);
    const k = entry as Record<string, unknown>;
    if (found.length === 0 && typeof k.x === 'string') keys.push({ x: k.x, thumbprint: jwkThumbprint({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: k.x }) });
  });
  return { problems, keys };
}
