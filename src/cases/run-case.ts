import { createMemoryFetcher } from '../fetch/memory-fetcher.js';
import { createMemoryPorts } from '../verifier/memory-ports.js';
import type { Registration } from '../verifier/ports.js';
import type { Verdict, VerifierConfig } from '../verifier/types.js';
import { verifyRequest } from '../verifier/verify-request.js';
import { caseRequestBody } from './request-body.js';
import { judgeExpectation } from './expectation.js';
import type { SignedRequestCase } from './types.js';

/** docs/contracts.md section 2: a step's client address when the case names none. */
export const DEFAULT_CLIENT_ADDRESS = '192.0.2.1';
const ACCEPTED_STATUS = 200;

export interface StepResult {
  readonly ok: boolean;
  readonly status: number;
  readonly error_code: string | null;
  readonly agent_url: string | null;
  readonly headers: Readonly<Record<string, string>>;
  /** The refusal's description, or null when accepted. */
  readonly description: string | null;
  /** The refusal's JSON body (7.3), or null when accepted. */
  readonly body: Readonly<Record<string, unknown>> | null;
  /** null when the step states no expectation. */
  readonly matches_expect: boolean | null;
  /** One sentence per expect member that differs. */
  readonly mismatches: readonly string[];
  /** Set when the verdict is another outcome the spec allows than the reference's own (a note, not a failure). */
  readonly reading?: string;
}

export interface CaseResult {
  readonly id: string;
  readonly steps: readonly StepResult[];
}

/** The scope a platform token needs when a case does not name one. */
const DEFAULT_AGENT_SCOPE = 'agent';

function toResult(verdict: Verdict): Omit<StepResult, 'matches_expect' | 'mismatches'> {
  if (verdict.ok) {
    return {
      ok: true,
      status: ACCEPTED_STATUS,
      error_code: null,
      agent_url: verdict.kind === 'signature' ? verdict.agentUrl : null,
      headers: {},
      description: null,
      body: null,
    };
  }
  return {
    ok: false,
    status: verdict.status,
    error_code: verdict.code,
    agent_url: verdict.agentUrl,
    headers: verdict.headers,
    description: verdict.description,
    body: verdict.body,
  };
}

function verifierConfigOf(c: SignedRequestCase): VerifierConfig {
  const platform = c.platform;
  return {
    authority: platform.authority,
    ...(platform.owner_keys ? { ownerKeys: platform.owner_keys } : {}),
    ...(platform.blocked_agents ? { blockedAgents: platform.blocked_agents } : {}),
    ...(platform.token_keys
      ? {
          platformToken: {
            keys: platform.token_keys,
            agentScope: platform.agent_scope ?? DEFAULT_AGENT_SCOPE,
            ...(platform.token_issuer ? { issuer: platform.token_issuer } : {}),
          },
        }
      : {}),
  };
}

/** Runs the steps of a case, in order, against one verifier state (nonces, caches, counters, registrations). */
export async function runCase(c: SignedRequestCase): Promise<CaseResult> {
  let now = c.now;
  const clock = { now: () => now };
  let documents = { ...c.documents };
  const fetcher = createMemoryFetcher(documents, c.dns ? { addresses: c.dns } : {});
  const registrations: Registration[] = Object.entries(c.registrations ?? {}).map(([agentUrl, r]) => ({
    agentUrl,
    thumbprints: [...r.thumbprints],
    registeredAt: c.now,
  }));
  const ports = createMemoryPorts(clock, fetcher, registrations);
  const platform = c.platform;
  for (const jti of platform.revoked_token_ids ?? []) ports.revocations.revoke(jti);
  const config = verifierConfigOf(c);

  const steps: StepResult[] = [];
  for (const step of c.steps) {
    now = step.at ?? c.now;
    if (step.documents) {
      documents = { ...documents, ...step.documents };
      fetcher.replace(documents);
    }
    const verdict = await verifyRequest(
      {
        method: step.request.method,
        url: step.request.url,
        headers: step.request.headers,
        body: caseRequestBody(step.request),
        clientAddress: step.client_address ?? DEFAULT_CLIENT_ADDRESS,
        bodyConsumed: step.request.body_consumed === true,
      },
      ports,
      config,
    );
    const result = toResult(verdict);
    const { matches, mismatches, reading } = judgeExpectation(step.expect, result);
    steps.push({ ...result, matches_expect: matches, mismatches, ...(reading ? { reading } : {}) });
  }
  return { id: c.id, steps };
}
