import type { JWK } from 'jose';
import { signingKeyFromJwk } from '../../sdk-auth/keys.js';
import type { SdkSigningKey } from '../../sdk-auth/mint-token.js';
import { keyFromName } from '../identities.js';
import { FIXED_RSA_PRIVATE_JWK } from './fixed-rsa-key.js';

/** The keys of the SDK-token vectors: Ed25519 from fixed seeds (by name), RSA fixed. */
export interface SdkVectorKeys {
  readonly aliceEd: SdkSigningKey;
  readonly aliceRsa: SdkSigningKey;
  readonly carolEd: SdkSigningKey;
  readonly authorityEd: SdkSigningKey;
  /** Another party's key: signs tokens that claim to come from someone else. */
  readonly malloryEd: SdkSigningKey;
}

async function ed25519(name: string): Promise<SdkSigningKey> {
  return signingKeyFromJwk({ ...keyFromName(`sdk-auth/${name}`).privateJwk } as JWK);
}

export async function sdkVectorKeys(): Promise<SdkVectorKeys> {
  return {
    aliceEd: await ed25519('alice'),
    aliceRsa: await signingKeyFromJwk(FIXED_RSA_PRIVATE_JWK),
    carolEd: await ed25519('carol'),
    authorityEd: await ed25519('authority'),
    malloryEd: await ed25519('mallory'),
  };
}
