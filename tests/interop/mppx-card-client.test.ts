import { Challenge, Credential } from 'mppx';
import { Mppx, stripe as mppxStripe } from 'mppx/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  credentialFor,
  expiresAtSeconds,
  isCallAnswer,
  parseCredential,
  sameEcho,
  type PurchaseOutcome,
  type PurchaseRequest,
} from '../../src/purchase/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_CREDENTIAL_HEADER, STRIPE_PAYLOAD_MEMBERS } from '../../src/spec/payments.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';
import { BUYER, PACK_NANO, T0, VERSION, World, expectGranted, oneChallenge } from '../purchase/machine/helpers.js';
import { SaleWorld, expectCall } from '../purchase/sale/helpers.js';

const TOKEN = 'spt_test_mppx_client';
const PAYMENT_METHOD = 'pm_card_visa';
const PLATFORM_TOKEN = 'Bearer platform-token-of-the-buyer';
const CREDITS_URL = `https://platform.example${PLATFORM_ROUTES.mppCredits}`;

/** What mppx's stripe client hands the token minting callback (the card processor's side; stubbed to mint a test token). */
interface TokenAsk {
  readonly amount: string;
  readonly currency: string;
  readonly networkId: string | undefined;
  readonly expiresAt: number;
  readonly paymentMethod?: string | undefined;
}

function stripeClient(asked: TokenAsk[]) {
  return mppxStripe.charge({
    paymentMethod: PAYMENT_METHOD,
    createToken: async (ask) => {
      asked.push({ amount: ask.amount, currency: ask.currency, networkId: ask.networkId, expiresAt: ask.expiresAt, paymentMethod: ask.paymentMethod });
      return TOKEN;
    },
  });
}

/** Header fields of a fetch call as one record (lower-case names), the way the platform hands them to the machine. */
function headersOf(input: string | URL | Request, init?: RequestInit): Record<string, string> {
  return Object.fromEntries(new Request(input, init).headers.entries());
}

/** A Response for the machine's answer. */
function responseOf(outcome: PurchaseOutcome): Response {
  return new Response(JSON.stringify(outcome.body), { status: outcome.status, headers: outcome.headers });
}

