import { createAuthSkill, mintSdkToken, signingKeyFromJwk, type JsonWebKeySet, type Random } from '../../sdk-auth/index.js';
import type { AccessBlock } from '../../reference/agent/caller.js';
import { PROBE_GROUP } from '../../reference/agent/conformance-endpoints.js';
import { keyFromName } from '../../scenarios/identities.js';
import { WELL_KNOWN } from '../../spec/wire.js';

/** The callers a check can present (5.4): a plain verified caller, a member of the probes' group, the owner, an admin, one the access block keeps out. */
export type CallerRole = 'user' | 'member' | 'owner' | 'admin' | 'denied';

export const CALLER_IDS: Readonly<Record<CallerRole, string>> = Object.freeze({ user: 'ursula', member: 'mia', owner: 'olivia', admin: 'adam', denied: 'dora' });

/** The access block an in-process reference agent is given, placing the callers above. */
export const CALLER_ACCESS: AccessBlock = Object.freeze({ owner: CALLER_IDS.owner, admins: [CALLER_IDS.admin], groups: { [PROBE_GROUP]: [CALLER_IDS.member] }, deny: [CALLER_IDS.denied] });

/** Each caller is an SDK agent of its own with a fixed key, its key set at https://<id>.callers.example. */
export function callerUrl(role: CallerRole): string {
  return `https://${CALLER_IDS[role]}.callers.example`;
}

/** The callers' key sets by URL, for the agent's key-set port. */
export function callerKeySets(): Record<string, JsonWebKeySet> {
  const sets: Record<string, JsonWebKeySet> = {};
  for (const role of Object.keys(CALLER_IDS) as CallerRole[]) {
    const key = keyFromName(`caller/${CALLER_IDS[role]}`);
    sets[callerUrl(role) + WELL_KNOWN.jwks] = { keys: [{ ...key.publicJwk, kid: key.thumbprint }] };
  }
  return sets;
}

/** A self-issued SDK token (2.2) of the caller for the agent at `audience`, minted with sdk-auth. */
export async function callerToken(role: CallerRole, audience: string, ports: { readonly clock: { now(): number }; readonly random: Random }): Promise<string> {
  const made = createAuthSkill({ base_url: callerUrl(role), agent_id: CALLER_IDS[role] });
  if (!made.ok) throw new Error(made.message);
  const key = keyFromName(`caller/${CALLER_IDS[role]}`);
  const signing = await signingKeyFromJwk({ ...key.privateJwk }, key.thumbprint);
  const minted = await mintSdkToken(made.skill, { audience, scopes: ['read'], key: signing }, ports);
  if (!minted.ok) throw new Error(minted.message);
  return minted.token;
}
