/** In-band purchases (4.7, 6): the frames of the agent socket, the LLM-rail pointer and the delegate's results, and their validators. */
export {
  paymentRequirements,
  paymentRequiredFrame,
  paymentSubmitFrame,
  paymentAcceptedFrame,
  responseCreateFrame,
  responseDoneFrame,
  responseErrorFrame,
  mppChallengeEntry,
  mppPointerEntry,
  serializeFrame,
  type InbandFrame,
} from './wire/inband/frames.js';
export {
  decimalAmount,
  purchasePointerBody,
  purchasePointerAnswer,
  balanceRequiredResult,
  delegateCompletedResult,
  type DelegateResult,
} from './wire/inband/pointer.js';
export { describeProblems, type InbandCheck } from './wire/inband/problems.js';
export { checkPaymentSubmitFrame, parseFrameText } from './wire/inband/submit.js';
export { checkPaymentRequiredFrame, checkFundedFrame, checkPurchasePointerBody, checkPointerResponse, checkBalanceRequired } from './judge/inband-frames.js';
