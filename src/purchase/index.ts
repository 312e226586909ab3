/**
 * `agent-platform-conformance/purchase`: the purchase machine of 7.4 and section 3. `decidePurchase` (the pack at
 * POST /api/mpp/credits, card or stablecoin), `decideSale` (single-call sales), `settleReported` /
 * `settleTransferReported` (settlement reports credited once), their ports with in-memory adapters and fault
 * switches, the wire layer, the in-band frames and the LLM-rail pointer with validators, the Tempo transaction check,
 * the relay rule, and the SDK buyer's pointer rule.
 *
 * The list is deliberate (tests/package/public-exports.test.ts pins it); the steps inside the machine stay inside.
 */
// The wire: JSON, challenges, credentials, answers.
export { isJsonObject, type JsonValue, type JsonObject } from './json.js';
export { canonicalJson, jcsBase64url, tryCanonicalJson } from './canonical-json.js';
export { decodeBase64urlNoPad, decodeBase64urlJson, type Base64urlJsonFailure, type Base64urlJsonResult } from './base64url-json.js';
export { isToken, quotedString } from './auth-params.js';
export { parseAuthenticate, type AuthChallenge, type AuthenticateParse } from './auth-params-parse.js';
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
} from './challenge.js';
export {
  challengeFromMembers,
  challengeFromAuthChallenge,
  paymentChallenges,
  singlePaymentChallenge,
  parsePaymentChallenge,
  type ChallengeRejection,
  type ChallengeParse,
  type PaymentChallengeScan,
} from './challenge-parse.js';
export {
  parseCredential,
  sameEcho,
  type PaymentCredential,
  type CredentialRejection,
  type CredentialParse,
} from './credential.js';
export { credentialFor, serializeCredential } from './credential-write.js';
export { termsHeaders, purchaseAnswer, paymentProblemAnswer, type PurchaseAnswer, type TermsNotice, type PaidSurface, type AnswerDetails } from './answers.js';
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
} from './wire.js';
export { issueChallenge, withFreshChallenge, type ChallengeOffer } from './issue.js';
export { receiptOf, grantedAnswer } from './granted.js';
// Ports (clock, random, card processor, store, lock, buyers, stablecoin network...), outcomes, in-memory adapters.
export type {
  PurchaseKind,
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
  PurchaseStore,
  PackOffer,
  PurchaseConfig,
  PurchasePorts,
  Receipt,
} from './ports/purchase.js';
export {
  stablecoinOf,
  type StablecoinOffer,
  type TransferStatus,
  type StablecoinNetwork,
  type TransferState,
  type TransferRecord,
  type OpenTransfer,
  type TransferStore,
  type WalletDailyCaps,
  type WalletLocations,
  type StablecoinPorts,
  type Stablecoin,
} from './ports/stablecoin.js';
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
} from './ports/outcome.js';
export {
  ManualClock,
  SeededRandom,
  MemoryPurchaseStore,
  FakeCardProcessor,
  MemoryPurchaseLock,
  MemoryBuyerDirectory,
  type ScriptedCharge,
  type FakeChargeState,
  type FakeCharge,
} from './ports/memory.js';
export { FakeStablecoinNetwork, MemoryTransferStore, MemoryWalletCaps, FixedWalletLocations } from './ports/stablecoin-memory.js';
// The guards, in the order PACK_GUARDS and SALE_GUARDS ask them.
export type { GuardCode, PurchaseSurface, PurchaseContext, OutcomeOf, PurchaseGuard, SharedGuard } from './guards/guard.js';
export { presentedCredential, type PresentedCredential } from './guards/presented.js';
export { termsRefusal } from './guards/terms.js';
export { unreconciledRefusal, cardMarketRefusal, ownerlessCapRefusal, type ChargeCandidate } from './guards/refusals.js';
export { serialisePurchase, type LockOutcome } from './guards/lock.js';
// Card charges: records, steps, settlement reports.
export { chargeGrant, tokenOf, chargeRecordFor, chargeOfSameCredential } from './charge/record.js';
export { chargeStep, resumeSend, type ChargeStep } from './charge/step.js';
export { settleReported, type SettlementResult } from './charge/settle.js';
// Stablecoin transfers: records, steps, wallet rules, settlement reports.
export { transferGrant, sameTransfer, transferRecordFor, transferOfSameCredential } from './transfer/record.js';
export { broadcastTransferStep, resumeTransferStep, type TransferStep } from './transfer/step.js';
export { quoteOf, walletPlacementRefusal, countAgainstWalletCap } from './transfer/wallet.js';
export { settleTransferReported, type TransferSettlement } from './transfer/settle.js';
// The pack at POST /api/mpp/credits.
export { cardPackOffer, tempoPackOffer, offeredMethods, chosenMethod, packOfferFor } from './pack/offer.js';
export { packChargeAnswer, resumeCharge } from './pack/charge.js';
export { freshTransferChallenge, packTransferAnswer, resumeTransfer } from './pack/transfer.js';
export { PACK_GUARDS, type PackContext, type PackGuard } from './pack/guards.js';
export { decidePurchase } from './pack/decide.js';
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
} from './sale/ports.js';
export { SALE_OPAQUE_MEMBERS, UNIDENTIFIED_PAYER_PREFIX, HOLD_KEY_PREFIXES, HOLD_KEY_BYTES, CAP_COUNTERS, CAP_DAY_SECONDS } from './sale/wire.js';
export {
  SINGLE_CALL_OFFERS,
  callMethodsOffered,
  offerFor,
  freshSaleChallenge,
  accountOf,
  isCallHere,
  perCallCardInstrument,
  type CallOfferMaker,
} from './sale/offer.js';
export { capCounters, takeCaps, type CapCounter, type CapSubject, type CapOutcome } from './sale/caps.js';
export { isCallAnswer, callAnswer, purchaseBlock, settledAgainAnswer, type CallAnswer, type SaleOutcome } from './sale/answer.js';
export { serveFromBalance } from './sale/balance.js';
export { creditAndServe } from './sale/serve.js';
export { SALE_GUARDS, type SaleContext, type SaleGuard } from './sale/guards.js';
export { decideSale } from './sale/decide.js';
export {
  MemorySaleStore,
  MemoryFunding,
  MemoryCapCounters,
  FakeCardInstruments,
  MemoryAgentAccounts,
  ScriptedCallServer,
  type ScriptedServe,
} from './sale/memory.js';
export { renderSaleOutcome, saleRoute, type SaleCaller, type SaleCallInput, type SaleRouteOptions } from './sale/http.js';
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
} from './inband/frames.js';
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
} from './inband/pointer.js';
export { describeProblems, type InbandProblem, type InbandCheck } from './inband/problems.js';
export { checkPaymentSubmitFrame, parseFrameText } from './inband/submit.js';
export {
  checkPaymentRequiredFrame,
  checkFundedFrame,
  checkPurchasePointerBody,
  checkPointerResponse,
  checkBalanceRequired,
  type MppExpectation,
  type HeaderSource,
} from './inband/validate.js';
// The SDK buyer's pointer rule.
export { hasDailyCap, decidePointer, type BuyerConfig, type PointerCondition, type PointerDecision } from './buyer/pointer-rule.js';
// Tempo: quotes, payloads, the signed transaction against its quote.
export { TEMPO_MEMO_BYTES, memoOf, tempoChargeRequest, tempoQuoteOf, type Hex, type TempoQuote, type TempoQuoteRead } from './tempo/quote.js';
export { readTempoPayload, type TempoPayloadRead } from './tempo/payload.js';
export {
  checkTempoTransaction,
  tempoTransactionHash,
  type TransactionMismatch,
  type AdmittedTransfer,
  type TransactionCheck,
  type TransferWindow,
} from './tempo/transaction-check.js';
// The relay (7.4 upstream_payment_not_relayed): an agent's payment challenges and receipts never reach the caller.
export { paymentLeakOf, relayedRequestHeaders, upstreamPaymentNotRelayedAnswer, type RelayedAnswer, type PaymentLeak } from './relay/relay.js';
