import { randomBytes } from 'node:crypto';

/** The platform SDK's nonce length: 64 random bytes (88 characters of standard base64). */
export const NONCE_BYTES = 64;

export function randomNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64');
}
