import type { CaseDocuments, CaseStep, SignedRequestCase } from '../cases/types.js';
import { LIMITS } from '../spec/limits.js';
import type { ServiceNaming } from '../spec/naming.js';
import { HEADERS } from '../spec/headers.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../spec/wire.js';
import { agentAt, keyFromName, keySetDocument, type KeyPair } from '../scenarios/identities.js';
import { accepted } from '../scenarios/kit.js';
import { buildSignedRequest } from '../scenarios/request-builder.js';

/**
 * A signed-request case staged for a live deployment, whose state and configuration the run cannot set: what the
 * in-process target seeds is done through the wire instead.
 *
 * - Prior registrations: "registration happens through the signed request itself" (5.2), so the agent registers by
 *   signing with the registered keys first, from a key set that carries them (with the case's other keys: a platform
 *   caches what it read for 5 minutes). When the case's own key set lacks a registered key (it was removed), the
 *   platform sees that set only after its re-read interval: the case then waits for it (--allow-waits).
 * - The operator's platform key (owner keys): the key the run was given (--owner-key) is presented where the case
 *   presents its own.
 * - Bearer-token keys, where they only name the platform's own keys and the case presents a token no platform signed.
 * - Blocked agents: the deployment's test control (--control-url) blocks them before the case's first step.
 */
export interface LiveStagingOptions {
  /** `--allow-waits`: the run may wait minutes in real time. */
  readonly allowWaits: boolean;
  /** `--owner-key`: the operator's platform key the deployment accepts. */
  readonly ownerKey?: string | undefined;
  /** `--control-url`: the deployment's test control can block an agent (docs/contracts.md section 5). */
  readonly control?: boolean;
}

/**
 * How a case is built for a live run: `delay` seconds after now (its steps wait for it), and whether it presents a
 * platform token the deployment issued (`platformToken`: the run asks its CLI token route for one first); or not at
 * all, and why.
 */
export type LivePlan = { readonly delay: number; readonly platformToken?: true } | { readonly notRun: string };

/** Keys the scenarios sign with, found by the thumbprints registrations name. */
const KNOWN_KEYS: readonly KeyPair[] = ['alice-1', 'alice-2', 'bob-1'].map(keyFromName);

/** Past the key set re-read interval, with a margin for the two clocks and the time the registration took. */
const REREAD_WAIT_S = LIMITS.keySetRereadInterval.value + 5;

/**
 * Cases in which the registered key's absence from the key set changes no answer (the point is the operator's key):
 * the registered key stays published beside the case's own, so no wait for the platform to read the set again.
 */
const REMOVAL_INCIDENTAL = new Set(['continuity-owner-key']);

/**
 * Cases whose platform configuration names only the platform's own bearer-token keys, presenting a token no platform
 * signed (a JWT the agent signed itself, or one its Portal authority issued): a live deployment has keys of its own,
 * which did not sign it either.
 */
const OWN_TOKEN_KEYS_ONLY = new Set(['platform-token-self-signed', 'platform-token-portal-authority']);

/**
 * Cases presenting a valid platform token (5.3): live, one the deployment issued itself at its CLI token route (4.7)
 * to a signed request of the run's agent, in place of the one the case's own keys sign.
 */
const TOKEN_FROM_PLATFORM = new Set(['platform-token-valid', 'signed-request-ignores-valid-bearer']);

export const OWNER_KEY_REASON =
  "needs the operator's platform key: run with --owner-key KEY, the value the deployment accepts in X-Service-Owner-Key (5.2 key continuity)";
const BLOCKED_AGENT_REASON =
  'needs the agent blocked by the deployment (5.2 agent_blocked): run with --control-url URL against a deployment offering the test control of docs/contracts.md section 5 (state agent-blocked; serve --test-control offers it)';
export const WAIT_REREAD_REASON = `needs --allow-waits: the agent registers with a key its case's own key set no longer carries, which the platform reads only after its re-read interval (${LIMITS.keySetRereadInterval.value} s), so the run would wait ${REREAD_WAIT_S} s`;

function keysOf(document: CaseDocuments[string] | undefined): string[] {
  try {
    return ((JSON.parse(document?.body ?? '') as { keys?: Array<{ x?: string }> }).keys ?? []).map((k) => k.x ?? '');
  } catch {
    return [];
  }
}

/** What a live run must do before building `c` (one built at any time: the vector of the same scenario). */
export function planLive(c: SignedRequestCase, options: LiveStagingOptions): LivePlan {
  if (c.platform.owner_keys?.length && !options.ownerKey) return { notRun: OWNER_KEY_REASON };
  if (c.platform.blocked_agents?.length && !options.control) return { notRun: BLOCKED_AGENT_REASON };
  if (TOKEN_FROM_PLATFORM.has(c.id)) return { delay: 0, platformToken: true };
  let delay = 0;
  for (const [agentUrl, registration] of Object.entries(c.registrations ?? {})) {
    const keys = registration.thumbprints.map((t) => KNOWN_KEYS.find((k) => k.thumbprint === t));
    if (keys.some((k) => k === undefined)) return { notRun: `needs state-seeding: the registration of ${agentUrl} names a key the run does not hold` };
    const published = keysOf(c.documents[agentAt(agentUrl).keySetUrl]);
    if (!REMOVAL_INCIDENTAL.has(c.id) && keys.some((k) => !published.includes(k!.publicJwk.x))) {
      if (!options.allowWaits) return { notRun: WAIT_REREAD_REASON };
      delay = REREAD_WAIT_S;
    }
  }
  return { delay };
}

