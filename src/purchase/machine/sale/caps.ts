import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import type { CapCounters, SaleCaps } from './ports.js';
import { CAP_COUNTERS, CAP_DAY_SECONDS } from './wire.js';

/** One counter a purchase counts on, and the 7.4 row that answers when it is full. */
export interface CapCounter {
  readonly name: string;
  readonly limit: number;
  readonly refusal: PurchaseErrorRecord;
}

/** Who is buying, as the caps see it. */
export interface CapSubject {
  /** The agent named by the challenge; null for an unidentified buyer. */
  readonly account: string | null;
  /** The agent's signing identity, when it signed. */
  readonly identity?: string;
  readonly clientAddress: string;
  /** The card's fingerprint. */
  readonly instrument: string;
}

/**
 * The counters a single-call purchase counts on, in the order their refusals win: the buyer's own cap first
 * (metered_principal_cap on the account and on the signing identity alike, or metered_ip_cap for an
 * unidentified buyer's address), then the card's (metered_instrument_cap), then the platform's
 * (metered_platform_ceiling).
 */
export function capCounters(subject: CapSubject, caps: SaleCaps): CapCounter[] {
  const principal = (name: string): CapCounter => ({ name, limit: caps.principalPerDay, refusal: PURCHASE_ERRORS.metered_principal_cap });
  const own: CapCounter[] =
    subject.account === null
      ? [{ name: CAP_COUNTERS.address + subject.clientAddress, limit: caps.ipPerDay, refusal: PURCHASE_ERRORS.metered_ip_cap }]
      : [principal(CAP_COUNTERS.account + subject.account), ...(subject.identity === undefined ? [] : [principal(CAP_COUNTERS.identity + subject.identity)])];
  return [
    ...own,
    { name: CAP_COUNTERS.instrument + subject.instrument, limit: caps.instrumentPerDay, refusal: PURCHASE_ERRORS.metered_instrument_cap },
    { name: CAP_COUNTERS.platform, limit: caps.platformPerDay, refusal: PURCHASE_ERRORS.metered_platform_ceiling },
  ];
}

const capDayOf = (now: number): number => Math.floor(now / CAP_DAY_SECONDS);

/** Whole seconds until the day's counters start again (Retry-After of the rows that carry it). */
const secondsToNextDay = (now: number): number => Math.ceil((capDayOf(now) + 1) * CAP_DAY_SECONDS - now);

export type CapOutcome =
  | { readonly taken: true; readonly names: readonly string[]; readonly day: number }
  | { readonly taken: false; readonly refusal: PurchaseErrorRecord; readonly retryAfterSeconds: number };

/** Counts the purchase on every counter, or names the first full one with the seconds until it empties. */
export async function takeCaps(counters: readonly CapCounter[], port: CapCounters, now: number): Promise<CapOutcome> {
  const day = capDayOf(now);
  const result = await port.take(
    counters.map(({ name, limit }) => ({ name, limit })),
    day,
  );
  if (result.taken) return { taken: true, names: counters.map((c) => c.name), day };
  return { taken: false, refusal: counters[result.over]!.refusal, retryAfterSeconds: secondsToNextDay(now) };
}
