import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFundedFrame,
  checkPaymentRequiredFrame,
  decimalAmount,
  describeProblems,
  paymentSubmitFrame,
  responseCreateFrame,
} from '../../src/purchase/inband.js';
import { parsePaymentChallenge } from '../../src/purchase/index.js';
import { agentSocketRoute, textOutput } from '../../src/reference/paid/index.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import {
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  REQUIREMENTS_CURRENCY,
  RESPONSE_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
  SOCKET_ERROR_CODES,
  SOCKET_ERROR_MEMBERS,
} from '../../src/spec/inband.js';
import { TERMS_OBJECT_MEMBERS } from '../../src/spec/payments.js';
import { acceptSignatureValue } from '../../src/verifier/refusal.js';
import { FrameClient, PACK_NANO, PaidPlatform, TURN_PRICE_NANO, refusedUpgrade } from './helpers.js';

/**
 * The agent socket end to end over loopback (6, 7.4): a signed upgrade opens /agents/<name>/uamp; a turn the
 * balance does not cover gets payment.required with a challenge the purchase machine issued; the client pays it
 * at purchase_url (POST /api/mpp/credits, the machine, an in-memory card processor) and sends payment.submit
 * with scheme balance; the turn then runs and payment.accepted and response.done carry the terms object.
 */
const AGENTS = new Set(['alice', 'bob']);
let platform: PaidPlatform;
let failNext = false;

const socketUrl = (name: string) => `${platform.served.url}/agents/${name}/uamp`;
const termsObject = () => ({ [TERMS_OBJECT_MEMBERS.url]: platform.terms.url, [TERMS_OBJECT_MEMBERS.version]: platform.terms.version });

async function open(caller: string, agent = 'alice'): Promise<FrameClient> {
  return FrameClient.open(socketUrl(agent), platform.sign(caller, 'GET', socketUrl(agent)));
}

beforeAll(async () => {
  platform = await PaidPlatform.start();
  platform.served.platform.sockets.push(
    agentSocketRoute({
      balances: platform.ledger,
      turnPriceNano: TURN_PRICE_NANO,
      purchaseUrl: platform.purchaseUrl,
      terms: () => platform.terms,
      issueChallenge: platform.challengeIssuer(),
      agents: (name) => AGENTS.has(name),
      runTurn: ({ input }) => {
        if (failNext) {
          failNext = false;
          throw new Error('model down');
        }
        return `echo: ${input}`;
      },
    }),
  );
});
afterAll(async () => {
  await platform?.close();
});

describe('the agent socket upgrade (4.2, 7.4)', () => {
  it('refuses an unsigned upgrade with 401 and Accept-Signature before the socket opens', async () => {
    const refused = await refusedUpgrade(socketUrl('alice'));
    expect(refused.status).toBe(401);
    expect(refused.headers[HEADERS.acceptSignature]).toBe(acceptSignatureValue(false));
    expect(JSON.parse(refused.body).error_code).toBe(AUTH_CODES.missing_credential);
  });

  it('refuses a signed upgrade whose signature does not verify, 401 with Accept-Signature', async () => {
    const headers = { ...platform.sign('mallory', 'GET', socketUrl('alice')), [HEADERS.signature]: `sig1=:${Buffer.alloc(64, 7).toString('base64')}:` };
    const refused = await refusedUpgrade(socketUrl('alice'), headers);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error_code).toBe(AUTH_CODES.signature_invalid);
    expect(refused.headers[HEADERS.acceptSignature]).toBe(acceptSignatureValue(false));
  });

  it('answers 404 for an agent the platform does not host', async () => {
    const refused = await refusedUpgrade(socketUrl('nobody'), platform.sign('carol', 'GET', socketUrl('nobody')));
    expect(refused.status).toBe(404);
  });
});

