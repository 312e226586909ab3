import { isIP } from 'node:net';
/**
 * The test control a deployment may offer a conformance run (docs/contracts.md section 5), as OpenID's certification
 * suite has its test hooks: `POST <control-url>` with a JSON object puts the deployment into one named state, scoped to
 * one buying agent (or one test token, or one client address), so that checks running side by side never see each other's states. It is only
 * ever used to arrange; every verdict still comes from the deployment's own answers on its public routes.
 *
 * Answers: 204 (the state holds from now on, for that agent's requests or that token's charge), 404 with
 * `{"error":"unknown_state"}` (the deployment does not offer that state: the check is not run, with the reason), 400
 * with `{"error":"bad_request","error_description"}` (the request is not one of the protocol), 403 (not from loopback),
 * and 404 when the deployment offers no test control at all. `serve --test-control` offers every state below.
 */

/** Where the reference deployment answers the test control when `serve --test-control` is on (on its own origin). */
export const TEST_CONTROL_PATH = '/_reference/test-control';

/** States scoped to one agent (`agent`: its agent URL): they hold for that agent's paid requests from then on. */
export const AGENT_STATES = Object.freeze({
  /** Buying is not open (7.4 mpp_disabled). */
  mppDisabled: 'mpp-disabled',
  /** Purchases are closed in every market (7.4 purchases_disabled). */
  purchasesDisabled: 'purchases-disabled',
  /** The market of the agent's payment instrument (its card, or the wallet paying for it) is closed (7.4 purchases_unavailable_region). */
  marketClosed: 'market-closed',
  /** The country of the agent's card cannot be established (7.4 purchases_unavailable_region). */
  cardCountryUnknown: 'card-country-unknown',
  /** The agent has no owner and its balance is at the ownerless cap (7.4 ownerless_balance_cap). */
  ownerlessAtCap: 'ownerless-at-cap',
  /** The agent has an owner, and the cap on ownerless agents' balances is zero (it does not limit the agent). */
  ownedAtZeroCap: 'owned-at-zero-cap',
  /** The agent has no owner, and its balance is far below the ownerless cap. */
  ownerlessBelowCap: 'ownerless-below-cap',
  /** The purchase lock cannot be reached (7.4 purchase_lock_unavailable). */
  lockUnavailable: 'purchase-lock-unavailable',
  /** Another purchase of the agent holds its lock (7.4 purchase_in_flight). */
  purchaseInFlight: 'purchase-in-flight',
  /** The terms assent cannot be recorded (7.4 terms_record_failed). */
  termsRecordFailed: 'terms-record-failed',
  /** The agent's account is not active (7.4 buyer_inactive). */
  buyerInactive: 'buyer-inactive',
  /** Per-call card sales closed after the challenge (7.4 metered_unavailable_for_card). */
  callCardClosed: 'call-card-closed',
  /** The step that funds the agent's calls from its balance fails (7.4 funding_failed, funding_unavailable). */
  fundingFails: 'funding-fails',
  /** The platform blocks the agent (5.2 agent_blocked). */
  agentBlocked: 'agent-blocked',
  /** A funded turn of the agent on its socket fails while it runs (6: response.error, with the terms object). */
  turnFails: 'turn-fails',
  /** The terms move to a new version for the agent after its challenge (7.4 terms-version-stale). */
  termsChanged: 'terms-changed',
  /** The price of a single call rises by one minor unit for the agent (section 3: re-pricing is not asked again on a resumed charge). */
  callRepriced: 'call-repriced',
  /** The agent may buy one single call a day, and its card one (7.4 metered_principal_cap, metered_instrument_cap). */
  callCapsOne: 'call-caps-one',
  /** The deployment sells the agent no stablecoin transfer (7.4 method-unsupported, mpp_not_configured). */
  stablecoinNotSold: 'stablecoin-not-sold',
  /** The stablecoin token the deployment sells the agent's calls in changes (7.4 metered_unavailable_for_stablecoin). */
  stablecoinTokenChanged: 'stablecoin-token-changed',
  /** The deployment does not sell to the agent when the wallet paying for it cannot be placed (7.4 stablecoin_location_unknown). */
  unplacedWalletsRefused: 'unplaced-wallets-refused',
  /** The wallet paying for the agent is placed in a market where purchases are open. */
  walletPlaced: 'wallet-placed',
  /** The wallet paying for the agent may pay one transfer a day (7.4 wallet_daily_cap). */
  walletCapOne: 'wallet-cap-one',
  /** The agent's paid calls take their time at the resource (7.4 call_in_progress can be observed). */
  callSlow: 'call-slow',
  /** Once per request: the step that funds the agent's next paid call from its balance fails (7.4 funding_failed). */
  fundingFailsOnce: 'funding-fails-once',
  /** Once per request: the agent's next purchase cannot be credited (7.4 grant_failed). */
  grantFails: 'grant-fails',
  /** The agent may buy one single call a day, its cards and the platform as many as ever (7.4 metered_principal_cap). */
  principalCapOne: 'principal-cap-one',
  /** Every card the agent pays with counts as one card, which may pay one single call a day (7.4 metered_instrument_cap). */
  cardCapOne: 'card-cap-one',
  /** The platform may sell one more single call today, as the agent's purchases see it (7.4 metered_platform_ceiling). */
  platformCeilingOne: 'platform-ceiling-one',
  /** The agent's paid calls answer 200 with the very body they ran with, so the call bought can be read on the wire. */
  callEchoes: 'call-echoes',
  /** Per-call card sales to the agent are open only to cards of a market none of its cards is in (7.4 metered_unavailable_for_card). */
  callCardMarketElsewhere: 'call-card-market-elsewhere',
  /** The currency of a single call changes for the agent (7.4 metered_unavailable_for_card once a challenge was quoted in the other). */
  callCurrencyChanged: 'call-currency-changed',
  /** What a single call costs the agent's balance rises by one unit, its card price unchanged (7.4 metered_unavailable_for_card). */
  callBalanceCostChanged: 'call-balance-cost-changed',
  /** A single call costs the agent's balance exactly what one usage pack credits. */
  callCostsOneCredit: 'call-costs-one-credit',
  /**
   * A completion on the LLM rail costs the agent's balance two fifths of what one usage pack credits: a pack covers two,
   * and what is left of it does not cover a third (6: the pointer to a caller whose balance ran out).
   */
  completionCostsTwoFifthsCredit: 'completion-costs-two-fifths-credit',
  /** Once per request: the agent's next paid call does not start (7.4 sale_serve_pending). */
  callNotStarted: 'call-not-started',
  /** Once per request: the agent's next paid call runs and the resource answers 300 Multiple Choices, a status that is not a success. */
  callAnswersMultipleChoices: 'call-answers-multiple-choices',
  /** Once per request: the agent's next paid call runs and the resource answers an error of its own (the call is refunded). */
  callFails: 'call-fails',
  /** Once per request: the agent's next paid call ends without an answer from the resource (7.4 call_refunded). */
  callCrashes: 'call-crashes',
  /** Once per request: the agent's next stablecoin transfer read is still pending on the network (7.4 tempo_settlement_pending). */
  transferPending: 'transfer-pending',
  /** Once per request: the agent's next transfer broadcast ends failed on the network (a fresh challenge, section 3). */
  transferFails: 'transfer-fails',
  /** Once per request: the agent's next broadcast does not reach the network (7.4 tempo_unavailable). */
  broadcastUnreachable: 'broadcast-unreachable',
  /** Once per request: the next read of the agent's transfer status fails (the network cannot be read). */
  statusReadFails: 'status-read-fails',
  /** Once per request: the agent's next paid request finds the stablecoin network unreachable, for broadcasts and reads alike. */
  networkUnreachable: 'network-unreachable',
  /** Once per request: the next wallet paying for the agent cannot be placed (7.4 stablecoin_location_unknown). */
  walletUnplaced: 'wallet-unplaced',
} as const);

