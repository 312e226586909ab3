import { randomBytes } from 'node:crypto';
import { recordRequest, recordResponse } from '../../src/harness/exchange.js';
import { requestUrlOf, type AgentRequest, type AgentTarget } from '../../src/harness/agent/index.js';
import type { TargetResponse } from '../../src/harness/target.js';
import type { UpgradeOutcome } from '../../src/harness/agent/agent-target.js';
import { NO_CALLERS_REASON } from '../../src/harness/agent/live.js';
import { SDK_TOKEN_ALGORITHMS } from '../../src/harness/agent/callers.js';
import { PROBE_CALL_MARK, PROBE_CALLS_MEMBER, PROBES } from '../../src/contract/probes.js';
import { HEADERS } from '../../src/spec/headers.js';
import { READINGS } from '../../src/spec/readings.js';
import type { SdkJwtAlgorithm } from '../../src/spec/sdk-auth.js';
import type { CheckContext } from './check.js';
import { agentSuiteNotRunReason } from './target.js';

/** How long the warm-up before a suite's first check may take (it builds the agent and imports the callers' keys). */
export const WARM_UP_MS = 60_000;

/**
 * Readies the agent and its callers before the file's first check (a beforeAll): that one-time work would otherwise fall
 * in the first check's time limit, which it passed on a loaded machine. Nothing to do for a suite reported not run.
 */
export async function warmUp(target: AgentTarget): Promise<void> {
  if (agentSuiteNotRunReason() === undefined) await target.warmUp();
}

/** Sends a request to the agent and records the exchange for the report. */
export async function exchange(target: AgentTarget, c: Pick<CheckContext, 'record'>, request: AgentRequest): Promise<TargetResponse> {
  const response = await target.send(request);
  const body = request.body instanceof ReadableStream ? null : (request.body ?? null);
  c.record({
    request: recordRequest({ method: request.method, url: requestUrlOf(target.agentUrl, request.path), headers: request.headers ?? [], body }),
    response: recordResponse(response),
  });
  return response;
}

/** READING-PROBE-NOT-DECLARED: the reason a check is not run when the agent answers 404 at a conformance probe. */
function probeNotDeclared(path: string): string {
  return `probe not declared: the agent answers 404 at ${path.split('?')[0]}; an agent under test declares the conformance probes (docs/contracts.md, src/contract/probes.ts) to be checked by this`;
}

/**
 * Sends a request to a conformance probe with the method it is declared for: a 404 means the agent does not declare
 * the probe, and the check is reported not-run (READING-PROBE-NOT-DECLARED), never failed.
 */
export async function probe(target: AgentTarget, c: Pick<CheckContext, 'record' | 'notRun'>, request: AgentRequest): Promise<TargetResponse> {
  const response = await exchange(target, c, request);
  if (response.status === 404) c.notRun(probeNotDeclared(request.path));
  return response;
}

/** A socket path no agent declares: how an upgrade there is refused is how this agent refuses an undeclared one. */
function undeclaredSocketPath(): string {
  return `/conformance-undeclared-${randomBytes(8).toString('hex')}/socket`;
}

/**
 * An upgrade to a conformance probe socket. Refused with 404, the socket is not declared (not-run). Refused with another
 * status, it is compared with an upgrade at a path no agent declares: a server may answer an undeclared upgrade 403 (as
 * ASGI servers do) and a declared socket's scope 403 too. Where both get the same status, the socket is shown declared
 * only if a caller of the run (the owner, whom both probe sockets admit) opens it; else the check is not run
 * (READING-PROBE-NOT-DECLARED), never failed.
 */
