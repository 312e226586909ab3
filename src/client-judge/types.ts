import type { AuthErrorCode } from '../spec/auth-errors.js';
import type { ClientRuleKey } from './rules.js';
import type { TransferJudgement } from './transfer.js';

/** A request as the platform double received it: every header field in the order sent, the body bytes as sent. */
export interface ObservedRequest {
  readonly method: string;
  /** Absolute, as the double reads it: its own scheme, the Host the client sent, the request target. */
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
}

/** What the double answered. */
export interface ObservedResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/**
 * How the signer's side of one request was judged when it arrived, by the reference verifier (7.3) over the run's
 * own state: unsigned; accepted (every signer rule met); or refused, naming the one rule the first failed check of
 * the verifier judges, and the rules of the checks it passed before (the later ones are not observed on that request).
 */
export type SignerJudgement =
  | {
      readonly kind: 'unsigned';
      /** It carried a platform bearer instead (5.3), which this judge does not verify. */
      readonly bearer: boolean;
    }
  | {
      readonly kind: 'accepted';
      readonly agentUrl: string;
      /** Plain header fields (lower case) a verified label covers. */
      readonly coveredFields: readonly string[];
      readonly labels: readonly string[];
    }
  | {
      readonly kind: 'refused';
      readonly rule: ClientRuleKey;
      /** The rules the checks before the refusing one decided, which the request met. */
      readonly met: readonly ClientRuleKey[];
      /** The verifier's check that refused (src/verifier/order.ts). */
      readonly check: string;
      readonly code: AuthErrorCode;
      readonly description: string;
    };

/** One request of a case and what it got. */
export interface ClientExchange {
  readonly request: ObservedRequest;
  /** When it arrived, by the double's clock (milliseconds). */
  readonly receivedAtMs: number;
  /** null when the double could not answer (the client went away). */
  readonly response: ObservedResponse | null;
  /** When the answer was sent, by the same clock. */
  readonly answeredAtMs: number;
  readonly signer: SignerJudgement;
  /** A stablecoin credential's transfer, judged when it arrived (transfer.ts); absent without one. */
  readonly transfer?: TransferJudgement;
  /** How the double made the answer: the reference platform's own, or a step of the case's script. */
  readonly answeredBy: string;
}

/** A frame on the agent socket (6), as the double saw it: who sent it, its text, when, and how many exchanges came before it. */
export interface ClientFrame {
  readonly from: 'client' | 'platform';
  readonly text: string;
  readonly atMs: number;
  /** The exchanges answered before it (a frame sent after a purchase comes after its exchange). */
  readonly afterExchanges: number;
}

/** One mark a case leaves on a rule: met or broken by one request (its index in the case), and why. */
export interface RuleMark {
  readonly rule: ClientRuleKey;
  readonly met: boolean;
  readonly exchange: number;
  readonly detail: string;
}
