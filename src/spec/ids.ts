/** Stable requirement ids derived from a stable code: `AUTH` + `signature_expired` is `AUTH-SIGNATURE-EXPIRED`. */
export function requirementId(prefix: string, code: string): string {
  return `${prefix}-${code
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toUpperCase()}`;
}
