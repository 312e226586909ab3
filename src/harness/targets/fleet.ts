import type { SignedRequestCase } from '../../cases/types.js';
import type { SpendAnswer } from '../spend-ledger.js';
import type { Target, TargetRequest, TargetResponse, ThrottleTrip } from '../target.js';

/** Which instance a request goes to: 0 the one at --base-url, 1 the one at --also-base-url. */
export type Instance = 0 | 1;

/**
 * Two instances of one deployment seen as one target (`run --base-url A --also-base-url B`): everything but the
 * requests is the first instance's (its host, the fixture host, the pacer, the spending allowance), and each request
 * goes to the instance `route` names: by default they alternate, A first, as a load balancer would spread them.
 */
export class FleetTarget implements Target {
  readonly kind: Target['kind'];
  readonly description: string;
  readonly capabilities: Target['capabilities'];
  readonly environment: Target['environment'];
  readonly addresses: Target['addresses'];
  readonly pricedResources: Target['pricedResources'];
  readonly ownerKey: Target['ownerKey'];
  private sent = 0;
  /** Chooses the instance of the next request (its serial number among this target's requests); alternating unless set. */
  route: (serial: number) => Instance = (serial) => (serial % 2) as Instance;

  constructor(private readonly instances: readonly [Target, Target]) {
    const [a, b] = instances;
    this.kind = a.kind;
    this.description = `${a.description} and ${b.description}`;
    this.capabilities = a.capabilities;
    this.environment = a.environment;
    this.addresses = a.addresses;
    this.pricedResources = a.pricedResources;
    this.ownerKey = a.ownerKey;
  }

  /** Sends every later request to `instance` (until `route` is set again). */
  to(instance: Instance): this {
    this.route = () => instance;
    return this;
  }

  ready(expectedFailures: number): Promise<void> {
    return this.instances[0].ready?.(expectedFailures) ?? Promise.resolve();
  }

  /**
   * The run's one address held to trip the throttle: the first instance asks the run's pacer, the second joins its trip,
   * so requests to either are sent once and counted; `end` leaves both and waits out the throttle's window.
   */
  async throttleTrip(who: string): Promise<ThrottleTrip | { readonly notRun: string }> {
    const [a, b] = this.instances;
    if (!a.throttleTrip || !b.throttleTrip) return { notRun: "the target cannot hold the run's address for a check" };
    const trip = await a.throttleTrip(who);
    if ('notRun' in trip) return trip;
    const joined = await b.throttleTrip(who, trip);
    if ('notRun' in joined) {
      await trip.end();
      return joined;
    }
    return {
      id: trip.id,
      end: async () => {
        await joined.end();
        await trip.end();
      },
    };
  }

  /** Both instances enter the case: its requests come from the case's own client address whichever instance they reach. */
  async prepare(c: SignedRequestCase): Promise<void> {
    for (const instance of this.instances) await instance.prepare(c);
  }

  step(at: number, documents: SignedRequestCase['documents'] | undefined, why?: string): Promise<void> {
    return this.instances[0].step(at, documents, why);
  }

  spend(amount: number): Promise<SpendAnswer> {
    // An instance that never pays for real (in-process) grants every payment.
    return this.instances[0].spend?.(amount) ?? Promise.resolve({ granted: true, spentMinorUnits: 0, capMinorUnits: 0 });
  }

  send(request: TargetRequest): Promise<TargetResponse> {
    return this.instances[this.route(this.sent++)].send(request);
  }

  async close(): Promise<void> {
    await Promise.all(this.instances.map((t) => t.close()));
  }
}
