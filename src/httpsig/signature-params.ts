/** RFC 9421 §2.3 signature parameter names, in the order the platform SDK writes them. */
export const SIGNATURE_PARAMS = Object.freeze({
  created: 'created',
  expires: 'expires',
  keyid: 'keyid',
  alg: 'alg',
  nonce: 'nonce',
  tag: 'tag',
});

/** RFC 9421 §2.1.2: the component parameter naming a dictionary member. */
export const KEY_PARAM = 'key';

/** The Signature-Agent member parameter naming what the URL points at (5.2). */
export const SIGNATURE_AGENT_TYPE_PARAM = 'type';
