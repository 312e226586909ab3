import { LIMITS } from '../../spec/limits.js';

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
  'fetch-card-slow': [LIMITS.documentTimeout.id],
  'params-keyid-not-thumbprint': [LIMITS.thumbprintLength.id],
  'malformed-signature-63-bytes': [LIMITS.signatureSize.id],
  'body-exactly-4-mib': [LIMITS.signedRequestBody.id],
  'body-too-large-by-one': [LIMITS.signedRequestBody.id],
  'key-set-over-64-kib': [LIMITS.documentSize.id],
  'key-set-slow': [LIMITS.documentTimeout.id],
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
