import type { LimitRecord } from './types.js';

const MiB = 1024 * 1024;
const KiB = 1024;

/** `row` is the section 8 row the number is read from; `name` says what the number measures (the row's name by default). */
const limit = (id: string, row: string, value: number, unit: LimitRecord['unit'], appliesTo: string, condition: string, name = row): LimitRecord =>
  Object.freeze({ id, section: '8', level: 'MUST', row, name, value, unit, appliesTo, condition });

/** Section 8, one record per number: a row with two numbers (size and time, validity and skew) gives two records of that row, each named for its number. */
export const LIMITS = Object.freeze({
  declaredEndpointBody: limit(
    'LIMIT-DECLARED-ENDPOINT-BODY',
    'Declared endpoint request body',
    50 * MiB,
    'bytes',
    'Agent endpoints, 413',
    '50 MiB (52428800 bytes); the platform ceiling, an endpoint may declare a smaller cap',
  ),
  signedRequestBody: limit('LIMIT-SIGNED-REQUEST-BODY', 'Signed request body through digest check', 4 * MiB, 'bytes', 'Signed requests', '4 MiB'),
  documentSize: limit(
    'LIMIT-DOCUMENT-SIZE',
    'Key set and card response size',
    64 * KiB,
    'bytes',
    'Fetches during signature verification',
    '64 KiB, https only, no redirects',
  ),
  documentFetchTimeout: limit(
    'LIMIT-DOCUMENT-TIMEOUT',
    'Key set and card response size',
    5000,
    'milliseconds',
    'Fetches during signature verification',
    'within 5 seconds',
    'Key set and card fetch time',
  ),
  keysPerKeySet: limit('LIMIT-KEYS-PER-KEY-SET', 'Keys per key set', 16, 'count', 'Key set', 'at most 16'),
  signatureValidity: limit('LIMIT-SIGNATURE-VALIDITY', 'Signature validity', 3600, 'seconds', 'Signed requests', 'expires - created at most 3600 s'),
  clockSkew: limit('LIMIT-CLOCK-SKEW', 'Signature validity', 60, 'seconds', 'Signed requests', 'skew tolerance 60 s', 'Clock skew tolerance'),
  nonceMinLength: limit('LIMIT-NONCE-MIN-LENGTH', 'Nonce length', 1, 'characters', 'Signed requests', '1 to 256 characters', 'Shortest nonce'),
  nonceMaxLength: limit('LIMIT-NONCE-MAX-LENGTH', 'Nonce length', 256, 'characters', 'Signed requests', '1 to 256 characters', 'Longest nonce'),
  thumbprintLength: limit('LIMIT-THUMBPRINT-LENGTH', 'Thumbprint length', 43, 'characters', 'keyid', '43 characters'),
  signatureSize: limit('LIMIT-SIGNATURE-SIZE', 'Signature size', 64, 'bytes', 'Signature', '64 bytes'),
  failedSignatures: limit('LIMIT-FAILED-SIGNATURES', 'Failed signatures', 30, 'count', 'All signed requests', '30 in 60 s per client address'),
  failedSignaturesWindow: limit(
    'LIMIT-FAILED-SIGNATURES-WINDOW',
    'Failed signatures',
    60,
    'seconds',
    'All signed requests',
    '30 in 60 s per client address',
    'Failed signatures window',
  ),
  keySetRereadInterval: limit('LIMIT-KEY-SET-REREAD', 'Key set re-read interval', 300, 'seconds', 'Per agent URL', '5 minutes'),
  cardRefusalMemory: limit('LIMIT-CARD-REFUSAL-MEMORY', 'Card refusal memory', 600, 'seconds', 'Per agent URL', 'about 10 minutes'),
  paymentChallengeLifetime: limit('LIMIT-PAYMENT-CHALLENGE-LIFETIME', 'Payment challenge lifetime', 300, 'seconds', 'Challenges', '300 seconds'),
  sdkTokenLifetime: limit('LIMIT-SDK-TOKEN-LIFETIME', 'SDK token lifetime', 300, 'seconds', 'SDK-to-SDK tokens', '300 seconds default'),
  sdkKeySetCache: limit('LIMIT-SDK-KEY-SET-CACHE', 'SDK key set cache', 3600, 'seconds', 'Key set cache', '3600 seconds default'),
  functionSourceSize: limit('LIMIT-FUNCTION-SOURCE-SIZE', 'Function source size', 64 * KiB, 'bytes', 'host.fn publish', '64 KB'),
  serviceUnavailableRetries: limit('LIMIT-SERVICE-UNAVAILABLE-RETRIES', 'service_unavailable retries', 5, 'attempts', 'Bridge', 'about 5 attempts'),
});

export const LIMIT_LIST: readonly LimitRecord[] = Object.freeze(Object.values(LIMITS));

export const PAYMENT_CHALLENGE_LIFETIME_S = LIMITS.paymentChallengeLifetime.value;
