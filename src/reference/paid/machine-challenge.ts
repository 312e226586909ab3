import { HEADERS } from '../../spec/headers.js';
import { decidePurchase, isGranted, type PackGuard, type PurchaseConfig, type PurchasePorts } from '../../purchase/index.js';

/** Issues a pack challenge for a buyer: the `WWW-Authenticate` value, or null when the deployment is not selling now. */
export type ChallengeIssuer = (agentUrl: string) => Promise<string | null>;

/**
 * A challenge issued and recorded by the purchase machine itself, exactly as POST /api/mpp/credits would
 * issue it to this buyer asking without a credential (so the credential that pays it is redeemed there).
 * Where the machine answers without a challenge (mpp_disabled, purchases_disabled, mpp_not_configured) there
 * is nothing to pay in band: null.
 */
export function machineChallengeIssuer(
  ports: PurchasePorts,
  config: PurchaseConfig | (() => PurchaseConfig),
  guards?: () => readonly PackGuard[],
): ChallengeIssuer {
  return async (agentUrl) => {
    const outcome = await decidePurchase(
      { buyer: { agentUrl }, signed: true, coveredHeaders: [], headers: {}, now: ports.clock.now() },
      ports,
      typeof config === 'function' ? config() : config,
      guards?.(),
    );
    if (isGranted(outcome) || outcome.status !== 402) return null;
    return outcome.headers[HEADERS.wwwAuthenticate] ?? null;
  };
}
