import { FRAME_MEMBERS, INBAND_SCHEMES, PAYMENT_SUBMIT_MEMBERS } from '../../../spec/inband.js';
import { isJsonObject, type JsonObject } from '../json.js';
import type { InbandCheck, InbandProblem } from './problems.js';

/*
 * The deployment's reading of what a client sends on the agent socket (6). Section 6 shows one client frame,
 * payment.submit "carries payment.scheme balance after the challenge was paid; the turn then runs", and no answer to
 * anything else a client sends ("Other frame kinds and payloads of the socket: not shown", READING-UNPUBLISHED-VALUES):
 * how a message that is not a JSON object, or a payment.submit of another scheme, is refused, and in which words, is
 * each deployment's choice. Whatever this reading lets through, the socket runs only a turn the balance funds.
 */

/** One socket message read as a frame, or why it is not one. */
export type FrameRead = { readonly ok: true; readonly frame: JsonObject } | { readonly ok: false; readonly problems: readonly InbandProblem[] };

const refused = (pointer: string, message: string) => ({ ok: false, problems: [{ pointer, message }] }) as const;

/** Reads one socket message as a frame: JSON text of an object. */
export function parseFrameText(text: string): FrameRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: no value, refused below as no object (section 6 shows no answer to either).
  }
  return isJsonObject(value) ? { ok: true, frame: value } : refused('', 'a frame must be the JSON text of an object');
}

/** 6: whether a client's payment.submit (the socket dispatched on its type) runs the waiting turn: payment.scheme is balance. */
export function checkPaymentSubmitFrame(frame: JsonObject): InbandCheck {
  const payment = frame[FRAME_MEMBERS.payment];
  const scheme = isJsonObject(payment) ? payment[PAYMENT_SUBMIT_MEMBERS.scheme] : undefined;
  if (scheme === INBAND_SCHEMES.balance) return { ok: true };
  return refused(`/${FRAME_MEMBERS.payment}/${PAYMENT_SUBMIT_MEMBERS.scheme}`, `must be "${INBAND_SCHEMES.balance}" after the challenge was paid`);
}
