import type { SpendAnswer } from './spend-ledger.js';
import type { SignedRequestCase } from '../cases/types.js';
import type { ControlRequest } from '../contract/test-control.js';
import type { WidgetService } from '../reference/widgets/index.js';
import type { ServiceNaming } from '../spec/naming.js';
import type { ProblemBases } from '../spec/problem-types.js';

/**
 * What a target can do beyond answering requests. A check that needs a capability the target lacks is
 * reported not-run with the reason, never passed.
 */
export type Capability =
  /** The target's clock can be set (steps at later times: caches, memory windows). */
  | 'clock-control'
  /** Each request can claim its client network address (per-address throttling). */
  | 'client-address'
  /** Prior state (registrations) can be put in place before a case. */
  | 'state-seeding'
  /** The platform can be configured per case (owner keys, blocked agents, bearer-token keys). */
  | 'platform-config'
  /** Faults of the deployment itself can be switched on (a route that reads the body first). */
  | 'fault-injection'
  /** Checks may present payment credentials (always in-process; live only with --allow-spend and a cap). */
  | 'spend'
  /** Stablecoin transfers settle on a simulated network: a live deployment would broadcast a real one. */
  | 'stablecoin-network'
  /** What the agents' host names resolve to can be chosen (a name resolving to a private address). */
  | 'dns-control';

export const CAPABILITY_REASONS: Readonly<Record<Capability, string>> = {
  'clock-control':
    'needs clock-control: steps happen at later times (caches, memory windows), which an in-process target fakes and a live run waits for in real time with --allow-waits',
  'client-address':
    'needs client-address control: the steps come from chosen network addresses (run with --client-address-header against a deployment that honours it)',
  'state-seeding':
    'needs state-seeding: the case starts from prior registrations, which only the embedded reference can be given; to run it, run in-process (without --base-url)',
  'platform-config':
    'needs platform-config: the case configures the platform (bearer-token keys, scopes, revocations), which only the embedded reference allows; to run it, run in-process (without --base-url)',
  'fault-injection': "needs fault-injection: the case switches on a fault of the platform's own route; to run it, run in-process (without --base-url)",
  'stablecoin-network':
    "needs stablecoin-network: the check's transfer is broadcast, which only the embedded reference's simulated network takes (a live deployment would broadcast a real transfer from the suite's unfunded test wallet); to run it, run in-process (without --base-url)",
  spend: 'needs spend: the check presents a payment credential, which a live run does only with --allow-spend --spend-cap N (test tokens spt_test_*)',
  'dns-control':
    "needs dns-control: an agent's host name must resolve to a private address, which only the embedded reference's fetcher can be told (the same rule is checked live with address literals); to run it, run in-process (without --base-url)",
};

export interface TargetRequest {
  readonly method: string;
  /** Absolute URL on the target's platform origin. */
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array | null;
  readonly clientAddress?: string;
  readonly bodyConsumed?: boolean;
}

export interface TargetResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** Where a case's scenarios are built: the platform's host, where agent documents live, and the time. */
interface TargetEnvironment {
  readonly authority: string;
  readonly platformOrigin: string;
  /** The origin agents' documents are published under for this case. */
  agentOrigin(caseId: string): string;
  now(): number;
  nonce(caseId: string, label: string, serial: number): string;
  /**
   * The names the deployment writes where the spec writes Service (`run --service-name`): requests are built, and
   * answers read, with them. Absent: the spec's neutral names.
   */
  readonly naming?: ServiceNaming;
  /** Seconds boundary times keep from the skew limit (live: READING-LIVE-CLOCK-SKEW); absent, none. */
  readonly clockMargin?: number;
}

/** Where a deployment's problem types and terms live, as the run was told (`run --problems-url` and the like). */
export interface DeploymentAddresses {
  readonly problemBases: Partial<ProblemBases>;
  readonly termsUrl?: string;
}

/**
 * The priced single-call resources a target sells calls at (7.4 names none: READING-PAID-SUCCESS): the embedded
 * reference's own, and the same paths on a live deployment, whose checks are not run where it serves nothing there.
 */
export interface PricedResources {
  readonly path: string;
  /** A second resource selling the same call, so a challenge one issued can be presented at the other. */
  readonly otherPath: string;
}

/**
 * The run's one address, held by one check to trip the deployment's throttle on purpose (7.3): its requests are each
 * sent once, never paced nor sent again when throttled. `end` gives the address back, waiting until the deployment no
 * longer throttles it.
 */
export interface ThrottleTrip {
  readonly id: number;
  end(): Promise<void>;
}

/** A WebSocket a target opened: text frames in arrival order. */
export interface TargetSocket {
  /** The next text frame; rejects when the socket closes, or none arrives within the socket's read timeout. */
  next(): Promise<string>;
  send(text: string): void;
  close(): void;
}

