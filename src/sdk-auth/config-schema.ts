import { AUTH_SKILL_FIELDS as F, ISSUER_TYPES } from '../spec/sdk-auth.js';

const httpUrl = {
  type: 'string',
  format: 'uri',
  pattern: '^https?://[^\\s/?#]+[^\\s]*$',
  description: 'an absolute http(s) URL',
} as const;

const globList = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  description: 'glob patterns (fnmatch: * and ? and [...]; a leading @ is ignored)',
} as const;

/** 2.1 as JSON Schema 2020-12: the auth skill configuration (key skills.auth). Unknown members are refused. */
export const AUTH_SKILL_CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://agent-platform-conformance.example/schema/auth-skill-config.schema.json',
  title: 'Auth skill configuration (skills.auth, spec 2.1)',
  type: 'object',
  required: [F.baseUrl],
  additionalProperties: false,
  properties: {
    [F.authority]: { ...httpUrl, description: 'When set the mode is Portal; when absent, Self-issued.' },
    [F.agentId]: { type: 'string', minLength: 1 },
    [F.baseUrl]: {
      type: 'string',
      anyOf: [httpUrl, { type: 'string', pattern: '^@[A-Za-z0-9][A-Za-z0-9._-]*$' }],
      description: 'The agent URL (the aud inbound tokens must carry), or @name.',
    },
    [F.tokenTtl]: { type: 'integer', minimum: 1, description: 'Token lifetime in seconds, default 300.' },
    [F.allowedScopes]: {
      type: 'array',
      items: { type: 'string', pattern: '^\\S+$' },
      description: 'Scopes this agent accepts; an entry ending in :* accepts every scope with that prefix.',
    },
    [F.trustedIssuers]: {
      type: 'array',
      items: {
        type: 'object',
        required: ['issuer', 'jwks_uri'],
        additionalProperties: false,
        properties: {
          issuer: httpUrl,
          jwks_uri: httpUrl,
          type: { type: 'string', enum: Object.values(ISSUER_TYPES) },
        },
      },
    },
    [F.allow]: globList,
    [F.deny]: globList,
    [F.identityProvider]: {
      type: 'object',
      additionalProperties: false,
      required: ['client_id'],
      properties: {
        client_id: { type: 'string', minLength: 1 },
        client_secret: { type: 'string', minLength: 1 },
        hosted_domain: { type: 'string', minLength: 1 },
      },
    },
    [F.keysDir]: { type: 'string', minLength: 1 },
    [F.jwksCacheTtl]: { type: 'integer', minimum: 0, description: 'Key set cache lifetime in seconds, default 3600.' },
  },
} as const;

/** The configuration as 2.1 lists it, after validation. */
export interface AuthSkillConfig {
  readonly authority?: string;
  readonly agent_id?: string;
  readonly base_url: string;
  readonly token_ttl?: number;
  readonly allowed_scopes?: readonly string[];
  readonly trusted_issuers?: readonly TrustedIssuerConfig[];
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly identity_provider?: { readonly client_id: string; readonly client_secret?: string; readonly hosted_domain?: string };
  readonly keys_dir?: string;
  readonly jwks_cache_ttl?: number;
}

export interface TrustedIssuerConfig {
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly type?: (typeof ISSUER_TYPES)[keyof typeof ISSUER_TYPES];
}
