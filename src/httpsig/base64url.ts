/** Base64url without padding, decoded only when canonical (Buffer alone skips stray characters silently). */
export function decodeBase64url(text: string, byteLength: number): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== byteLength || bytes.toString('base64url') !== text) return null;
  return bytes;
}

export const encodeBase64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