/** Agent states that happen once per request (each request arms one more); every other agent state holds from then on. */
export const ONCE_AGENT_STATES: ReadonlySet<AgentState> = new Set([
  AGENT_STATES.fundingFailsOnce,
  AGENT_STATES.grantFails,
  AGENT_STATES.callNotStarted,
  AGENT_STATES.callAnswersMultipleChoices,
  AGENT_STATES.callFails,
  AGENT_STATES.callCrashes,
  AGENT_STATES.transferPending,
  AGENT_STATES.transferFails,
  AGENT_STATES.broadcastUnreachable,
  AGENT_STATES.statusReadFails,
  AGENT_STATES.networkUnreachable,
  AGENT_STATES.walletUnplaced,
]);

/**
 * States scoped to one client address (`address`, as the deployment sees the client: a run names it with
 * --client-address-header): they hold for requests from that address from then on, whoever sends them.
 */
export const ADDRESS_STATES = Object.freeze({
  /** Unidentified calls from the address are not sold (7.4 metered_not_ready). */
  unidentifiedCallsClosed: 'unidentified-calls-closed',
  /** The address may buy one unidentified single call a day (7.4 metered_ip_cap). */
  addressCapOne: 'address-cap-one',
} as const);

/** States of one test token's charge at the card processor (`token`): what the processor does next, on its own. */
export const TOKEN_STATES = Object.freeze({
  /** The charge the token paid reaches `outcome` at the processor (the deployment learns it when it asks). */
  chargeFinishes: 'charge-finishes',
  /** The processor settles the token's charge and reports it to the deployment (its settlement webhook), once per call. */
  settlementReported: 'settlement-reported',
  /** The token's next charge reaches the processor, and the processor's answer is lost on the way back (7.4 charge_outcome_unknown). */
  chargeAnswerLost: 'charge-answer-lost',
} as const);

