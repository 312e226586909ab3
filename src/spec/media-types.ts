/** Media types the spec names. */
export const MEDIA_TYPES = Object.freeze({
  json: 'application/json',
  problemJson: 'application/problem+json',
  keyDirectory: 'application/http-message-signatures-directory+json',
  eventStream: 'text/event-stream',
  html: 'text/html',
  formUrlEncoded: 'application/x-www-form-urlencoded',
  javascript: 'text/javascript',
});
