import {
  checkPaymentSubmitFrame,
  decimalAmount,
  describeProblems,
  mppChallengeEntry,
  mppPointerEntry,
  parseFrameText,
  paymentAcceptedFrame,
  paymentRequiredFrame,
  paymentRequirements,
  responseDoneFrame,
  responseErrorFrame,
  type InbandFrame,
} from '../../purchase/inband.js';
import type { Awaitable, JsonObject } from '../../purchase/index.js';
import { FRAME_MEMBERS, INBAND_FRAME_TYPES, REQUIREMENTS_CURRENCY, SOCKET_ERROR_CODES } from '../../spec/inband.js';
import { PLATFORM_ERROR_CODES } from '../routes.js';
import type { BalancePort } from './balance-port.js';
import { currentTerms, type TermsSource } from './caller.js';
import type { ChallengeIssuer } from './machine-challenge.js';

/** What a funded turn does with the client's input: the reference echoes it. */
export type TurnRunner = (turn: { readonly agent: string; readonly payer: string; readonly input: string }) => Awaitable<string>;

export interface TurnSessionOptions {
  readonly balances: BalancePort;
  /** What one turn costs, in nano units. */
  readonly turnPriceNano: bigint;
  /** The absolute URL of the platform's POST /api/mpp/credits; null on a deployment that sells no usage. */
  readonly purchaseUrl: string | null;
  readonly terms: TermsSource;
  /** Issues the pack challenge a signed caller pays in band (machineChallengeIssuer). */
  readonly issueChallenge: ChallengeIssuer;
  readonly runTurn?: TurnRunner;
  /** requirements.reason of payment.required. */
  readonly reason?: string;
}

/** Who is on the socket: the payer, and whether the upgrade was signed (then it is challenged; a bearer gets the pointer). */
export interface SocketCaller {
  readonly agent: string;
  readonly payer: string | null;
  readonly signed: boolean;
}

const TURN_REASON = 'The balance does not cover this turn; pay the challenge at purchase_url, then send payment.submit with scheme balance.';

/** The text output item of response.done (UAMP's content item `{type: "text", text}`). */
export function textOutput(text: string): JsonObject {
  return { type: 'text', text };
}

const defaultRunner: TurnRunner = ({ input }) => `echo: ${input}`;

interface Turn {
  readonly responseId: string;
  readonly input: string;
}

/**
 * One agent socket's turns (6), independent of the socket itself: `receive` takes each client message in
 * order and `send` gets the frames to write. A turn the balance covers runs at once and its response.done
 * carries the terms object. One it does not cover is answered with payment.required and waits: a signed caller
 * gets the purchase machine's pack challenge with purchase_url and terms, a bearer the pointer (purchase_url
 * only); payment.submit with scheme balance re-reads the balance, and the turn then runs with payment.accepted
 * and response.done, each carrying the terms object. A turn that fails after it was funded ends in
 * response.error with the terms object; refusals before anything was funded carry none.
 */
export class TurnSession {
  private waiting: Turn | null = null;
  private queue: Promise<void> = Promise.resolve();
  private events = 0;
  private responses = 0;
  private readonly runTurn: TurnRunner;

  constructor(
    private readonly caller: SocketCaller,
    private readonly options: TurnSessionOptions,
    private readonly send: (frame: InbandFrame) => void,
  ) {
    if (options.turnPriceNano <= 0n) throw new RangeError('turnPriceNano must be positive');
    this.runTurn = options.runTurn ?? defaultRunner;
  }

  private eventId(): string {
    return `evt_${++this.events}`;
  }

  private refuse(code: string, message: string): void {
    this.send(responseErrorFrame(this.eventId(), { code, message, terms: null }));
  }

  /** Takes one client message; messages are answered one after another, in the order received. */
  receive(text: string): Promise<void> {
    this.queue = this.queue.then(async () => {
      try {
        await this.dispatch(text);
      } catch {
        this.refuse(PLATFORM_ERROR_CODES.internal, 'The platform failed while answering this frame.');
      }
    });
    return this.queue;
  }

  private async dispatch(text: string): Promise<void> {
    const parsed = parseFrameText(text);
    if (!parsed.ok) return this.refuse(SOCKET_ERROR_CODES.invalidFrame, describeProblems(parsed).join('; '));
    const { frame } = parsed;
    switch (frame[FRAME_MEMBERS.type]) {
      case INBAND_FRAME_TYPES.responseCreate: {
        if (this.waiting) return this.refuse(SOCKET_ERROR_CODES.turnInProgress, 'A turn is already waiting for payment on this socket.');
        const input = frame[FRAME_MEMBERS.input];
        if (input !== undefined && typeof input !== 'string') return this.refuse(SOCKET_ERROR_CODES.invalidFrame, `/${FRAME_MEMBERS.input}: must be a string.`);
        return this.attempt({ responseId: `resp_${++this.responses}`, input: input ?? '' }, false);
      }
      case INBAND_FRAME_TYPES.paymentSubmit: {
        const check = checkPaymentSubmitFrame(frame);
        if (!check.ok) return this.refuse(SOCKET_ERROR_CODES.schemeUnsupported, describeProblems(check).join('; '));
        if (!this.waiting) return this.refuse(SOCKET_ERROR_CODES.noTurnWaiting, 'No turn is waiting for payment on this socket.');
        return this.attempt(this.waiting, true);
      }
      default:
        return this.refuse(
          SOCKET_ERROR_CODES.invalidFrame,
          `/${FRAME_MEMBERS.type}: this socket takes ${INBAND_FRAME_TYPES.responseCreate} and ${INBAND_FRAME_TYPES.paymentSubmit}.`,
        );
    }
  }

  private async attempt(turn: Turn, submitted: boolean): Promise<void> {
    const { payer } = this.caller;
    // Read before anything is spent: every answer of a funded turn carries the terms object (section 6).
    const terms = currentTerms(this.options.terms);
    const funded = payer !== null && (await this.options.balances.spend(payer, this.options.turnPriceNano));
    if (!funded) {
      this.waiting = turn;
      return this.askForPayment();
    }
    this.waiting = null;
    try {
      if (submitted) {
        const remaining = await this.options.balances.balanceOf(payer);
        this.send(paymentAcceptedFrame(this.eventId(), { paymentId: `pay_${turn.responseId}`, balanceRemaining: String(remaining), terms }));
      }
      const output = await this.runTurn({ agent: this.caller.agent, payer, input: turn.input });
      this.send(responseDoneFrame(this.eventId(), { responseId: turn.responseId, output: [textOutput(output)], terms }));
    } catch {
      // Whatever fails once the turn was funded, its end is still a funded turn's: response.error with the terms.
      this.send(responseErrorFrame(this.eventId(), { code: SOCKET_ERROR_CODES.turnFailed, message: 'The agent could not complete this turn.', terms }));
    }
  }

  private async askForPayment(): Promise<void> {
    const { purchaseUrl } = this.options;
    let mpp = null;
    if (purchaseUrl !== null && this.caller.payer !== null && this.caller.signed) {
      const challenge = await this.options.issueChallenge(this.caller.payer);
      mpp = challenge === null ? null : mppChallengeEntry(challenge, purchaseUrl, currentTerms(this.options.terms));
    } else if (purchaseUrl !== null) {
      mpp = mppPointerEntry(purchaseUrl);
    }
    const requirements = paymentRequirements({
      amount: decimalAmount(this.options.turnPriceNano),
      currency: REQUIREMENTS_CURRENCY,
      mpp,
      reason: this.options.reason ?? TURN_REASON,
    });
    this.send(paymentRequiredFrame(this.eventId(), requirements));
  }
}