export type AgentState = (typeof AGENT_STATES)[keyof typeof AGENT_STATES];
export type AddressState = (typeof ADDRESS_STATES)[keyof typeof ADDRESS_STATES];

/** Where a charge can be made to end (`charge-finishes`). */
export const CHARGE_FINISHES = Object.freeze(['settled', 'declined', 'cancelled-unsettled'] as const);
export type ChargeFinish = (typeof CHARGE_FINISHES)[number];

/** One request of the protocol. */
export type ControlRequest =
  | { readonly state: AgentState; readonly agent: string }
  | { readonly state: AddressState; readonly address: string }
  | { readonly state: typeof TOKEN_STATES.chargeFinishes; readonly token: string; readonly outcome: ChargeFinish }
  | { readonly state: typeof TOKEN_STATES.settlementReported; readonly token: string }
  | { readonly state: typeof TOKEN_STATES.chargeAnswerLost; readonly token: string };

const AGENT_STATE_NAMES: readonly string[] = Object.values(AGENT_STATES);
const TOKEN_STATE_NAMES: readonly string[] = Object.values(TOKEN_STATES);
const ADDRESS_STATE_NAMES: readonly string[] = Object.values(ADDRESS_STATES);

/** A control request read from JSON: the request, or what is wrong with it (`unknown` for a state not in the protocol). */
export function readControlRequest(value: unknown): ControlRequest | { readonly problem: string; readonly unknown?: true } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'the body must be a JSON object' };
  const { state, agent, address, token, outcome } = value as Record<string, unknown>;
  if (typeof state !== 'string') return { problem: 'state must be a string' };
  if (AGENT_STATE_NAMES.includes(state)) {
    if (typeof agent !== 'string' || !URL.canParse(agent)) return { problem: `state ${state} needs agent, the agent URL it holds for` };
    return { state: state as AgentState, agent };
  }
  if (ADDRESS_STATE_NAMES.includes(state)) {
    if (typeof address !== 'string' || !isIP(address)) return { problem: `state ${state} needs address, the client address (IPv4 or IPv6) it holds for` };
    return { state: state as AddressState, address };
  }
  if (!TOKEN_STATE_NAMES.includes(state)) return { problem: `no state ${JSON.stringify(state)} is offered`, unknown: true };
  if (typeof token !== 'string' || token === '') return { problem: `state ${state} needs token, the payment token it holds for` };
  if (state === TOKEN_STATES.settlementReported) return { state, token };
  if (state === TOKEN_STATES.chargeAnswerLost) return { state, token };
  if (!CHARGE_FINISHES.includes(outcome as ChargeFinish)) return { problem: `state ${state} needs outcome, one of ${CHARGE_FINISHES.join(', ')}` };
  return { state: TOKEN_STATES.chargeFinishes, token, outcome: outcome as ChargeFinish };
}
