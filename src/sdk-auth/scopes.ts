import { SDK_SCOPE_PREFIXES, SDK_SCOPE_WILDCARD_SUFFIX } from '../spec/sdk-auth.js';

/**
 * Whether allowed_scopes accepts a scope (2.1): an exact entry, or an entry ending in `:*` whose text before the
 * `*` (colon included) starts the scope. A bare `*` is no wildcard, and `namespace:*` also accepts `namespace:`
 * and `namespace:a:b` (docs/platform-sdk.md e, the Python SDK's _scope_allowed).
 */
export function scopeAllowed(scope: string, allowedScopes: readonly string[]): boolean {
  return allowedScopes.some((entry) => entry === scope || (entry.endsWith(SDK_SCOPE_WILDCARD_SUFFIX) && scope.startsWith(entry.slice(0, -1))));
}

/** The scope claim split on whitespace, keeping those allowed_scopes accepts; the others are dropped silently. */
export function grantedScopes(scopeClaim: string, allowedScopes: readonly string[]): string[] {
  return scopeClaim.split(/\s+/).filter((s) => s !== '' && scopeAllowed(s, allowedScopes));
}

/** 2.3: namespaces from namespace:<name> scopes; the name is the text up to the next colon (`namespace:a:b` gives a). */
export function namespacesOf(scopes: readonly string[]): string[] {
  return scopes.filter((s) => s.startsWith(SDK_SCOPE_PREFIXES.namespace)).map((s) => s.slice(SDK_SCOPE_PREFIXES.namespace.length).split(':')[0]!);
}
