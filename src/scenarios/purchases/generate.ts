import { isDeepStrictEqual } from 'node:util';
import { Hash } from 'ox';
import type { Hex } from '../../purchase/machine/tempo/index.js';
import { PURCHASE_ERRORS } from '../../spec/purchase-errors.js';
import { TEMPO_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import {
  BASE_DEPLOYMENT,
  BASE_INITIAL,
  CREDITS,
  signed,
  tempoSource,
  TRANSACTION_PAYLOAD,
  VERSION,
  type PresentSpec,
  type Scenario,
  type ScenarioEvent,
  type StatedExpect,
} from './dsl.js';
import { replayPurchaseCase, transactionIn, type EventResult } from './runner.js';
import type { CredentialBuild, Ledger, PresentEvent, PurchaseCase, PurchaseEvent } from './types.js';
import { mergeDeployment } from './world.js';
import { HEADERS } from '../../spec/headers.js';

/**
 * Answers that charge nothing and broadcast nothing in the event that gets them (7.4 "nothing charged",
 * "nothing broadcast", and every refusal before a charge); the generator refuses a case where one did.
 * call_refunded is not among them: the presentation whose call crashed was charged (then refunded) and
 * answers it too.
 */
const NOTHING_SENT: ReadonlySet<string> = new Set(
  [
    'terms-acceptance-required',
    'terms-version-stale',
    'terms_acceptance_unauthenticated',
    'mpp_disabled',
    'purchases_disabled',
    'purchases_unavailable_region',
    'buyer_inactive',
    'challenge_kind_mismatch',
    'challenge_origin_mismatch',
    'ownerless_balance_cap',
    'metered_unavailable_for_card',
    'stablecoin_location_unknown',
    'foreign_token',
    'method-unsupported',
    'invalid-payload',
    'metered_instrument_cap',
    'metered_platform_ceiling',
    'metered_ip_cap',
    'metered_principal_cap',
    'wallet_daily_cap',
    'purchase_already_granted',
    'call_in_progress',
    'call_already_served',
    'terms_record_failed',
    'purchase_in_flight',
    'purchase_lock_unavailable',
    'tempo_unavailable',
    'funding_unavailable',
    'payment_unreconciled',
    'metered_not_ready',
    'mpp_not_configured',
  ].map((code) => PURCHASE_ERRORS[code as keyof typeof PURCHASE_ERRORS].code),
);

/** A scenario as a case skeleton: literal credentials and hashes left empty until the reference run builds them. */
function skeleton(s: Scenario): PurchaseCase {
  const presentEvent = (spec: PresentSpec): PresentEvent => {
    const assent = spec.assent === undefined ? (spec.credential === undefined ? null : VERSION) : spec.assent;
    const headers = { ...(assent === null ? {} : { [HEADERS.termsAccepted]: assent }), ...spec.headers };
    let paymentAuthorization: PresentEvent['paymentAuthorization'];
    const credential = spec.credential;
    if (credential !== undefined && 'literal' in credential) paymentAuthorization = { value: credential.literal };
    else if (credential !== undefined) {
      const payload: Record<string, string> =
        credential.spt !== undefined ? { spt: credential.spt } : credential.transaction !== undefined ? { ...TRANSACTION_PAYLOAD } : { ...credential.payload };
      const stablecoin = credential.transaction !== undefined || TEMPO_PAYLOAD_MEMBERS.type in payload;
      const built: CredentialBuild = {
        challengeOf: credential.challengeOf,
        ...(credential.echoOverride === undefined ? {} : { echoOverride: credential.echoOverride }),
        payload,
        ...(credential.transaction === undefined ? {} : { transaction: credential.transaction }),
        ...(stablecoin ? { source: tempoSource() } : {}),
      };
      paymentAuthorization = { value: '', built };
    }
    return {
      type: 'present',
      ...(spec.comment === undefined ? {} : { comment: spec.comment }),
      path: spec.path ?? CREDITS,
      caller: spec.caller ?? signed(),
      headers,
      ...(paymentAuthorization === undefined ? {} : { paymentAuthorization }),
      ...(spec.body === undefined ? {} : { body: spec.body }),
      ...(spec.whileServing === undefined ? {} : { whileServing: spec.whileServing.map(presentEvent) }),
      expect: spec.expect as PresentEvent['expect'],
    };
  };
  const eventOf = (e: ScenarioEvent): PurchaseEvent => {
    if (e.type === 'present') return presentEvent(e);
    if (e.type === 'report-settled') return { ...e, ...(e.hashOfEvent === undefined ? {} : { hash: '' }), expect: e.expect as never };
    return e;
  };
  return {
    id: s.id,
    description: s.description,
    flags: s.flags,
    method: s.method,
    covers: s.covers,
    deployment: mergeDeployment(BASE_DEPLOYMENT, s.deployment ?? {}),
    initial: { ...BASE_INITIAL, ...s.initial },
    events: s.events.map(eventOf),
  };
}

/** Runs a scenario against the machine and writes its case; throws when an answer is not what the scenario states. */
export async function caseOf(s: Scenario): Promise<PurchaseCase> {
  const draft = skeleton(s);
  const results = await replayPurchaseCase(draft, { credentials: 'build' });
  const hashes = new Map<number, Hex>();
  for (const [index, result] of results.entries()) {
    const serialized = result.type === 'present' && result.credential !== undefined ? transactionIn(result.credential) : undefined;
    if (serialized !== undefined) hashes.set(index, Hash.keccak256(serialized as Hex));
  }
  const hashAt = (index: number): Hex => {
    const hash = hashes.get(index);
    if (hash === undefined) throw new Error(`purchase vector "${s.id}": event ${index} presented no transaction`);
    return hash;
  };
  /** Stated expectations name a transfer's hash as "@tx:<event>". */
  const resolveRefs = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' && v.startsWith('@tx:') ? hashAt(Number(v.slice(4))) : v));

  let ledger: Ledger | undefined;
  const finishPresent = (event: PresentEvent, result: EventResult, label: string): PresentEvent => {
    if (result.type !== 'present') throw new Error(`${label}: no answer`);
    const { after, challenge, ...observed } = result.expect;
    const stated = resolveRefs(event.expect as unknown as StatedExpect) as StatedExpect;
    const seen = { ...observed, challenge: challenge === null ? null : { method: challenge.method, purchase: challenge.purchase } };
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(seen)), JSON.parse(JSON.stringify(stated)))) {
      throw new Error(`purchase vector ${label}: the machine answers ${JSON.stringify(seen)}, the scenario states ${JSON.stringify(stated)}`);
    }
    const code = result.expect.code;
    if (ledger !== undefined && code !== null && NOTHING_SENT.has(code) && (after.charges !== ledger.charges || after.transfers !== ledger.transfers)) {
      throw new Error(`purchase vector ${label}: ${code} must charge and broadcast nothing, but the processor or the network was sent a payment`);
    }
    ledger = after;
    const auth = event.paymentAuthorization;
    let paymentAuthorization = auth;
    if (auth?.built !== undefined) {
      if (result.credential === undefined) throw new Error(`${label}: the credential was not built`);
      const signature = auth.built.transaction === undefined ? undefined : transactionIn(result.credential);
      paymentAuthorization = {
        value: result.credential,
        built: { ...auth.built, payload: { ...auth.built.payload, ...(signature === undefined ? {} : { [TEMPO_PAYLOAD_MEMBERS.signature]: signature }) } },
      };
    }
    const nested = (event.whileServing ?? []).map((inner, n) => finishPresent(inner, result.whileServing[n]!, `${label} whileServing ${n}`));
    return {
      ...event,
      ...(paymentAuthorization === undefined ? {} : { paymentAuthorization }),
      ...(event.whileServing === undefined ? {} : { whileServing: nested }),
      expect: result.expect,
    };
  };

  const events = draft.events.map((event, index): PurchaseEvent => {
    const result = results[index]!;
    const label = `"${s.id}" event ${index}`;
    switch (event.type) {
      case 'present':
        return finishPresent(event, result, label);
      case 'report-settled': {
        if (result.type !== 'report-settled') throw new Error(`${label}: no settlement result`);
        const { after, ...observed } = result.expect;
        if (!isDeepStrictEqual(observed, resolveRefs(event.expect)))
          throw new Error(`purchase vector ${label}: the machine reports ${JSON.stringify(observed)}, the scenario states ${JSON.stringify(event.expect)}`);
        ledger = after;
        return { ...event, ...(event.hashOfEvent === undefined ? {} : { hash: hashAt(event.hashOfEvent) }), expect: result.expect };
      }
      case 'network':
        return event.resolve?.hashOfEvent === undefined ? event : { ...event, resolve: { ...event.resolve, hash: hashAt(event.resolve.hashOfEvent) } };
      default:
        return event;
    }
  });
  return { ...draft, events };
}

/** Stated expectation members may name a transfer by the presentation that paid it; this is how. */
export const txOf = (event: number): string => `@tx:${event}`;
