import { jwkThumbprint } from '../httpsig/index.js';
import { AGENT_CHECK_PROBLEMS as P } from '../spec/agent-check.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { ED25519_JWK } from '../spec/wire.js';
import type { PublishedEd25519 } from './key-set.js';
import { exposedKeyMessage, privateMembersOf, problem, shown, type AgentProblem } from './problems.js';

/**
 * 2.4: the key directory at the origin has media type application/http-message-signatures-directory+json and lists
 * the Ed25519 keys of every agent the server hosts, one entry per thumbprint; so it lists this agent's keys.
 */
export function judgeKeyDirectoryDocument(
  mediaType: string | undefined,
  document: unknown,
  url: string,
  agentKeys: readonly PublishedEd25519[],
): AgentProblem[] {
  const problems: AgentProblem[] = [];
  if (mediaType !== MEDIA_TYPES.keyDirectory) {
    problems.push(
      problem(
        P.directoryMediaType,
        REQUIREMENTS.keyDirectoryMediaType.id,
        url,
        `The key directory is served as ${shown(mediaType ?? null)}; 2.4 wants Content-Type ${MEDIA_TYPES.keyDirectory}. Set that Content-Type on ${url} (static hosts need a rule for the extension-less file).`,
      ),
    );
  }
  const exposed = privateMembersOf(document);
  if (exposed.length > 0)
    problems.push(
      problem(P.keyPrivate, REQUIREMENTS.keyDirectoryEntries.id, url, exposedKeyMessage('The key directory is itself a JWK, not a JWK Set, and', exposed)),
    );
  const entries = (document as { keys?: unknown } | null)?.keys;
  if (typeof document !== 'object' || document === null || !Array.isArray(entries)) {
    problems.push(
      problem(
        P.directoryNotKeys,
        REQUIREMENTS.keyDirectoryEntries.id,
        url,
        `The key directory is ${shown(document)}; it must be a JWK Set {"keys": [ … ]} listing the hosted agents' Ed25519 keys.`,
      ),
    );
    return problems;
  }
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const k = (entry ?? {}) as Record<string, unknown>;
    const entryExposed = privateMembersOf(entry);
    if (entryExposed.length > 0) {
      problems.push(problem(P.keyPrivate, REQUIREMENTS.keyDirectoryEntries.id, url, exposedKeyMessage(`keys[${index}] of the key directory`, entryExposed)));
      return;
    }
    if (k.kty !== ED25519_JWK.kty || k.crv !== ED25519_JWK.crv || typeof k.x !== 'string' || 'd' in k) {
      problems.push(
        problem(
          P.directoryEntryInvalid,
          REQUIREMENTS.keyDirectoryEntries.id,
          url,
          `keys[${index}] of the key directory is ${shown(entry)}; each entry must be an Ed25519 public key (kty OKP, crv Ed25519, x, no d).`,
        ),
      );
      return;
    }
    const thumbprint = jwkThumbprint({ kty: ED25519_JWK.kty, crv: ED25519_JWK.crv, x: k.x });
    if (seen.has(thumbprint)) {
      problems.push(
        problem(
          P.directoryDuplicate,
          REQUIREMENTS.keyDirectoryEntries.id,
          url,
          `keys[${index}] repeats the key with thumbprint ${thumbprint}; 2.4 wants one entry per thumbprint. Remove the duplicate.`,
        ),
      );
    }
    seen.add(thumbprint);
  });
  const missing = agentKeys.filter((key) => !seen.has(key.thumbprint));
  if (missing.length > 0) {
    problems.push(
      problem(
        P.directoryLacksAgentKey,
        REQUIREMENTS.keyDirectoryEntries.id,
        url,
        `The key directory does not list ${missing.map((k) => k.thumbprint).join(', ')}, which the agent's key set publishes; 2.4 wants every hosted agent's Ed25519 keys in it. Add them (kid = RFC 7638 thumbprint).`,
      ),
    );
  }
  return problems;
}