describe("mppx 0.11's stripe client pays our card challenges", () => {
  beforeEach(() => {
    // mppx checks the challenge's expiry against Date.now() before paying; pin it to the machine's clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0 * 1000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('Mppx.fetch at POST /api/mpp/credits: 402, then the credential in Payment-Authorization (Authorization keeps the platform token), 200 granted', async () => {
    const world = new World();
    const asked: TokenAsk[] = [];
    const seen: Record<string, string>[] = [];
    // The platform in process: a bearer-authenticated buyer (the platform token), so assent counts as sent.
    const platform = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const headers = headersOf(input, init);
      seen.push(headers);
      const request: PurchaseRequest = { buyer: { agentUrl: BUYER }, signed: false, coveredHeaders: [], headers, now: world.clock.now() };
      return responseOf(await world.decideRequest(request));
    };
    const mppx = Mppx.create({ methods: [stripeClient(asked)], polyfill: false, fetch: platform as typeof fetch });

    const response = await mppx.fetch(CREDITS_URL, { method: 'POST', headers: { [HEADERS.authorization]: PLATFORM_TOKEN, [HEADERS.termsAccepted]: VERSION } });

    expect(seen).toHaveLength(2);
    const [unpaid, paid] = seen as [Record<string, string>, Record<string, string>];
    expect(unpaid[HEADERS.paymentAuthorization]).toBeUndefined();
    // header="Payment-Authorization" is followed: the credential goes there, the app's Authorization is left alone.
    expect(paid[HEADERS.authorization]).toBe(PLATFORM_TOKEN);
    expect(paid[HEADERS.termsAccepted]).toBe(VERSION);
    const credentialValue = paid[HEADERS.paymentAuthorization]!;
    expect(credentialValue.startsWith('Payment ')).toBe(true);

    // The challenge it answered is the one we issued; it echoes every member byte for byte.
    const parsed = parseCredential(credentialValue);
    if (!parsed.ok) throw new Error(parsed.detail);
    const issued = world.store.challenge(parsed.credential.challenge.id)!;
    expect(sameEcho(parsed.credential.challenge, issued.echo)).toBe(true);
    expect(parsed.credential.payload).toEqual({ [STRIPE_PAYLOAD_MEMBERS.spt]: TOKEN });
    expect(parsed.credential.source).toBeUndefined();
    expect(Credential.deserialize(credentialValue).challenge.header).toBe(PAYMENT_CREDENTIAL_HEADER);

    // What the stripe client asked the token for: the challenge's amount, currency, processor profile and expiry.
    expect(asked).toEqual([
      {
        amount: issued.price.amount,
        currency: issued.price.currency,
        networkId: world.config.pack.networkId,
        expiresAt: issued.expiresAt,
        paymentMethod: PAYMENT_METHOD,
      },
    ]);

    expect(response.status).toBe(200);
    const charge = world.processor.chargeFor(world.store.chargeOf(issued.id)!.idempotencyKey)!;
    expect(charge.token).toBe(TOKEN);
    expect(world.balance()).toBe(PACK_NANO);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true, granted: true, balance: { nano: PACK_NANO }, paymentIntentId: charge.chargeId });
  });

  it('createCredential for a card pack challenge gives a credential decidePurchase grants (200), and the same credential again is 409', async () => {
    const world = new World();
    const asked: TokenAsk[] = [];
    const mppx = Mppx.create({ methods: [stripeClient(asked)], polyfill: false, fetch: (async () => new Response(null)) as typeof fetch });
    const first = await world.decide();
    const ours = oneChallenge(first);
    const credential = await mppx.createCredential(responseOf(first));
    expect(Challenge.credentialHeader(Credential.deserialize(credential).challenge)).toBe(PAYMENT_CREDENTIAL_HEADER);
    expect(asked.map((a) => a.expiresAt)).toEqual([expiresAtSeconds(ours)]);

    const granted = await world.decide({ [HEADERS.paymentAuthorization]: credential, [HEADERS.termsAccepted]: VERSION });
    const chargeId = world.processor.chargeFor(world.store.chargeOf(ours.id)!.idempotencyKey)!.chargeId;
    expectGranted(granted, PACK_NANO, chargeId);
    const again = await world.decide({ [HEADERS.paymentAuthorization]: credential, [HEADERS.termsAccepted]: VERSION });
    expect(again.status).toBe(409);
    // mppx's echo equals ours member for member (it writes them in its own order, so the token differs from our JCS one).
    const ourCredential = credentialFor(ours, { [STRIPE_PAYLOAD_MEMBERS.spt]: TOKEN });
    const parsed = parseCredential(credential);
    expect(parsed.ok && sameEcho(parsed.credential.challenge, ourCredential.challenge)).toBe(true);
    expect(parsed.ok && parsed.canonical).toBe(false);
  });

  it('a single-call card challenge paid by mppx is served once', async () => {
    const world = new SaleWorld();
    const asked: TokenAsk[] = [];
    const mppx = Mppx.create({ methods: [stripeClient(asked)], polyfill: false, fetch: (async () => new Response(null)) as typeof fetch });
    const challenged = await world.anonymous();
    if (isCallAnswer(challenged)) throw new Error('expected a 402');
    const credential = await mppx.createCredential(responseOf(challenged));
    expect(asked.map((a) => [a.amount, a.currency])).toEqual([[world.config.sale.price.amount, world.config.sale.price.currency]]);
    const served = await world.anonymous({ [HEADERS.paymentAuthorization]: credential, [HEADERS.termsAccepted]: VERSION });
    const chargeId = [...world.processor.charges.values()][0]!.chargeId;
    expectCall(served, 200, { chargeId });
    expect(world.processor.charges.size).toBe(1);
    expect([...world.processor.charges.values()][0]!.token).toBe(TOKEN);
  });
});
