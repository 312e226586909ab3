import { createHash } from 'node:crypto';
import type { CaseDocuments, CaseExpect, CaseRequest, CaseStep, SignedRequestCase } from '../cases/types.js';
import { AUTH_ERRORS, type AuthErrorCode } from '../spec/auth-errors.js';
import type { ServiceNaming } from '../spec/naming.js';
import type { ReadingRecord } from '../spec/readings.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { PLATFORM_ROUTES, WELL_KNOWN } from '../spec/wire.js';
import { agentAt, agentDocuments, cardDocument, keyFromName, keySetDocument, type AgentIdentity, type KeyPair } from './identities.js';
import { buildSignedRequest, type LabelSpec, type RequestSpec } from './request-builder.js';

/** What a scenario is built against: the time, the platform's host, and where nonces come from. */
export interface ScenarioEnv {
  readonly now: number;
  readonly authority: string;
  readonly agentOrigin: string;
  /** The platform's origin; default https://<authority>. A live run against a loopback server uses http. */
  readonly platformOrigin?: string;
  /** A nonce for one label of one request; deterministic for vectors, random for live runs. */
  readonly nonce: (caseId: string, label: string, serial: number) => string;
  /** The deployment's names for Service (`run --service-name`): requests are sent and signed under them. Absent: the spec's. */
  readonly naming?: ServiceNaming;
  /**
   * Seconds boundary times keep from the clock skew limit, on the side their expectation needs: 0 for vectors and an
   * injected clock; live, the clocks and the transit differ by what the run cannot measure (READING-LIVE-CLOCK-SKEW).
   */
  readonly clockMargin?: number;
}

export const VECTOR_ENV: ScenarioEnv = Object.freeze({
  now: 1_800_000_000,
  authority: 'platform.example',
  agentOrigin: 'https://agents.example',
  nonce: (caseId: string, label: string, serial: number) => createHash('sha256').update(`${caseId}/${label}/${serial}`).digest('base64'),
});

export interface Scenario {
  readonly id: string;
  readonly description: string;
  readonly flags: readonly string[];
  readonly build: (kit: Kit) =>
    | (Omit<SignedRequestCase, 'id' | 'description' | 'now' | 'platform'> & {
        readonly platform?: Partial<SignedRequestCase['platform']> & Record<string, unknown>;
      })
    | Promise<Omit<SignedRequestCase, 'id' | 'description' | 'now' | 'platform'> & { readonly platform?: Record<string, unknown> }>;
}

export interface Group {
  readonly comment: string;
  readonly scenarios: readonly Scenario[];
}

export function refused(code: AuthErrorCode): CaseExpect {
  const record = AUTH_ERRORS[code];
  return { ok: false, status: record.status, error_code: record.code };
}

export function accepted(agentUrl: string | null): CaseExpect {
  return { ok: true, status: 200, error_code: null, agent_url: agentUrl };
}

/**
 * The reference's answer where the spec allows others too (a reading of src/spec/readings/): the codes in
 * `also` (null for acceptance) conform as well, and a deployment answering one of them passes.
 */
export function allowing(expect: CaseExpect, also: readonly (AuthErrorCode | null)[], reading: ReadingRecord): CaseExpect {
  return { ...expect, also_allowed: also, reading: reading.id };
}

type RequestOverrides = Partial<Omit<RequestSpec, 'labels' | 'nonce'>> & {
  readonly labels?: readonly LabelSpec[];
  readonly nonce?: (label: string) => string;
  readonly bodyText?: string;
};

/** Identities and builders shared by the scenarios of one case. */
export class Kit {
  readonly alice: AgentIdentity;
  readonly bob: AgentIdentity;
  readonly A = keyFromName('alice-1');
  readonly A2 = keyFromName('alice-2');
  readonly B = keyFromName('bob-1');
  readonly platformUrl: string;
  private serial = 0;

  constructor(
    readonly env: ScenarioEnv,
    readonly caseId: string,
  ) {
    this.alice = agentAt(`${env.agentOrigin}/a/alice`);
    this.bob = agentAt(`${env.agentOrigin}/a/bob`);
    this.platformUrl = env.platformOrigin ?? `https://${env.authority}`;
  }

  /** The platform's host without its port, for building hosts that are not the platform's. */
  get hostname(): string {
    return new URL(this.platformUrl).hostname;
  }

  /** The same route on another host: an alias or custom domain of the platform (not its own host). */
  onHost(host: string, path: string = PLATFORM_ROUTES.cliToken): string {
    return `${new URL(this.platformUrl).protocol}//${host}${path}`;
  }

  get now(): number {
    return this.env.now;
  }

  /** The agent a type=directory case names: an origin beside the case's own agents (live, the case's own origin). */
  get directoryAgent(): AgentIdentity {
    return agentAt(this.env.agentOrigin.replace('agents.', 'directory.'));
  }

  /** The directory agent's key directory (key A, served with `mediaType`) and its card (with `card` members changed). */
  directoryDocs(o: { mediaType?: string | undefined; card?: Record<string, unknown> } = { mediaType: MEDIA_TYPES.keyDirectory }): CaseDocuments {
    const origin = this.directoryAgent;
    return {
      [origin.agentUrl + WELL_KNOWN.keyDirectory]: keySetDocument([this.A.publicJwk], o.mediaType),
      [origin.cardUrl]: cardDocument(origin, o.card),
    };
  }

  /** How far a boundary time keeps from the skew limit (ScenarioEnv.clockMargin). */
  get clockMargin(): number {
    return this.env.clockMargin ?? 0;
  }

  /** A fresh nonce per call, unless a scenario reuses one on purpose. */
  freshNonce(label: string): string {
    return this.env.nonce(this.caseId, label, this.serial++);
  }

  docs(identity: AgentIdentity = this.alice, keys: readonly KeyPair[] = [this.A]): CaseDocuments {
    return agentDocuments(identity, keys);
  }

  /** The platform's CLI token route (4.7), the route every signed-request vector targets by default. */
  url(path: string = PLATFORM_ROUTES.cliToken, query = ''): string {
    return `${this.platformUrl}${path}${query}`;
  }

  /** A request signed as the platform's SDK signs it; overrides change exactly one thing. */
  request(o: RequestOverrides = {}): CaseRequest {
    const nonces = new Map<string, string>();
    const nonce = o.nonce ?? ((label: string) => nonces.get(label) ?? nonces.set(label, this.freshNonce(label)).get(label)!);
    const body = o.bodyFill ? undefined : (o.body ?? new TextEncoder().encode(o.bodyText ?? '{}'));
    return buildSignedRequest({
      method: 'POST',
      url: this.url(),
      keySetUrl: this.alice.keySetUrl,
      created: this.now,
      expires: this.now + 60,
      labels: [{ label: 'sig1', key: this.A }],
      ...(this.env.naming ? { naming: this.env.naming } : {}),
      ...o,
      ...(body ? { body } : {}),
      nonce,
    });
  }

  step(request: CaseRequest, expect: CaseExpect, extra: Partial<CaseStep> = {}): CaseStep {
    return { request, expect, ...extra };
  }
}

export async function buildCase(env: ScenarioEnv, scenario: Scenario): Promise<SignedRequestCase & { flags: readonly string[] }> {
  const kit = new Kit(env, scenario.id);
  const built = await scenario.build(kit);
  return {
    id: scenario.id,
    description: scenario.description,
    flags: scenario.flags,
    ...built,
    platform: { authority: env.authority, ...(built.platform ?? {}) },
    now: env.now,
  } as SignedRequestCase & { flags: readonly string[] };
}
