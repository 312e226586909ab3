import {
  decidePurchase,
  decideSale,
  settleReported,
  settleTransferReported,
  type PaymentChallenge,
  type PurchaseRequest,
  type SaleConfig,
  type SaleRequest,
} from '../../purchase/index.js';
import { Hash } from 'ox';
import { parseCredential } from '../../purchase/index.js';
import type { Hex } from '../../purchase/machine/tempo/index.js';
import { TEMPO_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import { HEADERS } from '../../spec/headers.js';
import { PLATFORM_ROUTES } from '../../spec/wire.js';
import { buildCredential } from './credentials.js';
import { observeAnswer } from './observe.js';
import type { AnswerExpect, PresentEvent, PurchaseCase, PurchaseEvent, SettlementExpect } from './types.js';
import { VectorWorld, mergeDeployment } from './world.js';

/** What one event came to in the reference run. */
export type EventResult =
  | { readonly type: 'present'; readonly expect: AnswerExpect; readonly credential?: string; readonly whileServing: readonly EventResult[] }
  | { readonly type: 'report-settled'; readonly expect: SettlementExpect }
  | { readonly type: 'other' };

export interface ReplayOptions {
  /**
   * literal: present the Payment-Authorization values written in the case (what another implementation
   * compares against); build: build them from `built` and the challenges this run issued (how the
   * generator writes them). Either way the built value is reported, so a test can compare the two.
   */
  readonly credentials: 'literal' | 'build';
}

/** Agents whose credited balance a case's ledger lists: every agent that calls, in order of first call. */
function agentsOf(c: Pick<PurchaseCase, 'events'>): string[] {
  const agents: string[] = [];
  const visit = (events: readonly PurchaseEvent[]) => {
    for (const e of events) {
      if (e.type !== 'present') continue;
      if (e.caller.agent !== null && !agents.includes(e.caller.agent)) agents.push(e.caller.agent);
      visit(e.whileServing ?? []);
    }
  };
  visit(c.events);
  return agents;
}

/** Replays a case's events in order against the purchase machine with in-memory ports, and reports each answer. */
export async function replayPurchaseCase(c: Pick<PurchaseCase, 'id' | 'deployment' | 'initial' | 'events'>, options: ReplayOptions): Promise<EventResult[]> {
  const world = new VectorWorld(c.deployment, c.initial);
  const agents = agentsOf(c);
  const challenges = new Map<number, PaymentChallenge>();
  /** Signed transactions built for presentations, by event index (build mode names a transfer by the event that paid it). */
  const transactions = new Map<number, Hex>();
  const hashOf = (literal: string | undefined, fromEvent: number | undefined, label: string): Hex => {
    if (options.credentials === 'build' && fromEvent !== undefined) {
      const serialized = transactions.get(fromEvent);
      if (serialized === undefined) throw new Error(`${label}: event ${fromEvent} presented no transaction`);
      return Hash.keccak256(serialized as Hex);
    }
    if (literal === undefined) throw new Error(`${label}: no transaction hash`);
    return literal as Hex;
  };
  const where = (index: number) => `case ${c.id} event ${index}`;

  const present = async (event: PresentEvent, label: string, index?: number): Promise<EventResult & { type: 'present' }> => {
    let credential: string | undefined;
    let built: string | undefined;
    const auth = event.paymentAuthorization;
    if (auth?.built !== undefined) {
      const challenge = challenges.get(auth.built.challengeOf);
      if (challenge === undefined) throw new Error(`${label}: event ${auth.built.challengeOf} carried no challenge to build a credential from`);
      built = await buildCredential(auth.built, challenge);
      const signed = transactionIn(built);
      if (signed !== undefined && index !== undefined) transactions.set(index, signed);
    }
    if (auth !== undefined) credential = options.credentials === 'build' && built !== undefined ? built : auth.value;
    const headers: Record<string, string> = { ...event.headers, ...(credential === undefined ? {} : { [HEADERS.paymentAuthorization]: credential }) };
    const request: PurchaseRequest = {
      buyer: event.caller.agent === null ? null : { agentUrl: event.caller.agent },
      signed: event.caller.auth === 'signature',
      coveredHeaders: event.caller.covered,
      headers,
      now: world.clock.now(),
    };
    const nested: EventResult[] = [];
    let outcome: Awaited<ReturnType<typeof decidePurchase>> | Awaited<ReturnType<typeof decideSale>>;
    if (event.path === PLATFORM_ROUTES.mppCredits) {
      outcome = await decidePurchase(request, world.ports, world.config());
    } else {
      const config = world.config() as SaleConfig;
      if (config.sale === undefined || config.sale.resource !== event.path)
        throw new Error(`${label}: ${event.path} is neither ${PLATFORM_ROUTES.mppCredits} nor the deployment's priced resource`);
      const sale: SaleRequest = {
        ...request,
        resource: event.path,
        clientAddress: event.caller.clientAddress,
        ...(event.caller.identity === undefined ? {} : { identity: event.caller.identity }),
        body: event.body === undefined ? null : new TextEncoder().encode(event.body),
      };
      const during = event.whileServing ?? [];
      if (during.length > 0) {
        world.server.during = async () => {
          world.server.during = undefined;
          for (const [n, inner] of during.entries()) nested.push(await present(inner, `${label} whileServing ${n}`));
        };
      }
      outcome = await decideSale(sale, world.ports, config);
      world.server.during = undefined;
      if (nested.length !== during.length) throw new Error(`${label}: the call was never served, so its whileServing presentations never ran`);
    }
    const observed = observeAnswer(outcome, world.ledger(agents));
    return {
      type: 'present',
      expect: observed.expect,
      ...(built === undefined ? {} : { credential: built }),
      whileServing: nested,
      challenge: observed.challenge,
    } as EventResult & {
      type: 'present';
      challenge?: PaymentChallenge;
    };
  };

  const results: EventResult[] = [];
  for (const [index, event] of c.events.entries()) {
    switch (event.type) {
      case 'present': {
        const result = (await present(event, where(index), index)) as EventResult & { type: 'present'; challenge?: PaymentChallenge };
        if (result.challenge !== undefined) challenges.set(index, result.challenge);
        const { challenge: _kept, ...reported } = result;
        results.push(reported);
        break;
      }
      case 'advance':
        world.clock.advance(event.seconds);
        results.push({ type: 'other' });
        break;
      case 'configure':
        world.deployment = mergeDeployment(world.deployment, event.set);
        results.push({ type: 'other' });
        break;
      case 'processor':
        if (event.enqueue !== undefined) world.processor.enqueue(...event.enqueue);
        if (event.resolve !== undefined) world.processor.resolve(event.resolve.chargeId, event.resolve.state);
        if (event.refunds === 'fails') world.processor.refundFails = true;
        else if (event.refunds !== undefined) {
          world.processor.refundFails = false;
          world.processor.refundState = event.refunds;
        }
        results.push({ type: 'other' });
        break;
      case 'network':
        if (event.unreachable !== undefined) world.network.unreachable = event.unreachable;
        if (event.unreachableBroadcasts !== undefined) world.network.unreachableBroadcasts = event.unreachableBroadcasts;
        if (event.pendingReads !== undefined) world.network.pendingReads = event.pendingReads;
        if (event.finalOutcome !== undefined) world.network.finalOutcome = event.finalOutcome;
        if (event.resolve !== undefined) world.network.resolve(hashOf(event.resolve.hash, event.resolve.hashOfEvent, where(index)), event.resolve.outcome);
        results.push({ type: 'other' });
        break;
      case 'fault':
        if (event.lockUnavailable !== undefined) world.lock.unavailable = event.lockUnavailable;
        if (event.holdLock !== undefined) world.lock.hold(event.holdLock);
        if (event.assentFails !== undefined) world.store.failAssent = event.assentFails;
        if (event.grantFailures !== undefined) world.store.failGrants = event.grantFailures;
        if (event.fundingFails !== undefined) world.funding.failHold = event.fundingFails;
        if (event.walletLocationsUnavailable !== undefined) world.locations.unavailable = event.walletLocationsUnavailable;
        results.push({ type: 'other' });
        break;
      case 'server':
        world.server.enqueue(...event.enqueue);
        results.push({ type: 'other' });
        break;
      case 'report-settled': {
        let expect: SettlementExpect;
        if (event.by === 'processor') {
          if (event.chargeId === undefined) throw new Error(`${where(index)}: a processor report names the charge`);
          const report = {
            chargeId: event.chargeId,
            ...(event.idempotencyKey === undefined ? {} : { idempotencyKey: event.idempotencyKey }),
            ...(event.token === undefined ? {} : { token: event.token }),
          };
          const result = await settleReported(report, world.ports);
          expect = {
            credited: result.credited,
            reason: result.credited ? null : result.reason,
            balanceNano: result.credited ? result.balanceNano : null,
            refund: !result.credited && result.reason === 'unmatched' && result.refund !== undefined ? result.refund : null,
            after: world.ledger(agents),
          };
        } else {
          const result = await settleTransferReported({ hash: hashOf(event.hash, event.hashOfEvent, where(index)) }, world.ports);
          expect = {
            credited: result.credited,
            reason: result.credited ? null : result.reason,
            balanceNano: result.credited ? result.balanceNano : null,
            refund: null,
            after: world.ledger(agents),
          };
        }
        results.push({ type: 'report-settled', expect });
        break;
      }
    }
  }
  return results;
}

/** The signed transaction a stablecoin credential carries, if any. */
export function transactionIn(credential: string): Hex | undefined {
  const parsed = parseCredential(credential);
  const signature = parsed.ok ? parsed.credential.payload[TEMPO_PAYLOAD_MEMBERS.signature] : undefined;
  return typeof signature === 'string' && signature.startsWith('0x') ? (signature as Hex) : undefined;
}
