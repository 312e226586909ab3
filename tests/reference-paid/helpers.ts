import { WebSocket } from 'ws';
import { startFixtureHost, type FixtureHost } from '../../src/harness/fixture-host.js';
import { randomNonce, signRequest } from '../../src/httpsig/index.js';
import { credentialFor, parsePaymentChallenge, serializeCredential, type TermsNotice } from '../../src/purchase/index.js';
import { serializeFrame, type InbandFrame } from '../../src/purchase/inband.js';
import { serveReference, type ServedReference } from '../../src/reference/index.js';
import { machineChallengeIssuer, PurchasedBalanceLedger, type ChallengeIssuer } from '../../src/reference/paid/index.js';
import type { ReferencePurchases } from '../../src/reference/purchases.js';
import { agentAt, agentDocuments, keyFromName } from '../../src/scenarios/identities.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

export const PACK_NANO = 5_000_000_000n;
export const TURN_PRICE_NANO = 142_857_000n;

/** A served reference platform beside a fixture host publishing the agents' key sets and cards. */
export class PaidPlatform {
  /** The balance the rails spend: what the platform's purchase machine credited, minus what was spent. */
  readonly ledger: PurchasedBalanceLedger;

  private constructor(
    readonly fixture: FixtureHost,
    readonly served: ServedReference,
    readonly purchases: ReferencePurchases,
  ) {
    this.ledger = new PurchasedBalanceLedger(purchases.store);
  }

  static async start(): Promise<PaidPlatform> {
    const fixture = await startFixtureHost();
    // The tests mount the rails themselves, with their own prices and agents.
    const served = await serveReference({ port: 0, allowInsecureFixtures: true, platform: { paidRails: false } });
    const purchases = served.platform.purchases;
    if (!purchases) throw new Error('the reference platform serves no purchases');
    return new PaidPlatform(fixture, served, purchases);
  }

  /** The terms the deployment names now. */
  get terms(): TermsNotice {
    return this.purchases.config.terms;
  }

  /** Issues challenges through the platform's own purchase machine. */
  challengeIssuer(): ChallengeIssuer {
    return machineChallengeIssuer(this.purchases.ports, () => this.purchases.config);
  }

  get purchaseUrl(): string {
    return `${this.served.url}${PLATFORM_ROUTES.mppCredits}`;
  }

  agentUrl(name: string): string {
    return `${this.fixture.url}/a/${name}`;
  }

  /** Signature headers of `name` for a request, publishing its documents first; `extra` headers are sent and covered. */
  sign(name: string, method: string, url: string, extra: Record<string, string> = {}, body?: Uint8Array): Record<string, string> {
    const key = keyFromName(`paid-${name}`);
    const agent = agentAt(this.agentUrl(name));
    this.fixture.publish(agentDocuments(agent, [key]));
    const now = Math.floor(Date.now() / 1000);
    const { headers } = signRequest({
      method,
      url,
      headers: Object.entries(extra),
      ...(body ? { body } : {}),
      keys: [{ privateJwk: key.privateJwk }],
      signatureAgent: agent.keySetUrl,
      created: now,
      expires: now + 60,
      nonces: [randomNonce()],
      coveredHeaders: Object.keys(extra).map((n) => n.toLowerCase()),
    });
    return { ...extra, ...headers };
  }

  /** Pays a challenge value at purchase_url as `name`, signed, with assent to the terms; the HTTP answer. */
  async pay(name: string, challengeValue: string, token: string): Promise<Response> {
    const parsed = parsePaymentChallenge(challengeValue);
    if (!parsed.ok) throw new Error(`not a challenge: ${parsed.detail}`);
    const paid = {
      [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(parsed.challenge, { spt: token })),
      [HEADERS.termsAccepted]: this.terms.version,
    };
    return fetch(this.purchaseUrl, { method: 'POST', headers: this.sign(name, 'POST', this.purchaseUrl, paid) });
  }

  /** Buys a pack for `name` at purchase_url: asks for a challenge, then pays it. */
  async buyPack(name: string, token: string): Promise<Response> {
    const asked = await fetch(this.purchaseUrl, { method: 'POST', headers: this.sign(name, 'POST', this.purchaseUrl) });
    const value = asked.headers.get(HEADERS.wwwAuthenticate);
    if (asked.status !== 402 || value === null) throw new Error(`expected a 402 challenge, got ${asked.status}`);
    return this.pay(name, value, token);
  }

  async close(): Promise<void> {
    await this.served.close();
    await this.fixture.close();
  }
}

/** A client socket reading frames in order. */
export class FrameClient {
  private readonly frames: unknown[] = [];
  private readonly waiters: ((frame: unknown) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame: unknown = JSON.parse(data.toString());
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
  }

  static open(url: string, headers: Record<string, string>): Promise<FrameClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
      const client = new FrameClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The next frame (waits for it; the socket's own frames arrive without delay on loopback). */
  next(): Promise<Record<string, unknown>> {
    const queued = this.frames.shift();
    if (queued !== undefined) return Promise.resolve(queued as Record<string, unknown>);
    return new Promise((resolve) => this.waiters.push((frame) => resolve(frame as Record<string, unknown>)));
  }

  send(frame: InbandFrame): void {
    this.ws.send(serializeFrame(frame));
  }

  close(): void {
    this.ws.close();
  }
}

/** An upgrade that the platform refuses: its status, headers and body. */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    ws.once('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
  });
}
