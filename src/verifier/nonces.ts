import { AUTH_CODES } from '../spec/auth-errors.js';
import { LIMITS } from '../spec/limits.js';
import { andThen, isPromiseLike } from './awaitable.js';
import { refused, type In, type Refused } from './context.js';
import { MESSAGES } from './messages.js';
import type { Awaitable } from './ports.js';

type Spending = In<'labels' | 'params' | 'identity'>;

/**
 * The nonces of a request, spent by the nonce check or ahead of it. A store that can forget a nonce
 * (`NonceStore.release`) is asked while the signatures are checked, so a store across the network answers during the
 * Ed25519 check rather than after it; what it spent is released when the request is refused before the nonce check
 * judged it, so once a forged request is answered it has burnt no nonce.
 */
export interface NonceReservation {
  /** The nonce check's answer: a replay's refusal, or nothing. What it spent is kept from then on. */
  judge(): Awaitable<Refused | undefined>;
  /** Forgets what was spent ahead, unless the nonce check judged it. */
  release(): Awaitable<void>;
}

/** The reservation the nonce check judges: spending starts now when the store can take a nonce back. */
export function reserveNonces(input: Spending): { reservation: NonceReservation } {
  const until = untilOf(input);
  const { nonces } = input.ports;
  return { reservation: nonces.release ? new SpentAhead(input, until, nonces.release.bind(nonces)) : new SpentWhenJudged(input, until) };
}

/** Kept until the last label's signature expires, and a clock skew beyond. */
function untilOf(input: Spending): number {
  let until = -Infinity;
  for (const p of input.params) until = Math.max(until, p.expires);
  return until + LIMITS.clockSkew.value;
}

class SpentWhenJudged implements NonceReservation {
  constructor(
    private readonly input: Spending,
    private readonly until: number,
  ) {}

  judge(): Awaitable<Refused | undefined> {
    return spendNonces(this.input, 0, this.until, () => undefined);
  }

  release(): undefined {
    return undefined;
  }
}

class SpentAhead implements NonceReservation {
  private readonly spent: string[] = [];
  private readonly answer: Awaitable<Refused | undefined>;
  private settled = false;

  constructor(
    private readonly input: Spending,
    until: number,
    private readonly forget: (agentUrl: string, nonce: string) => Awaitable<void>,
  ) {
    this.answer = spendNonces(input, 0, until, (nonce) => this.spent.push(nonce));
    // Judged, its failure is the nonce check's to answer; released, nothing was spent. Never unhandled meanwhile.
    if (isPromiseLike(this.answer)) this.answer.then(undefined, () => undefined);
  }

  judge(): Awaitable<Refused | undefined> {
    this.settled = true;
    return this.answer;
  }

  release(): Awaitable<void> {
    if (this.settled) return undefined;
    this.settled = true;
    if (!isPromiseLike(this.answer)) return this.forgetSpent();
    return Promise.resolve(this.answer).then(
      () => this.forgetSpent(),
      () => undefined,
    );
  }

  private forgetSpent(): Awaitable<void> {
    const agentUrl = this.input.identity.agentUrl;
    return this.spent.reduce<Awaitable<void>>((before, nonce) => andThen(before, () => this.forget(agentUrl, nonce)), undefined);
  }
}

/** Spends the nonces of labels `from` onwards, one after the other, stopping at the first replay. */
function spendNonces(input: Spending, from: number, until: number, onSpent: (nonce: string) => void): Awaitable<Refused | undefined> {
  const l = input.labels[from];
  const p = input.params[from];
  if (l === undefined || p === undefined) return undefined;
  return andThen(input.ports.nonces.spend(input.identity.agentUrl, p.nonce, until), (spent) => {
    if (!spent) return refused(AUTH_CODES.signature_replayed, MESSAGES.replayed(l.label));
    onSpent(p.nonce);
    return spendNonces(input, from + 1, until, onSpent);
  });
}

/** Nonces count only for requests whose signatures verified: a replay is refused, a forged request burns none. */
export function checkNonces(input: In<'reservation'>): Awaitable<Refused | undefined> {
  return input.reservation.judge();
}
