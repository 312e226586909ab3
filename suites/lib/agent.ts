import { recordRequest, recordResponse } from '../../src/harness/exchange.js';
import { requestUrlOf, type AgentRequest, type AgentTarget } from '../../src/harness/agent/index.js';
import type { TargetResponse } from '../../src/harness/target.js';
import type { UpgradeOutcome } from '../../src/harness/agent/agent-target.js';
import { NO_CALLERS_REASON } from '../../src/harness/agent/live.js';
import { HEADERS } from '../../src/spec/headers.js';
import type { CheckContext } from './check.js';

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

/** An upgrade to a conformance probe socket; refused with 404, the socket is not declared (not-run). */
export async function probeUpgrade(
  target: AgentTarget,
  c: Pick<CheckContext, 'notRun'>,
  path: string,
  headers?: ReadonlyArray<readonly [string, string]>,
): Promise<UpgradeOutcome> {
  const outcome = await target.upgrade(path, headers);
  if (!outcome.opened && outcome.response.status === 404) c.notRun(probeNotDeclared(path));
  return outcome;
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

/** A token the agent verifies for this caller, or not-run (a live target cannot mint one). */
export async function tokenOrNotRun(target: AgentTarget, c: Pick<CheckContext, 'notRun'>, role: Parameters<AgentTarget['token']>[0]): Promise<string> {
  const token = await target.token(role);
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
