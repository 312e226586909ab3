import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../spec/wire.js';
import { HEADERS } from '../spec/headers.js';
import type { PlatformTokenIssuer } from './platform-token.js';
import { render } from './render.js';
import type { VerifiedRoute } from './routes.js';

/**
 * The 200 body of POST /api/auth/cli/token. The spec shows no body beyond the 401 codes (4.7); this one
 * follows the OAuth token response (RFC 6749 5.1) and adds the agent URL the token speaks for.
 */
export interface CliTokenResponse {
  readonly access_token: string;
  readonly token_type: typeof AUTH_SCHEMES.bearer;
  readonly expires_in: number;
  readonly scope: string;
  /** The verified agent URL (the token's sub); null only for a bearer without a subject. */
  readonly agent_url: string | null;
}

/**
 * POST /api/auth/cli/token (4.7): verified first like every platform route (a refusal answers with the
 * verifier's error_code and error_description); a verified signed request gets a platform token for its
 * agent URL, and a verified platform bearer gets a fresh one for the same subject (a refresh).
 */
export function cliTokenRoute(tokens: PlatformTokenIssuer): VerifiedRoute {
  return {
    name: PLATFORM_ROUTES.cliToken,
    path: PLATFORM_ROUTES.cliToken,
    access: 'verified',
    methods: {
      POST: async ({ verdict }) => {
        const subject = verdict.kind === 'signature' ? verdict.agentUrl : verdict.subject;
        const minted = await tokens.mint(subject);
        const body: CliTokenResponse = {
          access_token: minted.token,
          token_type: AUTH_SCHEMES.bearer,
          expires_in: minted.expiresAt - minted.issuedAt,
          scope: minted.scope,
          agent_url: subject,
        };
        return render({ status: 200, headers: { [HEADERS.cacheControl]: 'no-store' }, body });
      },
    },
  };
}
