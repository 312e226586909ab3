import { AUTH_CODES } from '../spec/auth-errors.js';
import { fieldValue, type HttpMessage } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { isPromiseLike } from './awaitable.js';
import { authorizationScheme, verifyPlatformBearer } from './bearer.js';
import { isRefused, type FactName, type Facts, type In, type Label, type SignedRequest } from './context.js';
import { MESSAGES } from './messages.js';
import { type ACCEPTANCE_NEEDS, orderProblem, SIGNED_REQUEST_CHECKS, type Check } from './order.js';
import type { VerifierPorts } from './ports.js';
import { refuse } from './refusal.js';
import type { SignatureAcceptance, Verdict, VerifierConfig, VerifierRequest } from './types.js';

const EMPTY = new Uint8Array(0);

/** 5.3: a request carrying Signature-Input (or Signature) is a signed request, whatever else it carries. */
export function isSignedRequest(request: VerifierRequest): boolean {
  for (const [name] of request.headers) {
    // Stryker disable next-line all: spares a toLowerCase per field; over HTTP the names arrive in lower case (Fetch's Headers)
    const n = name === HEADERS.signatureInput || name === HEADERS.signature ? name : name.toLowerCase();
    if (n === HEADERS.signatureInput || n === HEADERS.signature) return true;
  }
  return false;
}

async function verifyBearerOrNothing(request: VerifierRequest, ports: VerifierPorts, config: VerifierConfig, now: number): Promise<Verdict> {
  const hasBody = (request.body?.length ?? 0) > 0;
  const authorization = fieldValue(request.headers, HEADERS.authorization);
  if (authorization === undefined) return refuse(AUTH_CODES.missing_credential, MESSAGES.missingCredential(null), { hasBody, naming: config.naming });
  const { scheme, credentials, isBearer } = authorizationScheme(authorization);
  if (!isBearer) return refuse(AUTH_CODES.missing_credential, MESSAGES.missingCredential(scheme || 'empty'), { hasBody, naming: config.naming });
  const outcome = await verifyPlatformBearer(credentials, config.platformToken, now, ports.revocations);
  return outcome.ok ? outcome : refuse(outcome.code, outcome.description, { hasBody, naming: config.naming });
}

/**
 * The reference verifier: a function of the request and the ports. It never throws for anything a client
 * sends; every refusal is a 401 value carrying its catalogue code, headers and body.
 */
export async function verifyRequest(request: VerifierRequest, ports: VerifierPorts, config: VerifierConfig): Promise<Verdict> {
  const now = ports.clock.now();
  if (!isSignedRequest(request)) return verifyBearerOrNothing(request, ports, config, now);

  const body = request.body ?? EMPTY;
  const hasBody = body.length > 0;
  const address = request.clientAddress;
  // Refused before reading anything: the count is per client address and never grows from this answer.
  // Here and for each check: only a real promise is awaited (see awaitable.ts); values and order are unchanged.
  const counted = ports.failures.count(address, now, LIMITS.failedSignaturesWindow.value);
  const failures = isPromiseLike(counted) ? await counted : counted;
  if (failures >= LIMITS.failedSignatures.value)
    return refuse(AUTH_CODES.too_many_failed_signatures, MESSAGES.tooManyFailures(failures), { hasBody, naming: config.naming });
  // A body read by the route cannot be hashed; this is the platform's fault, so it does not count as a failure.
  if (request.bodyConsumed) return refuse(AUTH_CODES.request_body_consumed, MESSAGES.bodyConsumed, { hasBody, naming: config.naming });

  const checks = config.checks ?? SIGNED_REQUEST_CHECKS;
  if (!orderChecked.has(checks)) {
    const problem = orderProblem(checks);
    if (problem) throw new Error(`verifier configuration: ${problem}`);
    orderChecked.add(checks);
  }
  const message: HttpMessage = { method: request.method, url: request.url, headers: request.headers, body };
  // What the checks gave so far; the order was checked above, so every check finds the facts it needs here. Every
  // fact is named from the start (no spread: a literal of one shape is several times cheaper to build and read).
  const known: Partial<Facts> & SignedRequest = {
    request,
    ports,
    config,
    now,
    body,
    hasBody,
    message,
    target: targetOf(message.url),
    labels: undefined,
    params: undefined,
    agentDictionary: undefined,
    agentKeys: undefined,
    identity: undefined,
    bases: undefined,
    keySet: undefined,
    keys: undefined,
    reservation: undefined,
    registration: undefined,
    registered: undefined,
  };
  for (const check of checks) {
    const ran = check.run(known as In<FactName>);
    const outcome = isPromiseLike(ran) ? await ran : ran;
    if (isRefused(outcome)) {
      // Nonces spent ahead of the check that refused are forgotten (nonces.ts) before the refusal is answered.
      await Promise.all([known.reservation?.release(), ports.failures.record(address, now)]);
      return refuse(outcome.refused, outcome.description, { hasBody, agentUrl: outcome.agentUrl ?? known.identity?.agentUrl ?? null, naming: config.naming });
    }
    Object.assign(known, outcome);
  }
  return accepted(known as In<(typeof ACCEPTANCE_NEEDS)[number]>);
}

/** Orders of checks found runnable (orderProblem), so each configured order is checked once. */
const orderChecked = new WeakSet<readonly Check[]>();

function targetOf(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function accepted(facts: In<(typeof ACCEPTANCE_NEEDS)[number]>): SignatureAcceptance {
  return {
    ok: true,
    kind: 'signature',
    agentUrl: facts.identity.agentUrl,
    identifier: facts.identity.identifier,
    labels: facts.labels.map((l) => l.label),
    thumbprints: facts.params.map((p) => p.keyid),
    coveredFields: coveredFieldsOf(facts.labels),
    registered: facts.registered,
  };
}

/** Plain header fields (no parameters, not derived) any verified label covers. */
function coveredFieldsOf(labels: readonly Label[]): string[] {
  const fields = new Set<string>();
  for (const label of labels) for (const c of label.member.covered) if (!c.name.startsWith('@') && c.params.size === 0) fields.add(c.name.toLowerCase());
  return [...fields].sort();
}
