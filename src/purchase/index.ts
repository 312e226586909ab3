/**
 * `agent-platform-conformance/purchase`: the purchase machine of 7.4 and section 3. `decidePurchase` (the pack at
 * POST /api/mpp/credits, card or stablecoin), `decideSale` (single-call sales), `settleReported` /
 * `settleTransferReported` (settlement reports credited once), their ports, the wire layer, the in-band frames and the LLM-rail pointer with validators, the Tempo transaction check,
 * the relay rule, and the SDK buyer's pointer rule.
 *
 * The list is deliberate (tests/package/public-exports.test.ts pins it); the steps inside the machine stay inside.
 */
// The wire: JSON, challenges, credentials, answers.
export { isJsonObject, type JsonValue, type JsonObject } from './wire/json.js';
export { canonicalJson, jcsBase64url, tryCanonicalJson } from './wire/canonical-json.js';
export { decodeBase64urlNoPad, decodeBase64urlJson, type Base64urlJsonFailure, type Base64urlJsonResult } from './wire/base64url-json.js';
export { isToken, quotedString } from './wire/auth-params.js';
export { parseAuthenticate, type AuthChallenge, type AuthenticateParse } from './wire/auth-params-parse.js';
export {
  instantOf,
  expiresAtSeconds,
  credentialHeaderOf,
  challengeId,
  challengeEcho,
  createChallenge,
  serializeChallenge,
  type PaymentChallenge,
  type ChallengeEcho,
  type ChallengeInput,
  type ChallengeBinding,
} from './wire/challenge.js';
export {
  challengeFromMembers,
  challengeFromAuthChallenge,
  paymentChallenges,
  singlePaymentChallenge,
  parsePaymentChallenge,
  type ChallengeRejection,
  type ChallengeParse,
  type PaymentChallengeScan,
} from './wire/challenge-parse.js';
export {
  parseCredential,
  sameEcho,
  tokenOf,
  type PaymentCredential,
  type CredentialRejection,
  type CredentialParse,
} from './wire/credential.js';
export { credentialFor, serializeCredential } from './buyer/credential-write.js';
export type { TermsNotice } from './wire/wire.js';
export {
  termsHeaders,
  purchaseAnswer,
  paymentProblemAnswer,
  type PurchaseAnswer,
  type PaidSurface,
  type AnswerDetails,
} from './machine/answers.js';
export {
  STRIPE_REQUEST_MEMBERS,
  STRIPE_PAYMENT_METHOD_TYPE_CARD,
  OPAQUE_MEMBERS,
  CHALLENGE_NONCE_BYTES,
  GRANTED_BODY_MEMBERS,
  BALANCE_MEMBERS,
  RECEIPT_MEMBERS,
  RECEIPT_STATUS_SUCCESS,
  IDEMPOTENCY_KEY_PREFIX,
  DEFAULT_RETRY_AFTER_S,
} from './wire/wire.js';
export { issueChallenge, withFreshChallenge } from './machine/issue.js';
export { receiptOf, grantedAnswer } from './machine/granted.js';
// Ports (clock, random, card processor, store, lock, buyers, stablecoin network...) and outcomes.
export type {
  PurchaseKind,
  ChallengeOffer,
  Awaitable,
  Clock,
  Random,
  ChargeOutcome,
  ChargeReply,
  CardProcessor,
  PurchaseLock,
  BuyerDirectory,
  TermsAssent,
  UnreconciledPayment,
  ChargeAmount,
  IssuedChallenge,
  ChargeState,
  ChargeRecord,
  Grant,
  OpenCharge,
  GrantResult,
  SettledCharge,
  CredentialRecords,
  PurchaseStore,
  PackOffer,
  PurchaseConfig,
  PurchasePorts,
  Receipt,
} from './machine/ports/purchase.js';
export { stablecoinOf, type Stablecoin } from './machine/ports/purchase.js';
export type {
  StablecoinOffer,
  TransferStatus,
  StablecoinNetwork,
  TransferState,
  TransferRecord,
  OpenTransfer,
  TransferStore,
  WalletDailyCaps,
  WalletLocations,
  StablecoinPorts,
} from './machine/ports/stablecoin.js';
export {
  isGranted,
  headerOf,
  surfaceOf,
  trustedHeader,
  acceptedMethods,
  codeAnswer,
  type PurchaseRequest,
  type PurchaseGranted,
  type PurchaseOutcome,
} from './machine/ports/outcome.js';
// The guards, in the order PACK_GUARDS and SALE_GUARDS ask them.
export type { GuardCode, FreshOptions, PurchaseSurface, PurchaseBase, OutcomeOf, PurchaseGuard, TypedGuard, SharedGuard } from './machine/guards/guard.js';
export {
  given,
  givenOf,
  type Given,
  type PurchaseFacts,
  type SaleFacts,
  type FactName,
  type RailSold,
  type Payload,
  type Payment,
  type Opened,
} from './machine/guards/facts.js';
export { orderProblem, type InOrder } from './machine/guards/order.js';
export { presentedCredential, type PresentedCredential } from './machine/presented.js';
export { termsRefusal } from './machine/guards/terms.js';
export { unreconciledRefusal, cardMarketRefusal, ownerlessCapRefusal, type ChargeCandidate } from './machine/guards/refusals.js';
export { serialisePurchase, type LockOutcome } from './machine/guards/lock.js';
// Card charges: records, steps, settlement reports.
export { chargeGrant, chargeRecordFor, chargeOfSameCredential } from './machine/charge/record.js';
export { chargeStep, resumeSend, type ChargeStep } from './machine/charge/step.js';
export { settleReported, type SettlementResult } from './machine/charge/settle.js';
// Stablecoin transfers: records, steps, wallet rules, settlement reports.
export { transferGrant, sameTransfer, transferRecordFor, transferOfSameCredential } from './machine/transfer/record.js';
export { broadcastTransferStep, resumeTransferStep, type TransferStep } from './machine/transfer/step.js';
export { quoteOf, walletPlacementRefusal, countAgainstWalletCap } from './machine/transfer/wallet.js';
export { settleTransferReported, type TransferSettlement } from './machine/transfer/settle.js';
// The pack at POST /api/mpp/credits.
export { cardPackOffer, tempoPackOffer } from './machine/offers.js';
export { offeredMethods, chosenMethod, packOfferFor } from './machine/pack/offer.js';
export { packChargeAnswer, resumeCharge } from './machine/pack/charge.js';
export { freshTransferChallenge, packTransferAnswer, resumeTransfer } from './machine/pack/transfer.js';
export { PACK_GUARDS, type PackBase, type PackGuard } from './machine/pack/guards.js';
export { decidePurchase } from './machine/pack/decide.js';
// Single-call sales.
export type {
  SaleRequest,
  SaleCaps,
  SingleCallOffer,
  SaleConfig,
  SaleState,
  SaleRefund,
  SaleRecord,
  SalePatch,
  SaleStore,
  FundingHold,
  Funding,
  CapCounters,
  CardInstruments,
  AgentAccounts,
  SaleCall,
  CallResponse,
  ServeResult,
  CallServer,
  SalePorts,
} from './machine/sale/ports.js';
export { SALE_OPAQUE_MEMBERS, UNIDENTIFIED_PAYER_PREFIX, HOLD_KEY_PREFIXES, HOLD_KEY_BYTES, CAP_COUNTERS, CAP_DAY_SECONDS } from './machine/sale/wire.js';
export {
  SINGLE_CALL_OFFERS,
  callMethodsOffered,
  offerFor,
  freshSaleChallenge,
  accountOf,
  isCallHere,
  perCallCardInstrument,
  type CallOfferMaker,
} from './machine/sale/offer.js';
export { capCounters, takeCaps, type CapCounter, type CapSubject, type CapOutcome } from './machine/sale/caps.js';
export { isCallAnswer, callAnswer, purchaseBlock, settledAgainAnswer, type CallAnswer, type SaleOutcome } from './machine/sale/answer.js';
export { serveFromBalance } from './machine/sale/balance.js';
export { creditAndServe } from './machine/sale/serve.js';
export { SALE_GUARDS, type SaleBase, type SaleGuard } from './machine/sale/guards.js';
export { decideSale } from './machine/sale/decide.js';
export { renderSaleOutcome, saleRoute, type SaleCaller, type SaleCallInput, type SaleRouteOptions } from './machine/sale/http.js';
// In-band frames (6), the LLM-rail pointer, and their validators.
export {
  termsObject,
  tokenSchemeEntry,
  mppChallengeEntry,
  mppPointerEntry,
  paymentRequirements,
  paymentRequiredFrame,
  paymentSubmitFrame,
  paymentAcceptedFrame,
  responseDoneFrame,
  responseErrorFrame,
  responseCreateFrame,
  serializeFrame,
  type TermsObject,
  type TokenSchemeEntry,
  type MppChallengeEntry,
  type MppPointerEntry,
  type SchemeEntry,
  type PaymentRequirements,
  type PaymentRequiredFrame,
  type PaymentSubmitFrame,
  type PaymentAcceptedFrame,
  type ResponseDoneFrame,
  type ResponseErrorFrame,
  type ResponseCreateFrame,
  type InbandFrame,
  type RequirementsInput,
} from './wire/inband/frames.js';
export {
  decimalAmount,
  pointerRequirements,
  purchasePointerBody,
  purchasePointerAnswer,
  balanceRequiredResult,
  delegateCompletedResult,
  type PurchasePointerBody,
  type PointerInput,
  type PointerAnswer,
  type BalanceRequiredResult,
  type DelegateCompletedResult,
  type DelegateResult,
} from './wire/inband/pointer.js';
export { describeProblems, type InbandProblem, type InbandCheck } from './wire/inband/problems.js';
export { checkPaymentSubmitFrame, parseFrameText } from './wire/inband/submit.js';
export {
  checkPaymentRequiredFrame,
  checkFundedFrame,
  checkPurchasePointerBody,
  checkPointerResponse,
  checkBalanceRequired,
  type MppExpectation,
  type HeaderSource,
} from './judge/inband-frames.js';
// The SDK buyer's pointer rule.
export { hasDailyCap, decidePointer, type BuyerConfig, type PointerCondition, type PointerDecision } from './buyer/pointer-rule.js';
// Tempo: quotes, payloads, the signed transaction against its quote.
export { TEMPO_MEMO_BYTES, memoOf, tempoChargeRequest, tempoQuoteOf, type Hex, type TempoQuote, type TempoQuoteRead } from './machine/tempo/quote.js';
export { readTempoPayload, type TempoPayloadRead } from './machine/tempo/payload.js';
export {
  checkTempoTransaction,
  tempoTransactionHash,
  type TransactionMismatch,
  type AdmittedTransfer,
  type TransactionCheck,
  type TransferWindow,
} from './machine/tempo/transaction-check.js';
// The relay (7.4 upstream_payment_not_relayed): an agent's payment challenges and receipts never reach the caller.
export { paymentLeakOf, relayedRequestHeaders, upstreamPaymentNotRelayedAnswer, type RelayedAnswer, type PaymentLeak } from './machine/relay/relay.js';
