/** The two slugs of one bundle published by two users, split as `<prefix>-<userId6>-<bundleSlug>` (4.5 step 2). */
export interface SlugPair {
  readonly prefix: string;
  readonly users: readonly [string, string];
  readonly bundle: string;
}

const USER_ID_LENGTH = 6;

/**
 * Splits two agent slugs minted for the same bundle by two users into a shared prefix, a six-character user part
 * each (different, as the users are) and a shared bundle slug; null when no such split exists. Neither the prefix
 * nor the bundle slug is given by the spec, so both may hold "-"; only their sameness is judged.
 */
export function splitSlugPair(a: string, b: string): SlugPair | null {
  if (a.length !== b.length) return null;
  for (let i = 1; i + USER_ID_LENGTH + 2 < a.length; i++) {
    const end = i + 1 + USER_ID_LENGTH;
    if (a[i] !== '-' || b[i] !== '-' || a[end] !== '-' || b[end] !== '-') continue;
    if (a.slice(0, i) !== b.slice(0, i) || a.slice(end + 1) !== b.slice(end + 1)) continue;
    const users = [a.slice(i + 1, end), b.slice(i + 1, end)] as const;
    if (users[0] !== users[1]) return { prefix: a.slice(0, i), users, bundle: a.slice(end + 1) };
  }
  return null;
}

/** N of a remix's slug: `<slug>-r<N>` with N a positive integer, else null. */
export function remixNumberOf(remix: string, original: string): number | null {
  const match = /^-r([1-9][0-9]*)$/.exec(remix.startsWith(original) ? remix.slice(original.length) : '');
  return match ? Number(match[1]) : null;
}
