import { reading } from './record.js';

/** Milliseconds a re-presentation may come before its Retry-After has passed, for the timers of two processes. */
export const RETRY_AFTER_MARGIN_MS = 50;

/** Client mode: how the agent's own side (its signer, its buyer) is read where the spec leaves room. */
export const CLIENT_READINGS = {
  clientRetryAfter: reading('READING-CLIENT-RETRY-AFTER', ['7.4'], 'When a re-presentation has waited for Retry-After', {
    text: '7.4: "re-present exactly the same credential after Retry-After (never before)"; the rows of 429 and funding_unavailable say "retry after Retry-After".',
    standard: 'RFC 9110 section 10.2.3: Retry-After is a number of seconds or an HTTP-date, counted from the answer.',
    accepted: `The next request received no earlier than Retry-After after the platform double finished sending the answer, less ${RETRY_AFTER_MARGIN_MS} ms for the timers of two processes (the client starts its wait only once it has read the answer, so it is never judged early for the answer's transit). Any longer wait; no retry at all.`,
    reference: 'The reference client sleeps exactly Retry-After seconds after reading the answer, then re-presents.',
  }),
  clientSameCredential: reading('READING-CLIENT-SAME-CREDENTIAL', ['3', '7.4'], 'What "exactly the same credential" compares', {
    text: '7.4: "re-present exactly the same credential ... never a fresh one"; 3: "Same credential presented again | Always | Resumes the original charge".',
    standard:
      'The Payment HTTP authentication scheme draft: a credential is the base64url encoding of a JSON object (challenge, payload, source); JSON objects are unordered (RFC 8259).',
    accepted:
      'A credential that decodes to the same challenge, payload and source as the first (compared in their canonical JSON form), whatever its member order or spacing; a different payload (another token, another transfer) or another challenge is a fresh credential.',
    reference: 'The reference client keeps the header value it sent and sends those bytes again.',
  }),
  clientStops: reading('READING-CLIENT-STOPS', ['7.4', '6'], 'A client that stops before a case is done', {
    text: 'The spec says how a buyer answers each code ("re-present", "resend", "pay only where the service challenges") but never that it must buy, or retry, at all: an agent may give up a purchase.',
    accepted:
      'A client that does not pay, does not retry, or exits early breaks no rule: the rules its requests gave no occasion to judge are reported not run, with the reason, never passed. What it did send is judged.',
    reference:
      'The reference client follows every case to its final answer: it pays each challenge with APC_CARD_TOKEN and re-presents or resends as each answer says.',
  }),
  clientEcho: reading('READING-CLIENT-ECHO', ['7.4'], 'What echoing a challenge exactly means', {
    text: '7.4 and the Payment scheme: the credential echoes the challenge it answers.',
    standard:
      "draft-httpauth-payment: the credential's challenge member repeats the challenge's auth-params (id, realm, method, intent, request, expires, and the optional ones) as strings.",
    accepted:
      'Every member the challenge carried, with the same string value, in any member order (mppx writes its own order); a member changed, dropped or added, or an id the platform never issued, is a challenge the platform did not issue.',
    reference: "The reference client echoes the members as they arrived, in the challenge's order.",
  }),
};