/**
 * Stages a case built for a live run (`delay` seconds after `now`, see planLive): its registrations become signed
 * requests sent first, at `now`; owner keys become the run's; platform-only token keys are dropped.
 */
export function stageLive(
  c: SignedRequestCase,
  now: number,
  options: LiveStagingOptions & {
    readonly nonce: () => string;
    readonly naming?: ServiceNaming | undefined;
    /** A platform token the deployment issued, for a case that presents one (planLive said so). */
    readonly platformToken?: string | undefined;
  },
): SignedRequestCase {
  const registering: CaseStep[] = [];
  const documents: Record<string, CaseDocuments[string]> = { ...c.documents };
  const restored: Record<string, CaseDocuments[string]> = {};
  for (const [agentUrl, registration] of Object.entries(c.registrations ?? {})) {
    const agent = agentAt(agentUrl);
    const keys = registration.thumbprints.map((t) => KNOWN_KEYS.find((k) => k.thumbprint === t)!);
    const own = c.documents[agent.keySetUrl];
    const published = keysOf(own);
    const missing = keys.filter((k) => !published.includes(k.publicJwk.x));
    if (missing.length) {
      // The registered keys beside the case's own, until the case's set is published at its first step.
      const ownKeys = KNOWN_KEYS.filter((k) => published.includes(k.publicJwk.x));
      documents[agent.keySetUrl] = keySetDocument([...missing, ...ownKeys].map((k) => k.publicJwk));
      if (own && !REMOVAL_INCIDENTAL.has(c.id)) restored[agent.keySetUrl] = own;
    }
    const request = buildSignedRequest({
      method: 'POST',
      url: `${new URL(c.steps[0]!.request.url).origin}${PLATFORM_ROUTES.cliToken}`,
      keySetUrl: agent.keySetUrl,
      created: now,
      expires: now + 60,
      body: new TextEncoder().encode('{}'),
      labels: keys.map((key, i) => ({ label: `sig${i + 1}`, key })),
      nonce: options.nonce,
      ...(options.naming ? { naming: options.naming } : {}),
    });
    registering.push({ at: now, request, expect: accepted(agentUrl) });
  }
  const ownerKeys = new Set(c.platform.owner_keys ?? []);
  const steps = c.steps.map((step, i) => {
    let next: CaseStep = step;
    if (ownerKeys.size && options.ownerKey) {
      // The case's owner key is a value no other header carries; the header's name may be the deployment's (--service-name).
      const headers = step.request.headers.map(([n, v]) => [n, ownerKeys.has(v) ? options.ownerKey! : v] as const);
      next = { ...next, request: { ...next.request, headers } };
    }
    if (i === 0 && Object.keys(restored).length) next = { ...next, documents: { ...restored, ...(next.documents ?? {}) } };
    if (options.platformToken && TOKEN_FROM_PLATFORM.has(c.id)) {
      const bearer = `${AUTH_SCHEMES.bearer} ${options.platformToken}`;
      const headers = next.request.headers.map(([n, v]) => [n, n.toLowerCase() === HEADERS.authorization ? bearer : v] as const);
      next = { ...next, request: { ...next.request, headers } };
    }
    return next;
  });
  const { owner_keys: _owners, blocked_agents: _blocked, ...platform } = c.platform;
  const { token_keys: _keys, token_issuer: _issuer, agent_scope: _scope, ...withoutTokenKeys } = platform;
  const { registrations: _registrations, ...rest } = c;
  return {
    ...rest,
    platform: OWN_TOKEN_KEYS_ONLY.has(c.id) || (options.platformToken && TOKEN_FROM_PLATFORM.has(c.id)) ? withoutTokenKeys : platform,
    documents,
    steps: [...registering, ...steps],
  };
}

/** Why a case that presents a valid platform token is not run live, when the deployment's CLI token route gave none. */
export function noPlatformTokenReason(status: number): string {
  return `needs a platform token the deployment issued: its ${PLATFORM_ROUTES.cliToken} answered a verified signed request with ${status} and no access_token (the spec shows no body; the reference answers as RFC 6749 5.1 does)`;
}

/** The access_token of a CLI token answer (RFC 6749 5.1, as the reference answers), if it has one. */
export function accessTokenOf(status: number, body: Uint8Array): string | undefined {
  if (status !== 200) return undefined;
  try {
    const token = (JSON.parse(Buffer.from(body).toString('utf8')) as { access_token?: unknown }).access_token;
    return typeof token === 'string' && token.split('.').length === 3 ? token : undefined;
  } catch {
    return undefined;
  }
}
