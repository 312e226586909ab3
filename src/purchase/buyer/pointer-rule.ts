import { BUYER_REFUSAL_REASONS } from '../../spec/inband.js';

/** What the SDK buyer is configured with, as far as pointers go. */
export interface BuyerConfig {
  /**
   * Hosts the buyer deals with (its realm allowlist): host names such as `platform.example`, compared
   * without case and without port, as the URL parser normalises them (IDN to punycode, IPv6 in brackets).
   */
  readonly allowedHosts: readonly string[];
  /**
   * The daily spend cap in the currency's minor units. A pointer is followed only when one is configured:
   * a positive whole number. Absent, zero, negative or not a whole number reads as none (nothing could be spent).
   */
  readonly dailyCapCents?: number | null;
}

/** Which condition of the rule failed (for the person reading the refusal; the reason stays the one of section 6). */
export type PointerCondition = 'pointer-url' | 'naming-url' | 'pointer-host' | 'naming-host' | 'daily-cap';

export type PointerDecision =
  | { readonly decision: 'follow'; readonly url: string }
  | {
      readonly decision: 'refuse';
      readonly reason: typeof BUYER_REFUSAL_REASONS.pointerNeedsDailyCap;
      /** Every condition that failed, in the order above. */
      readonly unmet: readonly PointerCondition[];
      readonly detail: string;
    };

function hostOf(text: string): string | null {
  try {
    const url = new URL(text);
    return url.hostname === '' ? null : url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** An allowlist entry as the URL parser writes its host name; null for an entry that is not a host. */
function allowedHost(entry: string): string | null {
  const trimmed = entry.trim();
  if (trimmed === '' || /[/?#@\s]/.test(trimmed)) return null;
  return hostOf(`https://${trimmed}`);
}

export function hasDailyCap(config: Pick<BuyerConfig, 'dailyCapCents'>): boolean {
  const cap = config.dailyCapCents;
  return typeof cap === 'number' && Number.isSafeInteger(cap) && cap > 0;
}

/**
 * Section 6, the SDK buyer rule: a buyer follows a purchase pointer only when both the pointer's host and the
 * host that named it (the socket or rail the pointer came from) are on its allowlist AND a daily spend cap is
 * configured. Otherwise it refuses with `pointer_needs_daily_cap` and sends nothing: the refusal is decided
 * here, before any request, and is an SDK-side reason, never a wire code. Pure.
 */
export function decidePointer(pointerUrl: string, namingUrl: string, config: BuyerConfig): PointerDecision {
  const allowed = new Set(config.allowedHosts.map(allowedHost).filter((h): h is string => h !== null));
  const pointerHost = hostOf(pointerUrl);
  const namingHost = hostOf(namingUrl);
  const unmet: PointerCondition[] = [];
  const why: string[] = [];
  if (pointerHost === null) {
    unmet.push('pointer-url');
    why.push(`the pointer ${JSON.stringify(pointerUrl)} is not an absolute URL`);
  }
  if (namingHost === null) {
    unmet.push('naming-url');
    why.push(`the URL that named the pointer, ${JSON.stringify(namingUrl)}, is not an absolute URL`);
  }
  if (pointerHost !== null && !allowed.has(pointerHost)) {
    unmet.push('pointer-host');
    why.push(`the pointer's host ${pointerHost} is not on the allowlist`);
  }
  if (namingHost !== null && !allowed.has(namingHost)) {
    unmet.push('naming-host');
    why.push(`the host that named the pointer, ${namingHost}, is not on the allowlist`);
  }
  if (!hasDailyCap(config)) {
    unmet.push('daily-cap');
    why.push('no daily spend cap is configured');
  }
  if (unmet.length === 0) return Object.freeze({ decision: 'follow' as const, url: pointerUrl });
  return Object.freeze({
    decision: 'refuse' as const,
    reason: BUYER_REFUSAL_REASONS.pointerNeedsDailyCap,
    unmet: Object.freeze(unmet),
    detail: `Not following the purchase pointer; nothing was sent: ${why.join('; ')}.`,
  });
}
