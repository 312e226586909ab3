import type { IssuerType } from '../spec/sdk-auth.js';

/** 2.3: the verified caller attached to the request context. */
export interface AuthContext {
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly source_agent: string | null;
  readonly authenticated: boolean;
  readonly scopes: readonly string[];
  readonly namespaces: readonly string[];
  readonly issuer: string | null;
  readonly issuer_type: IssuerType;
  readonly raw_claims: Readonly<Record<string, unknown>>;
}

/** 2.3 hasScope(<scope>): whether the context holds the scope exactly (as granted after allowed_scopes). */
export function hasScope(context: AuthContext, scope: string): boolean {
  return context.scopes.includes(scope);
}
