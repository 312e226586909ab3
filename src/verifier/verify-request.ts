import { AUTH_CODES } from '../spec/auth-errors.js';
import { fieldValue } from '../httpsig/index.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { isPromiseLike } from './awaitable.js';
import { authorizationScheme, verifyPlatformBearer } from './bearer.js';
import type { LabelState, SignedContext } from './context.js';
import { MESSAGES } from './messages.js';
import { SIGNED_REQUEST_CHECKS } from './order.js';
import type { VerifierPorts } from './ports.js';
import { refuse } from './refusal.js';
import type { Verdict, VerifierConfig, VerifierRequest } from './types.js';

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

  const ctx: SignedContext = {
    request,
    ports,
    config,
    now,
    body,
    hasBody,
    message: { method: request.method, url: request.url, headers: request.headers, body },
    labels: [],
    targetUrl: undefined,
    agentDictionary: undefined,
    identity: undefined,
    keySetUrl: undefined,
    keys: undefined,
    cardChecked: false,
    registration: undefined,
    registered: false,
  };
  for (const check of config.checks ?? SIGNED_REQUEST_CHECKS) {
    const ran = check.run(ctx);
    const refusal = isPromiseLike(ran) ? await ran : ran;
    if (refusal) {
      await ports.failures.record(address, now);
      return refusal;
    }
  }
  const identity = ctx.identity!;
  return {
    ok: true,
    kind: 'signature',
    agentUrl: identity.agentUrl,
    identifier: identity.identifier,
    labels: ctx.labels.map((l) => l.label),
    thumbprints: ctx.labels.map((l) => l.keyid),
    coveredFields: coveredFieldsOf(ctx.labels),
    registered: ctx.registered,
  };
}

/** Plain header fields (no parameters, not derived) any verified label covers. */
function coveredFieldsOf(labels: readonly LabelState[]): string[] {
  const fields = new Set<string>();
  for (const label of labels) for (const c of label.member.covered) if (!c.name.startsWith('@') && c.params.size === 0) fields.add(c.name.toLowerCase());
  return [...fields].sort();
}
