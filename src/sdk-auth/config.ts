import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../schema/ajv.js';
import { describeSchemaErrors } from '../schema/describe-errors.js';
import { AGENT_MOUNT_PREFIX, AGENT_NAME_SIGIL } from '../spec/agent-endpoints.js';
import { LIMITS } from '../spec/limits.js';
import {
  DEFAULT_ISSUER_TYPE,
  ISSUER_TYPES,
  PORTAL_ROUTES,
  SDK_AUTH_MODES,
  SDK_DEFAULT_ALLOWED_SCOPES,
  SDK_JWT_ALGORITHMS,
  type IssuerType,
  type SdkJwtAlgorithm,
  type SdkAuthMode,
} from '../spec/sdk-auth.js';
import { AUTH_SKILL_CONFIG_SCHEMA, type AuthSkillConfig } from './config-schema.js';
import { refusal, type ConfigProblem, type SdkAuthRefusal } from './refusal.js';

export interface ResolvedTrustedIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly type: IssuerType;
}

/** A validated auth skill with every default applied: what minting and verification read. */
export interface AuthSkill {
  readonly config: AuthSkillConfig;
  readonly mode: SdkAuthMode;
  /** The agent's own URL: the aud an inbound token must carry and the iss of the tokens it mints. */
  readonly agentUrl: string;
  readonly agentId: string | null;
  readonly tokenTtl: number;
  readonly jwksCacheTtl: number;
  readonly allowedScopes: readonly string[];
  readonly trustedIssuers: readonly ResolvedTrustedIssuer[];
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  /** Seconds a token may be past exp, or before nbf, and still verify; 0 unless the options give one (READING-SDK-TOKEN-LEEWAY). */
  readonly clockTolerance: number;
  /** An http issuer on a loopback host has its own key set read too (local conformance runs only; https otherwise). */
  readonly allowInsecureLoopbackIssuers: boolean;
  /** The JWS algorithms inbound tokens may be signed with: EdDSA and RS256 unless the options narrow them (READING-SDK-TOKEN-ALGORITHM). */
  readonly algorithms: readonly SdkJwtAlgorithm[];
}

export interface AuthSkillOptions {
  /** Where @name agents live when no authority is set (the TypeScript component's platformApiUrl, 2.1). */
  readonly platformUrl?: string;
  /**
   * Clock leeway for exp and nbf, in seconds. The spec gives none, and the reference grants none by default; a
   * receiver may grant a little (READING-SDK-TOKEN-LEEWAY), as verifiers of JWTs commonly do.
   */
  readonly clockToleranceSeconds?: number;
  /**
   * Self-issued callers whose iss is plain http on a loopback host (127.0.0.1, [::1], localhost) are admitted like
   * https ones: for local conformance runs, whose fixture host publishes the callers' key sets on loopback. Off by default.
   */
  readonly allowInsecureLoopbackIssuers?: boolean;
  /**
   * The algorithms of the two keys 5.5 names that inbound tokens are verified under: both by default; the TypeScript SDK
   * verifies RS256 only, and an agent may verify EdDSA only (READING-SDK-TOKEN-ALGORITHM). Never empty.
   */
  readonly algorithms?: readonly SdkJwtAlgorithm[];
}

export type AuthSkillResult = { readonly ok: true; readonly skill: AuthSkill } | SdkAuthRefusal;

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator) return validator;
  const ajv = createAjv({ verbose: true });
  validator = ajv.compile(AUTH_SKILL_CONFIG_SCHEMA);
  return validator;
}

/**
 * Validates an auth skill configuration (2.1) and resolves its mode (5.1) and defaults (section 8). A bad
 * configuration is a config_invalid refusal listing every problem with its JSON pointer.
 */
export function createAuthSkill(input: unknown, options: AuthSkillOptions = {}): AuthSkillResult {
  const check = validate();
  if (!check(input)) {
    const problems = configProblems(check.errors ?? []);
    return refusal('config_invalid', problems.map((p) => `${p.pointer || '/'} ${p.message}`).join('; '), problems);
  }
  const config = input as AuthSkillConfig;
  const home = config.authority ?? options.platformUrl;
  let agentUrl = config.base_url;
  if (agentUrl.startsWith(AGENT_NAME_SIGIL)) {
    if (!home) {
      const problem = { pointer: '/base_url', message: 'an @name needs authority (or the platform URL) to become a URL' };
      return refusal('config_invalid', `${problem.pointer} ${problem.message}`, [problem]);
    }
    agentUrl = `${trimSlash(home)}${AGENT_MOUNT_PREFIX}${agentUrl.slice(AGENT_NAME_SIGIL.length)}`;
  }
  const trusted: ResolvedTrustedIssuer[] = (config.trusted_issuers ?? []).map((t) => ({
    issuer: t.issuer,
    jwksUri: t.jwks_uri,
    type: t.type ?? DEFAULT_ISSUER_TYPE,
  }));
  // Portal mode trusts the authority at its key set route unless the configuration already names it.
  if (config.authority && !trusted.some((t) => t.issuer === config.authority)) {
    trusted.push({ issuer: config.authority, jwksUri: `${trimSlash(config.authority)}${PORTAL_ROUTES.jwks}`, type: ISSUER_TYPES.portal });
  }
  const skill: AuthSkill = Object.freeze({
    config,
    mode: config.authority ? SDK_AUTH_MODES.portal : SDK_AUTH_MODES.selfIssued,
    agentUrl,
    agentId: config.agent_id ?? null,
    tokenTtl: config.token_ttl ?? LIMITS.sdkTokenLifetime.value,
    jwksCacheTtl: config.jwks_cache_ttl ?? LIMITS.sdkKeySetCache.value,
    allowedScopes: Object.freeze([...(config.allowed_scopes ?? SDK_DEFAULT_ALLOWED_SCOPES)]),
    trustedIssuers: Object.freeze(trusted),
    allow: Object.freeze([...(config.allow ?? [])]),
    deny: Object.freeze([...(config.deny ?? [])]),
    clockTolerance: Math.max(0, options.clockToleranceSeconds ?? 0),
    allowInsecureLoopbackIssuers: options.allowInsecureLoopbackIssuers === true,
    algorithms: Object.freeze([...(options.algorithms?.length ? options.algorithms : Object.values(SDK_JWT_ALGORITHMS))]),
  });
  return { ok: true, skill };
}

// Where the schema's own words (a regular expression, three errors for one URL) would not help, these say it once.
const FORM_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/base_url$/, 'must be an absolute http(s) URL or an @name (an @ then letters, digits, ".", "_" or "-")'],
  [/^\/(?:authority|trusted_issuers\/\d+\/(?:issuer|jwks_uri))$/, 'must be an absolute http(s) URL'],
  [/^\/allowed_scopes\/\d+$/, 'a scope is one word: no spaces'],
];
const FORM_KEYWORDS = new Set(['format', 'pattern', 'anyOf']);

function configProblems(errors: readonly ErrorObject[]): ConfigProblem[] {
  const own: ConfigProblem[] = [];
  const rest: ErrorObject[] = [];
  for (const error of errors) {
    const words = FORM_KEYWORDS.has(error.keyword) ? FORM_WORDS.find(([at]) => at.test(error.instancePath))?.[1] : undefined;
    if (words === undefined) rest.push(error);
    else if (!own.some((p) => p.pointer === error.instancePath)) own.push({ pointer: error.instancePath, message: words });
  }
  return [...describeSchemaErrors(rest, 'auth skill configuration'), ...own].sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
