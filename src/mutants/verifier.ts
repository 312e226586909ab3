import { AUTH_CODES, AUTH_ERRORS } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import { LIMITS } from '../spec/limits.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { COMPONENTS } from '../spec/wire.js';
import { refusal as refuse, type CheckResult, type SignedContext } from '../verifier/context.js';
import { SIGNED_REQUEST_CHECKS, type Check } from '../verifier/order.js';
import type { Mutant } from './types.js';

/**
 * Section 7.3 and 5.2 broken where they are decided: inside the verifier's order of checks, not in its answers.
 * Each mutant swaps one entry of the order (src/verifier/order.ts) for a faulty one.
 */

const requirementsOf = (check: Check) => check.codes.map((code) => AUTH_ERRORS[code].id);

/** The reference's order with one check replaced (or dropped, when `run` is null). */
function withCheck(name: string, run: ((original: Check['run']) => Check['run']) | null): readonly Check[] {
  const found = SIGNED_REQUEST_CHECKS.find((c) => c.name === name);
  if (!found) throw new Error(`no check named ${name}`);
  return SIGNED_REQUEST_CHECKS.flatMap((c) => (c !== found ? [c] : run === null ? [] : [{ ...c, run: run(c.run) }]));
}

const orderMutant = (id: string, description: string, requirements: readonly string[], checks: readonly Check[]): Mutant => ({
  id,
  description,
  requirements,
  platform: { config: (c) => ({ ...c, checks }) },
});

/** Checks that also build what later ones need: without them even a good request cannot verify. */
const BUILDING: ReadonlySet<string> = new Set(['headers-parse', 'labels', 'signature-base', 'key-set', 'key-known']);

/** Every check of the order left out in turn: the rules it decides are never decided. */
const skipped: Mutant[] = SIGNED_REQUEST_CHECKS.map((check) =>
  orderMutant(
    `verifier-skips-${check.name}`,
    `never runs the ${check.name} check (${check.codes.join(', ')})`,
    [...requirementsOf(check), ...(BUILDING.has(check.name) ? [REQUIREMENTS.signedRequestAccepted.id] : [])],
    withCheck(check.name, null),
  ),
);

const REQUIRED_BY_PROFILE = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path];

/** Lets a label through coverage when the only thing it leaves out is among @method, @authority and @path. */
function coverageWithoutRequestTarget(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    if (answer?.code !== AUTH_CODES.signature_coverage_insufficient) return answer;
    const missesOnlyTarget = ctx.labels.every((l) => {
      const covered = new Set(l.member.covered.map((c) => c.name));
      return (
        [COMPONENTS.query, ...(ctx.hasBody ? [HEADERS.contentDigest] : [])].every((n) => covered.has(n)) && REQUIRED_BY_PROFILE.some((n) => !covered.has(n))
      );
    });
    return missesOnlyTarget ? undefined : answer;
  };
}

/** Refuses a nonce longer than 128 characters, though 5.2 allows up to 256. */
function nonceCappedAt128(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    if (answer) return answer;
    const long = ctx.labels.find((l) => l.nonce.length > 128);
    return long ? refuse(ctx, AUTH_CODES.signature_params_invalid, `nonce of label ${long.label} is longer than 128 characters`) : undefined;
  };
}

/**
 * Takes a covered whole Signature-Agent field for the first member it holds, whether or not the label keys it: the
 * member "keyed by the covered key" (7.3 signature_agent_invalid) is no longer asked.
 */
function agentFieldForAnyMember(original: Check['run']): Check['run'] {
  return async (ctx: SignedContext): Promise<CheckResult> => {
    const answer = await original(ctx);
    const first = ctx.agentDictionary?.keys().next().value;
    if (answer?.code !== AUTH_CODES.signature_coverage_insufficient || first === undefined) return answer;
    const needed = [COMPONENTS.method, COMPONENTS.authority, COMPONENTS.path, COMPONENTS.query, HEADERS.signatureAgent, ...(ctx.hasBody ? [HEADERS.contentDigest] : [])];
    for (const l of ctx.labels) {
      const plain = new Set(l.member.covered.filter((c) => c.params.size === 0).map((c) => c.name));
      if (!needed.every((n) => plain.has(n))) return answer;
      l.agentKey = first;
    }
    return undefined;
  };
}

export const VERIFIER_MUTANTS: readonly Mutant[] = [
  ...skipped,
  orderMutant(
    'verifier-coverage-without-method-authority-path',
    'does not require @method, @authority and @path to be covered',
    [AUTH_ERRORS.signature_coverage_insufficient.id],
    withCheck('coverage', coverageWithoutRequestTarget),
  ),
  orderMutant(
    'verifier-nonce-capped-at-128',
    'refuses nonces longer than 128 characters',
    [LIMITS.nonceMaxLength.id, REQUIREMENTS.signedRequestAccepted.id],
    withCheck('labels', nonceCappedAt128),
  ),
  orderMutant(
    'verifier-agent-field-for-any-member',
    'takes a covered whole Signature-Agent field for its first member, though no member is keyed by the label',
    [AUTH_ERRORS.signature_coverage_insufficient.id, AUTH_ERRORS.signature_agent_invalid.id],
    withCheck('coverage', agentFieldForAnyMember),
  ),
  {
    id: 'key-directory-lists-no-key',
    description: "the platform's key directory lists no key of the agents it hosts",
    requirements: [REQUIREMENTS.keyDirectoryEntries.id],
    platform: { hostedAgentKeys: () => [] },
  },
];
