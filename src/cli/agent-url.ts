import { WELL_KNOWN } from '../spec/wire.js';
import { UsageError } from './errors.js';

export interface AgentUrls {
  /** Without a trailing slash: the card's `url`. */
  readonly agentUrl: string;
  /** The key set URL named in Signature-Agent and the card's `jwks_uri`. */
  readonly keySetUrl: string;
  /** The card's own URL: its `client_id`. */
  readonly cardUrl: string;
}

/** Checks an --agent-url value and derives the documents' URLs from it (2.4, 5.2). */
export function agentUrls(value: string, command: string): AgentUrls {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--agent-url must be an absolute URL such as https://agents.example/a/alice, not "${value}"`, command);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--agent-url must be an https URL, not ${url.protocol}`, command);
  if (url.search !== '' || url.hash !== '') throw new UsageError('--agent-url must not carry a query or fragment', command);
  const agentUrl = url.href.replace(/\/+$/, '');
  for (const suffix of [WELL_KNOWN.jwks, WELL_KNOWN.agentCard]) {
    if (agentUrl.endsWith(suffix)) {
      throw new UsageError(`--agent-url is the agent URL itself; leave off ${suffix} (try ${agentUrl.slice(0, -suffix.length)})`, command);
    }
  }
  return { agentUrl, keySetUrl: agentUrl + WELL_KNOWN.jwks, cardUrl: agentUrl + WELL_KNOWN.agentCard };
}
