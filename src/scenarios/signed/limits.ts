import { LIMITS } from '../../spec/limits.js';
import { SIGNED_REQUIREMENTS as R } from '../../spec/signed-requirements.js';

/**
 * The limits of section 8 each signed-request scenario puts to the test (at or just past the boundary), so the
 * checks built from them name the limit beside the error code.
 */
export const SCENARIO_LIMITS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'valid-skew-boundary': [LIMITS.clockSkew.id],
  'expired-61-seconds-ago': [LIMITS.clockSkew.id],
  'expired-created-61-ahead': [LIMITS.clockSkew.id],
  'valid-window-boundary': [LIMITS.signatureValidity.id],
  'params-window-3601': [LIMITS.signatureValidity.id],
  'params-nonce-empty': [LIMITS.nonceMinLength.id],
  'params-nonce-too-long': [LIMITS.nonceMaxLength.id],
  'params-nonce-one-character': [LIMITS.nonceMinLength.id],
  'params-nonce-256-characters': [LIMITS.nonceMaxLength.id],
  'fetch-key-set-exactly-64-kib': [LIMITS.documentSize.id],
  'fetch-card-exactly-64-kib': [LIMITS.documentSize.id],
  'fetch-card-over-64-kib': [LIMITS.documentSize.id],
  'fetch-card-slow': [LIMITS.documentFetchTimeout.id],
  'params-keyid-not-thumbprint': [LIMITS.thumbprintLength.id],
  'params-keyid-42-characters': [LIMITS.thumbprintLength.id],
  'params-keyid-44-characters': [LIMITS.thumbprintLength.id],
  'malformed-signature-65-bytes': [LIMITS.signatureSize.id],
  'key-set-answered-in-4500-ms': [LIMITS.documentFetchTimeout.id],
  'fetch-card-answered-in-4500-ms': [LIMITS.documentFetchTimeout.id],
  'key-removed-refused-after-reread': [LIMITS.keySetRereadInterval.id],
  'malformed-signature-63-bytes': [LIMITS.signatureSize.id],
  'body-exactly-4-mib': [LIMITS.signedRequestBody.id],
  'body-too-large-by-one': [LIMITS.signedRequestBody.id],
  'key-set-over-64-kib': [LIMITS.documentSize.id],
  'key-set-slow': [LIMITS.documentFetchTimeout.id],
  'key-set-16-keys': [LIMITS.keysPerKeySet.id],
  'key-set-17-keys': [LIMITS.keysPerKeySet.id],
  'key-set-16-keys-and-rsa': [LIMITS.keysPerKeySet.id],
  'throttle-thirty-failures': [LIMITS.failedSignatures.id],
  'throttle-per-address-and-window': [LIMITS.failedSignatures.id, LIMITS.failedSignaturesWindow.id],
  'throttle-failures-age-out': [LIMITS.failedSignatures.id, LIMITS.failedSignaturesWindow.id],
  'replay-until-skew-ends': [LIMITS.clockSkew.id],
  'key-set-failure-cached': [LIMITS.keySetRereadInterval.id],
  'key-set-success-cached': [LIMITS.keySetRereadInterval.id],
  'card-refusal-remembered': [LIMITS.cardRefusalMemory.id],
});

/** The rules beyond a 7.3 code that a signed-request scenario puts to the test (src/spec/signed-requirements.ts). */
export const SCENARIO_RULES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'card-carries-key-signed-by-it': [R.keysFromKeySet.id],
  'card-cimd-carries-key-signed-by-it': [R.keysFromKeySet.id],
  'key-removed-refused-after-reread': [R.keyRemovalRevokes.id],
  'signed-request-ignores-valid-bearer': [R.signatureInputDecides.id],
  'signed-request-ignores-payment-token': [R.signatureInputDecides.id],
  'signed-request-ignores-cookie': [R.signatureInputDecides.id],
  'valid-signed-request-beside-cookie-and-payment-token': [R.signatureInputDecides.id],
  'platform-token-self-signed': [R.agentJwtRefused.id],
  'platform-token-portal-authority': [R.agentJwtRefused.id],
});
