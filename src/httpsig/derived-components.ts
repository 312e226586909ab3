/**
 * RFC 9421 §2.2 derived component values, taken from the WHATWG-parsed target URI: the same parse the
 * platform SDK signs with, so a verifier and that signer agree on normalisation.
 */
const asUrl = (url: string | URL): URL => (typeof url === 'string' ? new URL(url) : url);

/** §2.2.3: lower-case host, the scheme's default port dropped, any other port kept, IPv6 in brackets. */
export function deriveAuthority(url: string | URL): string {
  return asUrl(url).host;
}

/** §2.2.6: absolute path, "/" when empty; existing percent-encoding kept as received. */
export function derivePath(url: string | URL): string {
  return asUrl(url).pathname || '/';
}

/** §2.2.7: "?" plus the query, "?" alone when there is none or it is empty. */
export function deriveQuery(url: string | URL): string {
  return asUrl(url).search || '?';
}
