import { AGENT_TOKEN_ROUTE, CLIENT_CREDENTIALS_GRANT } from '../../spec/agent-endpoints.js';
import { SDK_JWT_ALGORITHMS } from '../../spec/sdk-auth.js';
import { CARD_FIELDS, WELL_KNOWN } from '../../spec/wire.js';
import { publicEd25519, publicRsa, type AgentKeys } from './keys.js';

/** The URLs an agent's documents live at, derived from the agent URL (2.4). */
export interface AgentDocumentUrls {
  /** No trailing slash. */
  readonly agentUrl: string;
  readonly cardUrl: string;
  readonly keySetUrl: string;
  readonly openidConfigurationUrl: string;
  readonly tokenUrl: string;
  /** At the origin (2.4, 4.3), not under the agent URL. */
  readonly keyDirectoryUrl: string;
}

export function agentDocumentUrls(agentUrl: string): AgentDocumentUrls {
  const base = agentUrl.replace(/\/+$/, '');
  return {
    agentUrl: base,
    cardUrl: base + WELL_KNOWN.agentCard,
    keySetUrl: base + WELL_KNOWN.jwks,
    openidConfigurationUrl: base + WELL_KNOWN.openidConfiguration,
    tokenUrl: base + AGENT_TOKEN_ROUTE,
    keyDirectoryUrl: new URL(base).origin + WELL_KNOWN.keyDirectory,
  };
}

/** 2.4: the card names itself (client_id, url, jwks_uri) and carries no key. */
export function agentCard(urls: AgentDocumentUrls, name: string, description: string): Record<string, unknown> {
  return {
    [CARD_FIELDS.clientId]: urls.cardUrl,
    [CARD_FIELDS.url]: urls.agentUrl,
    [CARD_FIELDS.jwksUri]: urls.keySetUrl,
    name,
    description,
  };
}

/** 2.4: the Ed25519 identity; the RSA key only when asked (between SDK agents a key set may carry one). */
export function agentKeySet(keys: AgentKeys, options: { readonly includeRsa?: boolean } = {}): { keys: unknown[] } {
  return { keys: [publicEd25519(keys), ...(options.includeRsa ? [publicRsa(keys)] : [])] };
}

/** 4.3: OpenID Connect discovery (only the members that describe what this agent serves). */
export function openidConfiguration(urls: AgentDocumentUrls): Record<string, unknown> {
  return {
    issuer: urls.agentUrl,
    jwks_uri: urls.keySetUrl,
    token_endpoint: urls.tokenUrl,
    grant_types_supported: [CLIENT_CREDENTIALS_GRANT],
    token_endpoint_auth_methods_supported: ['client_secret_post'],
    id_token_signing_alg_values_supported: [SDK_JWT_ALGORITHMS.ed25519, SDK_JWT_ALGORITHMS.rsa],
  };
}
