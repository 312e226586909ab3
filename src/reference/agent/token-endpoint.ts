import { timingSafeEqual } from 'node:crypto';
import { readCappedBody } from '../../access/endpoint-body.js';
import { decideContentType } from '../../access/endpoint-content-type.js';
import { AGENT_NAME_SIGIL, CLIENT_CREDENTIALS_GRANT, TOKEN_ERROR_CODES, TOKEN_FORM_FIELDS } from '../../spec/agent-endpoints.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { SDK_TOKEN_TYPE } from '../../spec/sdk-auth.js';
import { renderAnswer } from '../render.js';

/** What the token endpoint asks its minter for: a token for `audience` (the target agent's URL). */
export interface TokenMintRequest {
  readonly audience: string;
  readonly scope: string;
  readonly clientId: string;
}

export interface MintedAgentToken {
  readonly token: string;
  /** Seconds. */
  readonly expiresIn: number;
}

export type TokenMinter = (request: TokenMintRequest) => Promise<MintedAgentToken>;

export interface TokenEndpointOptions {
  /** client_id to client_secret: the callers this agent issues tokens to. */
  readonly clients: Readonly<Record<string, string>>;
  /** The URL of the agent an @name names (its aud); null when the name is unknown. */
  readonly resolveTarget: (name: string) => string | null;
  readonly mint: TokenMinter;
}

/** Form bodies are small; a token request larger than a key set is not one. */
const FORM_CAP = LIMITS.documentSize.value;

function oauthError(status: number, error: string, description: string): Response {
  const headers: Record<string, string> = { [HEADERS.cacheControl]: 'no-store' };
  return renderAnswer({ status, headers, body: { error, error_description: description } });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * 4.3 POST /auth/token with form fields grant_type (client_credentials), client_id, client_secret, scope and
 * target (@name). The response body is not shown in 4.3; this answers the RFC 6749 section 5.1 shape
 * { access_token, token_type, expires_in, scope } and section 5.2 errors.
 */
export async function tokenEndpointResponse(request: Request, options: TokenEndpointOptions): Promise<Response> {
  const badType = decideContentType({ accepts: [MEDIA_TYPES.formUrlEncoded] }, request.method, request.headers.get(HEADERS.contentType), request.body !== null);
  if (badType) return renderAnswer(badType);
  const read = await readCappedBody(request.body, FORM_CAP);
  if (!read.ok) return renderAnswer(read.answer);
  const form = new URLSearchParams(new TextDecoder().decode(read.bytes));
  const field = (name: string) => form.get(name) ?? '';
  const F = TOKEN_FORM_FIELDS;
  for (const name of [F.grantType, F.clientId, F.clientSecret, F.target]) {
    if (field(name) === '') return oauthError(400, TOKEN_ERROR_CODES.invalidRequest, `The form field ${name} is missing or empty.`);
  }
  if (field(F.grantType) !== CLIENT_CREDENTIALS_GRANT) {
    return oauthError(
      400,
      TOKEN_ERROR_CODES.unsupportedGrantType,
      `grant_type must be ${CLIENT_CREDENTIALS_GRANT}, not ${JSON.stringify(field(F.grantType))}.`,
    );
  }
  const expected = Object.hasOwn(options.clients, field(F.clientId)) ? options.clients[field(F.clientId)]! : undefined;
  if (expected === undefined || !sameSecret(field(F.clientSecret), expected)) {
    return oauthError(401, TOKEN_ERROR_CODES.invalidClient, 'The client_id and client_secret do not name a client of this agent.');
  }
  const target = field(F.target);
  const audience = target.startsWith(AGENT_NAME_SIGIL) && target.length > 1 ? options.resolveTarget(target.slice(1)) : null;
  if (audience === null) {
    return oauthError(
      400,
      TOKEN_ERROR_CODES.invalidTarget,
      `target must name a known agent with a leading ${AGENT_NAME_SIGIL}, such as ${AGENT_NAME_SIGIL}alice; got ${JSON.stringify(target)}.`,
    );
  }
  const scope = field(F.scope);
  const minted = await options.mint({ audience, scope, clientId: field(F.clientId) });
  return renderAnswer({
    status: 200,
    headers: { [HEADERS.cacheControl]: 'no-store' },
    body: { access_token: minted.token, token_type: SDK_TOKEN_TYPE, expires_in: minted.expiresIn, scope },
  });
}
