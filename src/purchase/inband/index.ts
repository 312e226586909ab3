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
} from './frames.js';
export { decimalAmount, purchasePointerBody, purchasePointerAnswer, balanceRequiredResult, delegateCompletedResult, type DelegateResult } from './pointer.js';
export { describeProblems, type InbandCheck } from './problems.js';
export { checkPaymentSubmitFrame, parseFrameText } from './submit.js';
export { checkPaymentRequiredFrame, checkFundedFrame, checkPurchasePointerBody, checkPointerResponse, checkBalanceRequired } from './validate.js';
