import { FRAME_MEMBERS, INBAND_FRAME_TYPES, INBAND_SCHEMES, PAYMENT_SUBMIT_MEMBERS } from '../../spec/inband.js';
import { isJsonObject } from '../json.js';
import { at, checkType, describe, frameObject, Problems, type InbandCheck } from './problems.js';

/** 6: payment.submit with payment.scheme balance. */
export function checkPaymentSubmitFrame(value: unknown): InbandCheck {
  const problems = new Problems();
  if (frameObject(value, problems) && checkType(value, [INBAND_FRAME_TYPES.paymentSubmit], problems)) {
    const payment = value[FRAME_MEMBERS.payment];
    const paymentAt = at('', FRAME_MEMBERS.payment);
    if (!isJsonObject(payment)) problems.add(paymentAt, `must be the payment object, is ${describe(payment)}`);
    else if (payment[PAYMENT_SUBMIT_MEMBERS.scheme] !== INBAND_SCHEMES.balance) {
      problems.add(
        at(paymentAt, PAYMENT_SUBMIT_MEMBERS.scheme),
        `must be "${INBAND_SCHEMES.balance}" after the challenge was paid, is ${describe(payment[PAYMENT_SUBMIT_MEMBERS.scheme])}`,
      );
    }
  }
  return problems.result();
}
