import { recordRequest, recordResponse, type Exchange } from '../../src/harness/exchange.js';
import { readPaidAnswer, type PaidAnswer } from '../../src/harness/judge-purchase.js';
import type { Target, TargetResponse } from '../../src/harness/target.js';
import { serializeCredential, type ChallengeEcho } from '../../src/purchase/index.js';
import { Kit } from '../../src/scenarios/kit.js';
import { defaultCovered } from '../../src/scenarios/request-builder.js';
import { HEADERS } from '../../src/spec/headers.js';
import { STRIPE_PAYLOAD_MEMBERS } from '../../src/spec/payments.js';
import { PLATFORM_ROUTES } from '../../src/spec/wire.js';

const LABEL = 'sig1';
const NO_BODY = new Uint8Array(0);

export interface PaidRequestOptions {
  /** Header fields sent; names from the catalogue (HEADERS). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Which of those fields the signature covers (default: all of them); ignored when unsigned. */
  readonly cover?: readonly string[];
  /** false: send without any signature (an unauthenticated caller). */
  readonly signed?: boolean;
  readonly path?: string;
}

export interface PaidExchange extends PaidAnswer {
  readonly response: TargetResponse;
}

/**
 * A buying agent on a target: its key set is published where the target reads agent documents, it signs
 * its requests the way the platform's SDK does (7.4: the paid retry covers Payment-Authorization and the
 * terms assent), and it records every exchange for the report.
 */
export class Buyer {
  private clock: number;
  readonly kit: Kit;

  constructor(
    readonly target: Target,
    readonly caseId: string,
    private readonly record: (exchange: Exchange) => void,
  ) {
    const env = target.environment;
    this.clock = env.now();
    const self = this;
    this.kit = new Kit(
      {
        get now() {
          return self.clock;
        },
        authority: env.authority,
        platformOrigin: env.platformOrigin,
        agentOrigin: env.agentOrigin(caseId),
        nonce: env.nonce,
      },
      caseId,
    );
  }

  get agentUrl(): string {
    return this.kit.alice.agentUrl;
  }

  /** The target's clock now (moved by `advance` in-process; the real time live). */
  get now(): number {
    return this.clock;
  }

  /** Publishes the buyer's key set and card and starts the target's clock for this check. */
  async register(): Promise<this> {
    await this.target.prepare({
      id: this.caseId,
      description: this.caseId,
      now: this.clock,
      platform: { authority: this.target.environment.authority },
      documents: this.kit.docs(),
      steps: [],
    });
    return this;
  }

  /** Moves the target's clock (clock-control). */
  async advance(seconds: number): Promise<void> {
    this.clock += seconds;
    await this.target.step(this.clock, undefined);
  }

  async post(options: PaidRequestOptions = {}): Promise<PaidExchange> {
    if (this.target.kind === 'live') this.clock = this.target.environment.now();
    const headers = Object.entries(options.headers ?? {}) as Array<[string, string]>;
    const url = this.kit.url(options.path ?? PLATFORM_ROUTES.mppCredits);
    let request: { method: string; url: string; headers: ReadonlyArray<readonly [string, string]>; body: Uint8Array | null };
    if (options.signed === false) {
      request = { method: 'POST', url, headers, body: null };
    } else {
      const cover = options.cover ?? headers.map(([name]) => name);
      const signed = this.kit.request({
        url,
        body: NO_BODY,
        headers,
        labels: [{ label: LABEL, key: this.kit.A, covered: [...defaultCovered(LABEL, false), ...cover.map((name) => `"${name.toLowerCase()}"`)] }],
      });
      request = { method: signed.method, url: signed.url, headers: signed.headers, body: null };
    }
    const response = await this.target.send(request);
    this.record({ request: recordRequest(request), response: recordResponse(response) });
    return { ...readPaidAnswer(response), response };
  }
}

/** The paid retry's headers: a card credential answering `echo` with `token`, and assent to `version` (null: none). */
export function cardPayment(echo: ChallengeEcho, token: string, version: string | null): Record<string, string> {
  return {
    [HEADERS.paymentAuthorization]: serializeCredential({ challenge: echo, payload: { [STRIPE_PAYLOAD_MEMBERS.spt]: token } }),
    ...(version === null ? {} : { [HEADERS.termsAccepted]: version }),
  };
}
