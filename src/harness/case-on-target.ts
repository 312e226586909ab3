import type { CaseRequest, SignedRequestCase } from '../cases/types.js';
import { caseRequestBody } from '../cases/request-body.js';
import { recordRequest, recordResponse, type Exchange } from './exchange.js';
import { judgeRefusal } from './judge-refusal.js';
import type { Target, TargetResponse } from './target.js';

/** The HTTP status of a refused signed request (7.3). Any other answer means the request was let through. */
const REFUSED = 401;

export interface TargetStepOutcome {
  readonly ok: boolean;
  readonly status: number;
  readonly code: string | null;
  /** Expectations the answer does not meet, and 7.3 rules a refusal breaks; empty when the step conforms. */
  readonly problems: readonly string[];
  readonly exchange: Exchange;
}

function judge(response: TargetResponse, request: CaseRequest, expect: SignedRequestCase['steps'][number]['expect']) {
  const hasBody = (caseRequestBody(request)?.length ?? 0) > 0;
  const refused = response.status === REFUSED;
  const judgement = refused ? judgeRefusal(response, hasBody) : { code: null, description: null, problems: [] };
  const problems = [...judgement.problems];
  if (expect?.ok === true && refused)
    problems.push(`expected the request to be accepted, but it was refused with ${judgement.code ?? 'no error_code'}: ${judgement.description ?? ''}`);
  if (expect?.ok === false && !refused) problems.push(`expected 401 ${expect.error_code ?? ''}, but the answer was ${response.status}`);
  if (refused && expect?.error_code && judgement.code !== expect.error_code)
    problems.push(`expected error_code ${expect.error_code}, got ${judgement.code ?? 'none'} (${judgement.description ?? 'no description'})`);
  return { ok: !refused, code: judgement.code, problems };
}

/** Runs a case's steps, in order, against a target: the same case on the wire as the vectors describe it. */
export async function runCaseOnTarget(c: SignedRequestCase, target: Target): Promise<TargetStepOutcome[]> {
  await target.prepare(c);
  const outcomes: TargetStepOutcome[] = [];
  for (const step of c.steps) {
    await target.step(step.at ?? c.now, step.documents);
    const body = caseRequestBody(step.request);
    const request = { method: step.request.method, url: step.request.url, headers: step.request.headers, body };
    const response = await target.send({
      ...request,
      ...(step.client_address ? { clientAddress: step.client_address } : {}),
      ...(step.request.body_consumed ? { bodyConsumed: true } : {}),
    });
    const verdict = judge(response, step.request, step.expect);
    outcomes.push({
      ...verdict,
      status: response.status,
      exchange: { request: recordRequest(request), response: recordResponse(response) },
    });
  }
  return outcomes;
}
