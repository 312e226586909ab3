/**
 * How bridge.openLink treats a URL under the redirectDomains allowlist (2.5): an https URL whose host is
 * exactly a listed domain opens directly; anything else goes through the host's gate (confirmation).
 */
export function openLinkDecision(url: string, allowlist: readonly string[]): 'direct' | 'gated' {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'gated';
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return 'gated';
  return allowlist.includes(parsed.hostname) ? 'direct' : 'gated';
}
