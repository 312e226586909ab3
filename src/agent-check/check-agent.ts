import { mediaTypeOf } from '../fetch/rules.js';
import { AGENT_CHECK_PROBLEMS as P } from '../spec/agent-check.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { WELL_KNOWN } from '../spec/wire.js';
import type { DocumentFetcher, FetchFailureReason, FetchOutcome } from '../verifier/ports.js';
import { judgeCardDocument } from './card.js';
import { judgeKeyDirectoryDocument } from './key-directory.js';
import { judgeKeySetDocument } from './key-set.js';
import { problem, type AgentProblem } from './problems.js';

export type AgentDocumentName = 'card' | 'key_set' | 'key_directory';

export interface CheckedDocument {
  readonly name: AgentDocumentName;
  readonly url: string;
  /** The HTTP status, or null when no answer came (refused before connecting, network failure, timeout). */
  readonly status: number | null;
  /** Whether it was read under the fetch rules and passed every check. */
  readonly ok: boolean;
}

/** The report of `check-agent --json`: one document. */
export interface AgentCheckReport {
  readonly agent_url: string;
  /** True when no problem of level error was found. */
  readonly ok: boolean;
  /** True when no document could be reached at all (network, DNS, timeout, refused address): exit 3. */
  readonly unreachable: boolean;
  readonly documents: readonly CheckedDocument[];
  readonly problems: readonly AgentProblem[];
}

/** The URLs 2.4 derives from an agent URL; the key directory is at the origin. */
export function agentCheckUrls(agentUrl: string): { agentUrl: string; cardUrl: string; keySetUrl: string; keyDirectoryUrl: string } {
  const base = agentUrl.replace(/\/+$/, '');
  return {
    agentUrl: base,
    cardUrl: base + WELL_KNOWN.agentCard,
    keySetUrl: base + WELL_KNOWN.jwks,
    keyDirectoryUrl: new URL(base).origin + WELL_KNOWN.keyDirectory,
  };
}

const FIXES: Readonly<Record<FetchFailureReason, string>> = {
  'not-https': 'Serve it over https with a valid certificate (plain http is for local testing only, with --allow-insecure).',
  redirect:
    'Serve the document at exactly this URL with status 200; platforms never follow redirects (a trailing slash or http-to-https rule on the host is the usual cause).',
  status: 'Serve the document at exactly this URL with status 200.',
  'too-large': 'Keep the document under 64 KiB: publish fewer keys, and no other data.',
  timeout: 'Make the host answer within 5 seconds (connect, headers and body together).',
  // The detail already says which addresses are refused and that DNS records are to be checked: the fix adds, never repeats.
  'address-refused': 'Host it at a publicly routable address, one a platform on the internet can fetch from.',
  dns: 'Check the spelling of the host name, and that it resolves from the internet, not only on your network.',
  network: 'Platforms fetch it from the internet, so it must be reachable from there.',
  'invalid-url': 'Give the agent URL as an absolute https URL.',
};

/** Failures where nothing answered at all: the agent is unreachable rather than wrong. */
const NO_ANSWER: ReadonlySet<FetchFailureReason> = new Set(['timeout', 'dns', 'network']);

function parse(outcome: Extract<FetchOutcome, { ok: true }>, problems: AgentProblem[], requirement: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(outcome.body).toString('utf8')) };
  } catch {
    problems.push(
      problem(
        P.documentNotJson,
        requirement,
        outcome.url,
        `${outcome.url} answered 200, but the body is not JSON. Serve the document itself (JSON), not an HTML page or an error page.`,
      ),
    );
    return { ok: false };
  }
}

/**
 * Fetches an agent's card, key set and key directory with the given fetcher (which applies the fetch rules of 5.2)
 * and reports every problem it finds against 2.4 and 4.3. Pure apart from the fetcher.
 */
export async function checkAgent(agentUrl: string, fetcher: DocumentFetcher): Promise<AgentCheckReport> {
  const urls = agentCheckUrls(agentUrl);
  const [card, keySet, directory] = await Promise.all([fetcher.fetch(urls.cardUrl), fetcher.fetch(urls.keySetUrl), fetcher.fetch(urls.keyDirectoryUrl)]);
  const documents: CheckedDocument[] = [];
  const problems: AgentProblem[] = [];
  const fetchable = REQUIREMENTS.agentDocumentsFetchable.id;

  const record = (name: AgentDocumentName, outcome: FetchOutcome, own: AgentProblem[]) => {
    problems.push(...own);
    documents.push({
      name,
      url: outcome.url,
      status: outcome.ok ? outcome.status : (outcome.status ?? null),
      ok: outcome.ok && !own.some((p) => p.level === 'error'),
    });
  };
  const unreadable = (outcome: Extract<FetchOutcome, { ok: false }>) =>
    problem(P.documentUnreachable, fetchable, outcome.url, `${outcome.detail}. ${FIXES[outcome.reason]}`);

  // The key set first: the directory check needs its keys.
  let agentKeys: ReturnType<typeof judgeKeySetDocument>['keys'] = [];
  if (!keySet.ok) record('key_set', keySet, [unreadable(keySet)]);
  else {
    const own: AgentProblem[] = [];
    const parsed = parse(keySet, own, REQUIREMENTS.agentKeySetRules.id);
    if (parsed.ok) {
      const judged = judgeKeySetDocument(parsed.value, urls.keySetUrl);
      own.push(...judged.problems);
      agentKeys = judged.keys;
    }
    record('key_set', keySet, own);
  }

  if (!card.ok) record('card', card, [unreadable(card)]);
  else {
    const own: AgentProblem[] = [];
    const parsed = parse(card, own, REQUIREMENTS.agentCardSelfNaming.id);
    if (parsed.ok) {
      const judged = judgeCardDocument(parsed.value, urls);
      own.push(...judged.problems);
      if (judged.keySet.kind === 'inline') own.push(...judgeKeySetDocument(judged.keySet.jwks, `${urls.cardUrl}#jwks`).problems);
    }
    record('card', card, own);
  }

  if (!directory.ok && directory.reason === 'status' && directory.status === 404) {
    record('key_directory', directory, [
      problem(
        P.directoryMissing,
        REQUIREMENTS.agentKeyDirectoryWithoutIdentity.id,
        directory.url,
        `${directory.url} answered 404. That is right only when the server has no signing identity (4.3); a server hosting agents that sign should list their Ed25519 keys there, with Content-Type application/http-message-signatures-directory+json, so platforms can use Signature-Agent type=directory.`,
        'warning',
      ),
    ]);
  } else if (!directory.ok) record('key_directory', directory, [unreadable(directory)]);
  else {
    const own: AgentProblem[] = [];
    const parsed = parse(directory, own, REQUIREMENTS.keyDirectoryEntries.id);
    if (parsed.ok) own.push(...judgeKeyDirectoryDocument(mediaTypeOf(directory.headers), parsed.value, directory.url, agentKeys));
    else if (mediaTypeOf(directory.headers) !== undefined)
      own.push(...judgeKeyDirectoryDocument(mediaTypeOf(directory.headers), { keys: [] }, directory.url, []).filter((p) => p.code === P.directoryMediaType));
    record('key_directory', directory, own);
  }

  const order: AgentDocumentName[] = ['card', 'key_set', 'key_directory'];
  documents.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const unreachable = [card, keySet, directory].every((o) => !o.ok && NO_ANSWER.has(o.reason));
  return { agent_url: urls.agentUrl, ok: !problems.some((p) => p.level === 'error'), unreachable, documents, problems };
}
