import { AUTH_CODES, type AuthErrorCode } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { AUTH_SCHEMES } from '../spec/wire.js';
import { isRefused } from '../verifier/context.js';
import { SIGNED_REQUEST_CHECKS, type Check } from '../verifier/order.js';
import { MESSAGES } from '../verifier/messages.js';
import { MemoryCardRefusals, MemoryKeySetCache, MemoryRegistrations, MemoryRevocations } from '../verifier/memory-stores.js';
import type { DocumentFetcher, FailureCounter, NonceStore, VerifierPorts } from '../verifier/ports.js';
import type { VerifierConfig } from '../verifier/types.js';
import { isSignedRequest, verifyRequest } from '../verifier/verify-request.js';
import type { ClientRuleKey } from './rules.js';
import type { ObservedRequest, SignerJudgement } from './types.js';

/**
 * Nonces of the whole run, per agent URL, never forgotten: a client may not use a nonce twice under its agent URL at
 * any time (5.2 "single use per agent URL"), even after the first signature expired (a platform may forget it then,
 * since the old signature can no longer pass; the client's rule does not lapse).
 */
class RunNonces implements NonceStore {
  private readonly spent = new Set<string>();
  spend(agentUrl: string, nonce: string): boolean {
    const key = `${agentUrl}\n${nonce}`;
    if (this.spent.has(key)) return false;
    this.spent.add(key);
    return true;
  }
}

/** The judge never throttles: a client's failures are judged one by one, not counted against its address. */
const NEVER_THROTTLED: FailureCounter = { count: () => 0, record: () => undefined };

/**
 * A refusal's description told apart by the template it was written from (one source of words, messages.ts): the
 * template is written with sentinel values, and each sentinel matches any text.
 */
function templatePattern(text: string, sentinels: readonly string[]): RegExp {
  let parts = [text];
  for (const s of sentinels) parts = parts.flatMap((p) => p.split(s));
  return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')}$`, 's');
}
const LABEL = 'sentinel-label';
const NUMBER = 987654321;
const ALG = templatePattern(MESSAGES.paramAlg(LABEL), [LABEL]);
const WINDOW = templatePattern(MESSAGES.paramWindow(0, NUMBER), [String(NUMBER)]);
const SIZE = templatePattern(MESSAGES.signatureSize(LABEL, NUMBER), [LABEL, String(NUMBER)]);

/** Which parameter rule a signature_params_invalid refusal of the labels check names (its words are messages.ts's). */
function paramsRule(description: string): ClientRuleKey {
  if (description === MESSAGES.paramKeyid) return 'keyid';
  if (description === MESSAGES.paramNonce) return 'nonceLength';
  if (ALG.test(description)) return 'alg';
  if (WINDOW.test(description)) return 'window';
  // paramCreated, paramExpires, paramOrder: integers, and expires after created.
  return 'times';
}

/** The client rule a refusal of the verifier judges: the check that refused, and for the labels check its code and words. */
function signerRuleOf(check: string, code: AuthErrorCode, description: string): ClientRuleKey {
  switch (check) {
    case 'headers-parse':
      return 'syntax';
    case 'labels':
      if (code === AUTH_CODES.signature_params_invalid) return paramsRule(description);
      if (code === AUTH_CODES.signature_expired) return 'clock';
      return SIZE.test(description) ? 'signatureSize' : 'components';
    case 'authority':
      return 'authority';
    case 'body-size':
      return 'bodySize';
    case 'signature-agent-header':
      // No Signature-Agent at all is a request that does not carry the three headers; one that does not parse names no agent.
      return description === MESSAGES.agentHeaderMissing ? 'signed' : 'agent';
    case 'coverage':
      return 'coverage';
    case 'signature-agent':
    case 'policy':
      return 'agent';
    case 'content-digest':
      return 'contentDigest';
    case 'signature-base':
      return 'components';
    case 'key-set':
      return code === AUTH_CODES.key_set_unreachable || code === AUTH_CODES.key_set_invalid ? 'keySet' : 'card';
    case 'key-known':
      return 'keyid';
    case 'signatures':
      return 'signatureValid';
    case 'key-continuity':
      return 'keyContinuity';
    case 'nonce':
      return 'nonceUnique';
    default:
      return 'card';
  }
}

/**
 * The rules a check of the verifier decides whole, by its name (src/verifier/order.ts): a request it let pass met them.
 * The labels check decides several and the signature base completes what the labels check began of the components.
 */
