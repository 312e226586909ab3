import type { CaseRequest, SignedRequestCase } from '../cases/types.js';
import { caseRequestBody } from '../cases/request-body.js';
import { recordRequest, recordResponse, type Exchange } from './exchange.js';
import { judgeExpectation } from '../cases/expectation.js';
import { judgeRefusal } from './judge-refusal.js';
import type { ServiceNaming } from '../spec/naming.js';
import type { Target, TargetResponse } from './target.js';

/** The HTTP status of a refused signed request (7.3), and of the success of the routes the cases call. */
const REFUSED = 401;
const ACCEPTED = 200;

export interface TargetStepOutcome {
  readonly ok: boolean;
  readonly status: number;
  readonly code: string | null;
  /** Expectations the answer does not meet, and 7.3 rules a refusal breaks; empty when the step conforms. */
  readonly problems: readonly string[];
  /** Set when the answer is another outcome the spec allows than the reference's own (a note, not a failure). */
  readonly reading?: string;
  readonly exchange: Exchange;
}

/**
 * A step's answer against its expectation. Accepted means the route's own success (200 from the CLI token route
 * or the key directory), never merely "not 401"; a refusal must be the 401 of 7.3 with the expected code, or
 * another code the spec allows there (`also_allowed`, named by its reading).
 */
function judge(response: TargetResponse, request: CaseRequest, expect: SignedRequestCase['steps'][number]['expect'], naming?: ServiceNaming) {
  const hasBody = (caseRequestBody(request)?.length ?? 0) > 0;
  const refused = response.status === REFUSED;
  const judgement = refused ? judgeRefusal(response, hasBody, naming) : { code: null, description: null, problems: [] };
  const problems = [...judgement.problems];
  const got = { ok: response.status === ACCEPTED, status: response.status, error_code: judgement.code, agent_url: null };
  const { matches, reading } = judgeExpectation(expect && { ...expect, agent_url: undefined }, got);
  if (matches === false) {
    const also = expect?.also_allowed?.length
      ? ` (or ${expect.also_allowed.map((c) => c ?? 'acceptance').join(', ')}, which ${expect.reading ?? 'another reading'} allows)`
      : '';
    if (expect?.ok === true && refused)
      problems.push(`expected the request to be accepted, but it was refused with ${judgement.code ?? 'no error_code'}: ${judgement.description ?? ''}`);
    else if (expect?.ok === true)
      problems.push(`expected the request to be accepted: the route's success is ${ACCEPTED}, but the answer was ${response.status}`);
    else if (!refused) problems.push(`expected 401 ${expect?.error_code ?? ''}${also}, but the answer was ${response.status}`);
    else
      problems.push(`expected error_code ${expect?.error_code ?? ''}${also}, got ${judgement.code ?? 'none'} (${judgement.description ?? 'no description'})`);
  }
  return { ok: got.ok, code: judgement.code, problems, ...(reading ? { reading } : {}) };
}

/**
 * Seconds a live step keeps from the boundary its offset was drawn at (a deployment counts whole seconds, and the
 * request takes its own time): one expecting something still remembered goes this much earlier, one expecting it
 * forgotten this much later.
 */
const LIVE_MARGIN_S = 2;

/**
 * When a step at `offset` seconds after the case's first is sent to a live target, which waits for it in real time: a
 * step expecting what the deployment still remembers (a refusal) at that offset from when the first step was sent
 * (what it remembers began no earlier), a little sooner; a step expecting it forgotten (acceptance) that long after the
 * last answer of the first moment came back (what it remembers began no later), a little later.
 */
function liveTime(offset: number, expectsAcceptance: boolean, firstSent: number, firstAnswered: number): number {
  return expectsAcceptance ? firstAnswered + LIVE_MARGIN_S + offset : firstSent + offset - LIVE_MARGIN_S;
}

/** Runs a case's steps, in order, against a target: the same case on the wire as the vectors describe it. */
export async function runCaseOnTarget(c: SignedRequestCase, target: Target): Promise<TargetStepOutcome[]> {
  await target.prepare(c);
  const outcomes: TargetStepOutcome[] = [];
  let firstSent: number | undefined;
  let firstAnswered: number | undefined;
  for (const [i, step] of c.steps.entries()) {
    const at = step.at ?? c.now;
    const offset = at - c.now;
    const live = target.kind === 'live' && offset > 0 && firstSent !== undefined && firstAnswered !== undefined;
    await target.step(
      live ? liveTime(offset, step.expect?.ok === true, firstSent!, firstAnswered!) : at,
      step.documents,
      offset > 0 ? `step ${i + 1} of ${c.steps.length}, ${offset} s after the case's first` : undefined,
    );
    if (offset === 0) firstSent ??= Date.now() / 1000;
    const body = caseRequestBody(step.request);
    const request = { method: step.request.method, url: step.request.url, headers: step.request.headers, body };
    const response = await target.send({
      ...request,
      ...(step.client_address ? { clientAddress: step.client_address } : {}),
      ...(step.request.body_consumed ? { bodyConsumed: true } : {}),
    });
    if (offset === 0) firstAnswered = Date.now() / 1000;
    const verdict = judge(response, step.request, step.expect, target.environment.naming);
    outcomes.push({
      ...verdict,
      status: response.status,
      exchange: { request: recordRequest(request), response: recordResponse(response) },
    });
  }
  return outcomes;
}