/** How an upgrade went: the socket opened, or the deployment refused it with this HTTP answer. */
export type SocketOpening = { readonly opened: true; readonly socket: TargetSocket } | { readonly opened: false; readonly response: TargetResponse };

export interface Target {
  readonly kind: 'in-process' | 'live';
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly environment: TargetEnvironment;
  /**
   * Called before a case is built (so its times are fresh when sent): waits until the target can take this
   * many failed signed requests without throttling the run itself.
   */
  ready?(expectedFailures: number): Promise<void>;
  /**
   * From the run's one address (live, no --client-address-header): waits until the run's pacer gives this check the
   * address alone (the deployment's window holding none of the run's failures), to trip its throttle; or says why not
   * (it needs --allow-waits: the run then waits out the throttle's window). `shared`: a trip another target of the
   * same run holds (the other instance of a fleet), which this one joins. Absent where a case's steps come from
   * addresses of their own (client-address).
   */
  throttleTrip?(who: string, shared?: ThrottleTrip): Promise<ThrottleTrip | { readonly notRun: string }>;
  /** Puts a case's documents, registrations and platform configuration in place. */
  prepare(c: SignedRequestCase): Promise<void>;
  /**
   * Moves the target's clock (clock-control: in-process it is set, live under --allow-waits the target waits until then,
   * saying `why`) and replaces documents from this step on.
   */
  step(at: number, documents: SignedRequestCase['documents'] | undefined, why?: string): Promise<void>;
  /** An origin for agent documents that no other case shares (a key directory is read per origin), or why there is none. */
  isolatedOrigin?(): Promise<{ readonly url: string } | { readonly reason: string }>;
  /** `run --owner-key`: the operator's platform key the live deployment accepts (5.2 key continuity); absent in-process. */
  readonly ownerKey?: string | undefined;
  send(request: TargetRequest): Promise<TargetResponse>;
  /** Where the deployment's problem types and terms live, when the run was told; absent, a live run learns them from the answers. */
  readonly addresses?: DeploymentAddresses;
  /**
   * The deployment's test control (`run --control-url`, docs/contracts.md section 5): puts one agent or one test token
   * in a named state. `notRun` when the deployment does not offer that state; absent when the run names no control.
   */
  control?(request: ControlRequest): Promise<{ readonly ok: true } | { readonly notRun: string }>;
  /** Where the target sells single calls; absent when it names none. */
  readonly pricedResources?: PricedResources;
  /**
   * The agent URL of an agent the platform itself hosts and relays to (/agents/<name>, 4.1), declaring the conformance
   * probes: the embedded reference's own; absent live, where the run's --agent-url names it.
   */
  readonly hostedAgentUrl?: string;
  /** The embedded reference's widget records and tool-call ledger, for what no public surface shows (4.5 steps 3-4, 2.5 billing); absent live. */
  readonly widgets?: WidgetService;
  /** The public keys of the agents the platform hosts, when the run knows them (the embedded reference's). */
  readonly hostedAgentKeys?: readonly { readonly kty: string; readonly crv?: string; readonly x?: string }[];
  /**
   * Takes `amount` (minor units) from the run's one spending allowance before a check pays; not granted when paying
   * it would pass the cap (the check is then not run). Absent: in-process, where paying spends nothing real.
   */
  spend?(amount: number): Promise<SpendAnswer>;
  /**
   * Asks to upgrade `url` (on the platform origin, http or https) to a WebSocket with these header fields (a
   * signed GET's). Absent: the target opens no sockets (checks of socket frames are not run).
   */
  openSocket?(url: string, headers: ReadonlyArray<readonly [string, string]>): Promise<SocketOpening>;
  close(): Promise<void>;
}

/** The capabilities a case needs, with the reason each is needed. */
function capabilitiesNeeded(c: SignedRequestCase): Capability[] {
  const needs = new Set<Capability>();
  for (const step of c.steps) {
    if (step.at !== undefined && step.at !== c.now) needs.add('clock-control');
    if (step.client_address !== undefined) needs.add('client-address');
    if (step.request.body_consumed) needs.add('fault-injection');
  }
  if (c.registrations && Object.keys(c.registrations).length) needs.add('state-seeding');
  if (c.dns && Object.keys(c.dns).length) needs.add('dns-control');
  const { authority: _authority, ...rest } = c.platform;
  if (Object.values(rest).some((v) => v !== undefined)) needs.add('platform-config');
  return [...needs];
}

export function missingCapabilities(target: Pick<Target, 'capabilities'>, c: SignedRequestCase): Capability[] {
  return capabilitiesNeeded(c).filter((n) => !target.capabilities.has(n));
}