describe('a turn the balance does not cover (6)', () => {
  it('waits on payment.required, is paid at purchase_url, resumes on payment.submit balance, and carries the terms object', async () => {
    const client = await open('dave');
    const payer = platform.agentUrl('dave');
    client.send(responseCreateFrame('c1', 'hello'));

    const required = await client.next();
    expect(describeProblems(checkPaymentRequiredFrame(required, { mpp: 'challenge' }))).toEqual([]);
    const requirements = required[FRAME_MEMBERS.requirements] as Record<string, unknown>;
    expect(requirements[PAYMENT_REQUIREMENTS_MEMBERS.amount]).toBe(decimalAmount(TURN_PRICE_NANO));
    expect(requirements[PAYMENT_REQUIREMENTS_MEMBERS.currency]).toBe(REQUIREMENTS_CURRENCY);
    const [token, mpp] = requirements[PAYMENT_REQUIREMENTS_MEMBERS.schemes] as Record<string, unknown>[];
    expect(token).toEqual({ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token });
    expect(mpp?.[SCHEME_ENTRY_MEMBERS.purchaseUrl]).toBe(platform.purchaseUrl);
    expect(mpp?.[SCHEME_ENTRY_MEMBERS.terms]).toEqual(termsObject());

    // The challenge is the machine's own: recorded in its store, for the pack, and it parses as WWW-Authenticate would.
    const value = mpp?.[SCHEME_ENTRY_MEMBERS.challenge] as string;
    const parsed = parsePaymentChallenge(value);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(platform.purchases.store.challenge(parsed.challenge.id)).toMatchObject({ id: parsed.challenge.id, packId: platform.purchases.config.pack.packId });

    // Nothing ran and nothing was spent while the turn waits.
    expect(await platform.ledger.balanceOf(payer)).toBe(0n);

    const paid = await platform.pay('dave', value, 'spt_dave');
    expect(paid.status).toBe(200);
    expect(await platform.ledger.balanceOf(payer)).toBe(PACK_NANO);

    client.send(paymentSubmitFrame('c2', decimalAmount(TURN_PRICE_NANO)));
    const accepted = await client.next();
    expect(accepted[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.paymentAccepted);
    expect(accepted[FRAME_MEMBERS.terms]).toEqual(termsObject());
    expect(accepted[FRAME_MEMBERS.balanceRemaining]).toBe(String(PACK_NANO - TURN_PRICE_NANO));
    expect(checkFundedFrame(accepted, { type: INBAND_FRAME_TYPES.paymentAccepted })).toEqual({ ok: true });

    const done = await client.next();
    expect(done[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseDone);
    expect(done[FRAME_MEMBERS.terms]).toEqual(termsObject());
    expect((done[FRAME_MEMBERS.response] as Record<string, unknown>)[RESPONSE_MEMBERS.output]).toEqual([textOutput('echo: hello')]);
    expect(await platform.ledger.balanceOf(payer)).toBe(PACK_NANO - TURN_PRICE_NANO);

    // The next turn is covered: it runs at once, with the terms object and no payment.accepted.
    client.send(responseCreateFrame('c3', 'again'));
    const covered = await client.next();
    expect(covered[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseDone);
    expect(covered[FRAME_MEMBERS.terms]).toEqual(termsObject());
    client.close();
  });

  it('answers payment.submit before the balance covers the turn with a fresh payment.required', async () => {
    const client = await open('erin');
    client.send(responseCreateFrame('c1', 'x'));
    const first = await client.next();
    client.send(paymentSubmitFrame('c2', '0'));
    const second = await client.next();
    expect(checkPaymentRequiredFrame(second, { mpp: 'challenge' })).toEqual({ ok: true });
    const challengeOf = (frame: Record<string, unknown>) =>
      ((frame[FRAME_MEMBERS.requirements] as Record<string, unknown>)[PAYMENT_REQUIREMENTS_MEMBERS.schemes] as Record<string, unknown>[])[1]?.[
        SCHEME_ENTRY_MEMBERS.challenge
      ];
    expect(challengeOf(second)).not.toBe(challengeOf(first));
    client.close();
  });

  it('ends a funded turn that fails in response.error carrying the terms object', async () => {
    const bought = await platform.buyPack('frank', 'spt_frank');
    expect(bought.status).toBe(200);
    const client = await open('frank');
    failNext = true;
    client.send(responseCreateFrame('c1', 'x'));
    const error = await client.next();
    expect(error[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseError);
    expect(error[FRAME_MEMBERS.terms]).toEqual(termsObject());
    expect((error[FRAME_MEMBERS.error] as Record<string, unknown>)[SOCKET_ERROR_MEMBERS.code]).toBe(SOCKET_ERROR_CODES.turnFailed);
    client.close();
  });

  it('gives a caller on a platform bearer the pointer: purchase_url only, no challenge', async () => {
    const minted = await platform.served.platform.tokens.mint(platform.agentUrl('gina'));
    const client = await FrameClient.open(socketUrl('bob'), { [HEADERS.authorization]: `Bearer ${minted.token}` });
    client.send(responseCreateFrame('c1', 'x'));
    const required = await client.next();
    expect(describeProblems(checkPaymentRequiredFrame(required, { mpp: 'pointer' }))).toEqual([]);
    const schemes = (required[FRAME_MEMBERS.requirements] as Record<string, unknown>)[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
    expect(schemes).toEqual([
      { [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token },
      { [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp, [SCHEME_ENTRY_MEMBERS.purchaseUrl]: platform.purchaseUrl },
    ]);
    client.close();
  });

  it('refuses payment.submit when no turn waits, with no terms object', async () => {
    const client = await open('hank');
    client.send(paymentSubmitFrame('c1', '0'));
    const error = await client.next();
    expect(error[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.responseError);
    expect((error[FRAME_MEMBERS.error] as Record<string, unknown>)[SOCKET_ERROR_MEMBERS.code]).toBe(SOCKET_ERROR_CODES.noTurnWaiting);
    expect(FRAME_MEMBERS.terms in error).toBe(false);
    client.close();
  });
});