const RULES_OF_CHECK: Readonly<Record<string, readonly ClientRuleKey[]>> = {
  'headers-parse': ['syntax'],
  labels: ['times', 'alg', 'nonceLength', 'window', 'signatureSize', 'clock'],
  authority: ['authority'],
  'body-size': ['bodySize'],
  'signature-agent-header': ['signed'],
  coverage: ['coverage'],
  'signature-agent': ['agent'],
  'content-digest': ['contentDigest'],
  'signature-base': ['components'],
  'key-set': ['keySet'],
  'key-known': ['keyid'],
  signatures: ['signatureValid'],
  'key-continuity': ['keyContinuity'],
  nonce: ['nonceUnique'],
  'card-and-registration': ['card'],
};

/** Whether the request carries a platform bearer (5.3) rather than a signature. */
function carriesBearer(request: ObservedRequest): boolean {
  const authorization = request.headers.find(([name]) => name.toLowerCase() === HEADERS.authorization)?.[1];
  return authorization?.trim().toLowerCase().startsWith(`${AUTH_SCHEMES.bearer.toLowerCase()} `) === true;
}

export interface SignerJudgeOptions {
  /** Reads the client's key sets and cards under the fetch rules of 5.2 (the network, or documents in memory). */
  readonly fetcher: DocumentFetcher;
  /** `run --allow-insecure-fixtures`: plain-http agent URLs on loopback are accepted (local testing only). */
  readonly allowInsecureAgentUrls?: boolean;
  /** The verifier's order of checks (a self-test's fault may change it); the reference's by default. */
  readonly checks?: readonly Check[];
}

/**
 * The signer's side of client mode: each request the platform double receives is judged when it arrives, by the
 * reference verifier (7.3) over state kept for the whole run (the nonces of every case, the registration the first
 * request made, key sets read at most every 5 minutes, never throttled). A refusal names the first rule broken, by
 * the check of the verifier that refused; an accepted request met every signer rule. Calls are judged one at a time.
 */
export class SignerJudge {
  private readonly ports: VerifierPorts;
  private now = 0;
  private failedCheck: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly checks: readonly Check[];

  constructor(private readonly options: SignerJudgeOptions) {
    const clock = { now: () => this.now };
    this.ports = {
      clock,
      fetcher: options.fetcher,
      nonces: new RunNonces(),
      failures: NEVER_THROTTLED,
      keySets: new MemoryKeySetCache(clock),
      cardRefusals: new MemoryCardRefusals(clock),
      registrations: new MemoryRegistrations(),
      revocations: new MemoryRevocations(),
    };
    // Each check tells which of them refused: that names the rule.
    this.checks = (options.checks ?? SIGNED_REQUEST_CHECKS).map((check) => ({
      ...check,
      run: async (input) => {
        const outcome = await check.run(input);
        if (isRefused(outcome)) this.failedCheck = check.name;
        return outcome;
      },
    }));
  }

  /** Judges one request at `nowS` (the double's clock, seconds) for the platform host `authority`. */
  judge(request: ObservedRequest, at: { readonly nowS: number; readonly authority: string }): Promise<SignerJudgement> {
    const turn = this.queue.then(() => this.judgeNow(request, at));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async judgeNow(request: ObservedRequest, at: { readonly nowS: number; readonly authority: string }): Promise<SignerJudgement> {
    const verifierRequest = { method: request.method, url: request.url, headers: request.headers, body: request.body, clientAddress: 'client' };
    if (!isSignedRequest(verifierRequest)) return { kind: 'unsigned', bearer: carriesBearer(request) };
    this.now = at.nowS;
    this.failedCheck = undefined;
    const config: VerifierConfig = {
      authority: at.authority,
      checks: this.checks,
      ...(this.options.allowInsecureAgentUrls ? { allowInsecureAgentUrls: true } : {}),
    };
    const verdict = await verifyRequest(verifierRequest, this.ports, config);
    if (verdict.ok) {
      if (verdict.kind !== 'signature') return { kind: 'unsigned', bearer: true };
      return { kind: 'accepted', agentUrl: verdict.agentUrl, coveredFields: verdict.coveredFields, labels: verdict.labels };
    }
    const check = this.failedCheck ?? 'headers-parse';
    const rule = signerRuleOf(check, verdict.code, verdict.description);
    const before = this.checks.slice(
      0,
      Math.max(
        0,
        this.checks.findIndex((c) => c.name === check),
      ),
    );
    const met = [...new Set(before.flatMap((c) => RULES_OF_CHECK[c.name] ?? []))].filter(
      (r) => r !== rule && (r !== 'contentDigest' || request.body.length > 0),
    );
    return { kind: 'refused', rule, met, check, code: verdict.code, description: verdict.description };
  }
}
