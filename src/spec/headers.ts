/**
 * Every header field the spec names, lower-case as HTTP/2 carries them. Names the spec gives with the
 * neutral word Service keep it; a deployment whose headers carry its own name has them derived from these
 * (src/spec/naming.ts: `run --service-name`, `serve --service-name`).
 */
export const HEADERS = Object.freeze({
  signature: 'signature',
  signatureInput: 'signature-input',
  signatureAgent: 'signature-agent',
  contentDigest: 'content-digest',
  acceptSignature: 'accept-signature',
  accept: 'accept',
  allow: 'allow',
  authorization: 'authorization',
  cookie: 'cookie',
  wwwAuthenticate: 'www-authenticate',
  retryAfter: 'retry-after',
  contentType: 'content-type',
  contentLength: 'content-length',
  cacheControl: 'cache-control',
  connection: 'connection',
  link: 'link',
  host: 'host',
  location: 'location',
  ownerKey: 'x-service-owner-key',
  paymentAuthorization: 'payment-authorization',
  paymentReceipt: 'payment-receipt',
  termsVersion: 'service-terms-version',
  termsAccepted: 'service-terms-accepted',
  paymentMethods: 'service-payment-methods',
  purchase: 'service-purchase',
});

export type HeaderName = (typeof HEADERS)[keyof typeof HEADERS];