export async function probeUpgrade(
  target: AgentTarget,
  c: Pick<CheckContext, 'record' | 'notRun'>,
  path: string,
  headers?: ReadonlyArray<readonly [string, string]>,
): Promise<UpgradeOutcome> {
  const outcome = await target.upgrade(path, headers);
  if (outcome.opened) return outcome;
  const status = outcome.response.status;
  if (status === 404) c.notRun(probeNotDeclared(path));
  const elsewhere = undeclaredSocketPath();
  const undeclared = await target.upgrade(elsewhere);
  if (undeclared.opened || undeclared.response.status !== status) return outcome;
  const [algorithm] = await acceptedAlgorithms(target, c);
  const owner = await target.token('owner', algorithm);
  if (owner !== null && (await target.upgrade(path.split('?')[0]!, [bearer(owner)])).opened) return outcome;
  return c.notRun(
    `socket probe not declared: the agent answers ${status} to an upgrade at ${path.split('?')[0]} as at ${elsewhere}, a path no agent declares, and ${owner === null ? 'the run has no caller to open it with' : 'the owner cannot open it'}; an agent under test declares the conformance sockets (docs/contracts.md section 4) to be checked by this (${READINGS.probeNotDeclared.id})`,
  );
}

/** How many times the counted probes' handlers ran for requests carrying ?mark=<mark>, from the calls probe (not-run where it is not declared). */
export async function callsOf(target: AgentTarget, c: Pick<CheckContext, 'record' | 'notRun'>, mark: string): Promise<unknown> {
  const response = await probe(target, c, { method: 'GET', path: PROBES.calls.path.replace(`:${PROBE_CALL_MARK}`, encodeURIComponent(mark)) });
  if (response.status !== 200) throw new Error(`the calls probe answers ${response.status}, not 200: ${text(response).slice(0, 200)}`);
  return (jsonOf(response) as Record<string, unknown> | null)?.[PROBE_CALLS_MEMBER];
}

export function text(response: TargetResponse): string {
  return Buffer.from(response.body).toString('utf8');
}

/** The JSON body, or a failure naming what came instead. */
export function jsonOf(response: TargetResponse): unknown {
  try {
    return JSON.parse(text(response));
  } catch {
    throw new Error(`the body is not JSON: ${JSON.stringify(text(response).slice(0, 200))}`);
  }
}

export function bearer(token: string): readonly [string, string] {
  return [HEADERS.authorization, `Bearer ${token}`];
}

const accepted = new WeakMap<object, Map<AgentTarget, Promise<readonly SdkJwtAlgorithm[]>>>();

/**
 * The algorithms the agent verifies SDK tokens under (READING-SDK-TOKEN-ALGORITHM): of EdDSA (the callers' Ed25519
 * identity) and RS256 (their RSA key), each under which a good token of the plain caller reaches the user probe. Asked
 * once per check and agent (its answers are recorded); none when the run has no caller token, or the agent admits none.
 */
export function acceptedAlgorithms(target: AgentTarget, c: Pick<CheckContext, 'record'>): Promise<readonly SdkJwtAlgorithm[]> {
  let byTarget = accepted.get(c);
  if (!byTarget) accepted.set(c, (byTarget = new Map()));
  let found = byTarget.get(target);
  if (!found) {
    found = (async () => {
      const algorithms: SdkJwtAlgorithm[] = [];
      for (const algorithm of SDK_TOKEN_ALGORITHMS) {
        const token = await target.token('user', algorithm);
        if (token === null) return [];
        const response = await exchange(target, c, { method: 'GET', path: PROBES.user.path, headers: [bearer(token)] });
        if (response.status === 200) algorithms.push(algorithm);
      }
      return algorithms;
    })();
    byTarget.set(target, found);
  }
  return found;
}

/**
 * A token of this caller the agent verifies, or not-run (a live target without a fixture host cannot mint one): signed
 * under an algorithm the agent is seen to verify (EdDSA first), EdDSA when it is seen to verify none.
 */
export async function tokenOrNotRun(
  target: AgentTarget,
  c: Pick<CheckContext, 'record' | 'notRun'>,
  role: Parameters<AgentTarget['token']>[0],
): Promise<string> {
  const [algorithm] = await acceptedAlgorithms(target, c);
  const token = await target.token(role, algorithm);
  if (token === null) c.notRun(`needs a caller the agent verifies as ${role}: ${NO_CALLERS_REASON}`);
  return token;
}

/** A body of `size` bytes made as it is read, sent without Content-Length; never held whole in memory. */
export function generatedBody(size: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  const block = new Uint8Array(chunk).fill(0x61);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(chunk, size - sent);
      sent += n;
      controller.enqueue(n === chunk ? block : block.subarray(0, n));
    },
  });
}
