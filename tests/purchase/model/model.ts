import type { PaymentChallenge } from '../../../src/purchase/index.js';
import type { FakeCardProcessor, FakeChargeState, ScriptedCharge } from '../../../src/purchase/testing/index.js';
import { IDEMPOTENCY_KEY_PREFIX } from '../../../src/purchase/index.js';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../../src/spec/limits.js';
import { PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { VERSION } from '../machine/helpers.js';
import type { Presentation } from './world.js';

/** What the model says an answer must be: `granted` (200) or the 7.4 code / Payment problem slug. */
export const GRANTED = 'granted';

export interface Prediction {
  readonly code: string;
  /** The processor reply to script: set exactly when the model says this presentation sends a new charge. */
  readonly enqueue?: ScriptedCharge;
}

interface ChargeModel {
  readonly token: string;
  readonly buyer: string;
  readonly key: string;
  state: 'sent' | 'settled' | 'failed';
  /** Whether the machine's record holds the processor's charge id (a reply named it). */
  idKnown: boolean;
}

interface ChallengeModel {
  readonly challenge: PaymentChallenge;
  readonly expiresAt: number;
  readonly termsVersion: string;
  charge?: ChargeModel;
  granted: boolean;
}

export type SettlementPrediction = 'credited' | 'already-credited' | 'grant-failed' | 'unmatched';

const fresh = (code: string): Prediction => ({ code });

/**
 * The purchase machine of POST /api/mpp/credits as a few maps: challenges issued, the charge each credential
 * opened, tokens spent, grants, and the switches and faults in force. It predicts the answer to every command
 * from the order of checks 7.4 and section 3 give (decide.ts restates it); the card processor is the world, so
 * the model reads the fake's own state (a charge's real state, the next scripted status fault) to know what
 * the processor will say.
 */
export class PurchaseModel {
  readonly challenges: ChallengeModel[] = [];
  private readonly byId = new Map<string, ChallengeModel>();
  private readonly tokenOwner = new Map<string, string>();
  private readonly unreconciled = new Set<string>();
  grantFaults = 0;
  failAssent = false;
  lockUnavailable = false;
  readonly held = new Set<string>();
  mppEnabled = true;
  purchasesOpen = true;
  termsVersion = VERSION;
  /** Challenge ids a 200 was answered for: a purchase is told granted once (later presentations get 409). */
  readonly told = new Set<string>();
  /** Every credential presented, and those whose last answer said to re-present the same credential. */
  readonly presented: Presentation[] = [];
  readonly owed = new Set<Presentation>();

  addChallenge(challenge: PaymentChallenge, now: number): void {
    if (this.byId.has(challenge.id)) throw new Error(`challenge ${challenge.id} is not fresh`);
    const entry: ChallengeModel = { challenge, expiresAt: now + PAYMENT_CHALLENGE_LIFETIME_S, termsVersion: this.termsVersion, granted: false };
    this.challenges.push(entry);
    this.byId.set(challenge.id, entry);
  }

  predictAsk(): Prediction {
    if (!this.mppEnabled) return fresh(PURCHASE_ERRORS.mpp_disabled.code);
    if (!this.purchasesOpen) return fresh(PURCHASE_ERRORS.purchases_disabled.code);
    return fresh(PAYMENT_PROBLEMS.paymentRequired.slug);
  }

  predictPresent(p: Presentation, reply: ScriptedCharge, processor: FakeCardProcessor, now: number): Prediction {
    const c = this.byId.get(p.challenge.id);
    if (!c) throw new Error('presented a challenge the model never saw');
    const buyer = p.authenticated ? p.buyer : null;
    if (c.charge && c.charge.token === p.token) return this.resume(c, c.charge, buyer, reply, processor);
    if (!this.mppEnabled) return fresh(PURCHASE_ERRORS.mpp_disabled.code);
    if (!this.purchasesOpen) return fresh(PURCHASE_ERRORS.purchases_disabled.code);
    if (buyer === null) return fresh(PURCHASE_ERRORS.terms_acceptance_unauthenticated.code);
    if (c.charge) return fresh(PAYMENT_PROBLEMS.invalidChallenge.slug);
    if (now > c.expiresAt) return fresh(PAYMENT_PROBLEMS.paymentExpired.slug);
    if (p.assent === 'none' || p.assent === 'uncovered') return fresh(PURCHASE_ERRORS['terms-acceptance-required'].code);
    if (p.assent === 'stale' || c.termsVersion !== this.termsVersion) return fresh(PURCHASE_ERRORS['terms-version-stale'].code);
    if (this.unreconciled.has(p.token)) return fresh(PURCHASE_ERRORS.payment_unreconciled.code);
    if (this.lockUnavailable) return fresh(PURCHASE_ERRORS.purchase_lock_unavailable.code);
    if (this.held.has(buyer)) return fresh(PURCHASE_ERRORS.purchase_in_flight.code);
    if (this.pendingOf(buyer, c)) return fresh(PURCHASE_ERRORS.purchase_in_flight.code);
    if (this.failAssent) return fresh(PURCHASE_ERRORS.terms_record_failed.code);
    if (this.tokenOwner.has(p.token)) return fresh(PURCHASE_ERRORS.foreign_token.code);
    const charge: ChargeModel = { token: p.token, buyer, key: `${IDEMPOTENCY_KEY_PREFIX}${c.challenge.id}`, state: 'sent', idKnown: false };
    c.charge = charge;
    this.tokenOwner.set(p.token, c.challenge.id);
    return this.newCharge(c, charge, reply);
  }

  /** Section 3 row 1: the same credential resumes its charge; only the buyer it was sent for may. */
  private resume(c: ChallengeModel, charge: ChargeModel, buyer: string | null, reply: ScriptedCharge, processor: FakeCardProcessor): Prediction {
    if (buyer !== charge.buyer) return fresh(PURCHASE_ERRORS.terms_acceptance_unauthenticated.code);
    if (c.granted) return fresh(PURCHASE_ERRORS.purchase_already_granted.code);
    if (charge.state === 'failed') return fresh(PAYMENT_PROBLEMS.verificationFailed.slug);
    if (charge.state === 'settled') return this.settledCharge(c, charge);
    const atProcessor = processor.chargeFor(charge.key);
    if (charge.idKnown) {
      // A status read: a scripted fault first, else the charge as it stands.
      if (processor.statusScript[0] !== undefined) return fresh(PURCHASE_ERRORS.charge_outcome_unknown.code);
      return this.processorSays(c, charge, atProcessor!.state);
    }
    // The charge again under its idempotency key: the charge made earlier, or (none reached the processor) a new one.
    if (atProcessor) {
      charge.idKnown = true;
      return this.processorSays(c, charge, atProcessor.state);
    }
    return this.newCharge(c, charge, reply);
  }

  private newCharge(c: ChallengeModel, charge: ChargeModel, reply: ScriptedCharge): Prediction {
    const entry = typeof reply === 'string' ? { reply } : reply;
    const prediction = ((): Prediction => {
      switch (entry.reply) {
        case 'throw':
          return fresh(PURCHASE_ERRORS.charge_outcome_unknown.code);
        case 'unknown':
          return fresh(PURCHASE_ERRORS.charge_outcome_unknown.code);
        default:
          charge.idKnown = true;
          return this.processorSays(c, charge, entry.reply);
      }
    })();
    return { ...prediction, enqueue: reply };
  }

  private processorSays(c: ChallengeModel, charge: ChargeModel, state: FakeChargeState): Prediction {
    switch (state) {
      case 'settled':
        return this.settledCharge(c, charge);
      case 'declined':
      case 'cancelled-unsettled':
        charge.state = 'failed';
        return fresh(PAYMENT_PROBLEMS.verificationFailed.slug);
      case 'processing':
        return fresh(PURCHASE_ERRORS.charge_processing.code);
    }
  }

  private settledCharge(c: ChallengeModel, charge: ChargeModel): Prediction {
    charge.state = 'settled';
    if (this.grantFaults > 0) {
      this.grantFaults--;
      return fresh(PURCHASE_ERRORS.grant_failed.code);
    }
    c.granted = true;
    return fresh(GRANTED);
  }

  /** Whether a charge was opened with this token (a token pays once). */
  tokenSpent(token: string): boolean {
    return this.tokenOwner.has(token);
  }

  private pendingOf(buyer: string, except: ChallengeModel): boolean {
    return this.challenges.some((c) => c !== except && c.charge?.buyer === buyer && c.charge.state === 'sent');
  }

  /**
   * The processor reports a charge settled (settle.ts): found by the id the machine learned, or by the
   * idempotency key when the report carries it, or by its token while that charge's id is unknown (a token pays
   * once); unmatched and naming a token: refunded.
   */
  predictSettlement(report: { chargeId: string; idempotencyKey?: string; token?: string }, processor: FakeCardProcessor): SettlementPrediction {
    const found =
      this.challenges.find((c) => c.charge?.idKnown && processor.chargeFor(c.charge.key)?.chargeId === report.chargeId) ??
      (report.idempotencyKey === undefined ? undefined : this.challenges.find((c) => c.charge?.key === report.idempotencyKey)) ??
      // A token pays once: a report naming it matches the charge it opened while that charge's id is not known yet.
      (report.token === undefined ? undefined : this.challenges.find((c) => c.charge !== undefined && c.charge.token === report.token && !c.charge.idKnown));
    if (!found) {
      if (report.token !== undefined) this.unreconciled.add(report.token);
      return 'unmatched';
    }
    const charge = found.charge!;
    charge.idKnown = true;
    charge.state = 'settled';
    // The store is asked to grant whether or not it did already (it answers which); a fault fails the call itself.
    if (this.grantFaults > 0) {
      this.grantFaults--;
      return 'grant-failed';
    }
    if (found.granted) return 'already-credited';
    found.granted = true;
    return 'credited';
  }
}
