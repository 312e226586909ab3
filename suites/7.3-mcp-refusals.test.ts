import { afterAll, describe, expect } from 'vitest';
import type { CaseRequest, SignedRequestCase } from '../src/cases/types.js';
import { runCaseOnTarget } from '../src/harness/case-on-target.js';
import { acceptSignatureProblems } from '../src/harness/judge-refusal.js';
import { CAPABILITY_REASONS, missingCapabilities } from '../src/harness/target.js';
import { cardDocument, keySetDocument } from '../src/scenarios/identities.js';
import { buildCase, refused, type Kit, type Scenario } from '../src/scenarios/kit.js';
import { signatureAgentHeader } from '../src/scenarios/request-builder.js';
import { flip } from '../src/scenarios/signed/credentials.js';
import { covered, params, sig1, withHeader } from '../src/scenarios/signed/headers.js';
import { AUTH_CODES, AUTH_ERRORS, type AuthErrorCode } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { MEDIA_TYPES } from '../src/spec/media-types.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../src/spec/platform-mcp.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { check } from './lib/check.js';
import { checkTimeout } from './lib/context.js';
import { suiteTarget } from './lib/target.js';

/**
 * 5.3: "The MCP endpoint adds Accept-Signature to every 401 it answers to a request that carried Signature-Input." 7.3
 * asks for Accept-Signature only on missing_credential and signature_coverage_insufficient; at POST /mcp every kind of
 * refusal of a signed request carries it. One check per kind: the 401 of 7.3 with its code, and Accept-Signature naming
 * the components (content-digest with them, as each request has a body).
 */
const target = suiteTarget();
afterAll(() => target.close());

const TIMEOUT_MS = checkTimeout(target.kind === 'live' ? 180_000 : 30_000);
const NOT_FOUND = 404;
const MCP_ACCEPT = `${MEDIA_TYPES.json}, ${MEDIA_TYPES.eventStream}`;
const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** A JSON-RPC POST to the MCP endpoint, signed as the SDK signs; `o` changes one thing as a 7.3 scenario does. */
const mcp = (k: Kit, o: Parameters<Kit['request']>[0] = {}): CaseRequest =>
  k.request({
    url: k.url(PLATFORM_ROUTES.mcp),
    bodyText: RPC,
    ...o,
    headers: [[HEADERS.contentType, MEDIA_TYPES.json], [HEADERS.accept, MCP_ACCEPT], ...(o.headers ?? [])],
  });

interface Kind {
  readonly code: AuthErrorCode;
  readonly what: string;
  /** The case's documents and its steps; the last one is the refusal judged here. */
  readonly build: (k: Kit) => Pick<SignedRequestCase, 'documents' | 'steps'>;
}

const KINDS: readonly Kind[] = [
  {
    code: AUTH_CODES.signature_malformed,
    what: 'a Signature-Input that does not parse',
    build: (k) => ({
      documents: k.docs(),
      steps: [k.step(mcp(k, { after: withHeader(HEADERS.signatureInput, 'sig1=("@method" ') }), refused(AUTH_CODES.signature_malformed))],
    }),
  },
  {
    code: AUTH_CODES.signature_params_invalid,
    what: 'a signature without created',
    build: (k) => ({
      documents: k.docs(),
      steps: [k.step(mcp(k, { labels: [sig1(k, { params: params(k, { created: null }) })] }), refused(AUTH_CODES.signature_params_invalid))],
    }),
  },
  {
    code: AUTH_CODES.signature_expired,
    what: 'a signature that expired 61 s ago',
    build: (k) => ({
      documents: k.docs(),
      steps: [k.step(mcp(k, { created: k.now - 121 - k.clockMargin, expires: k.now - 61 - k.clockMargin }), refused(AUTH_CODES.signature_expired))],
    }),
  },
  {
    code: AUTH_CODES.signature_coverage_insufficient,
    what: 'a signature leaving @query uncovered',
    build: (k) => ({
      documents: k.docs(),
      steps: [
        k.step(mcp(k, { labels: [sig1(k, { covered: covered().filter((c) => c !== '"@query"') })] }), refused(AUTH_CODES.signature_coverage_insufficient)),
      ],
    }),
  },
  {
    code: AUTH_CODES.signature_agent_invalid,
    what: 'a Signature-Agent member naming a key set URL not ending in /.well-known/jwks.json',
    build: (k) => ({
      documents: k.docs(),
      steps: [k.step(mcp(k, { signatureAgent: signatureAgentHeader(['sig1'], `${k.alice.agentUrl}/keys.json`) }), refused(AUTH_CODES.signature_agent_invalid))],
    }),
  },
  {
    code: AUTH_CODES.content_digest_mismatch,
    what: 'a body changed after signing',
    build: (k) => ({
      documents: k.docs(),
      steps: [
        k.step(
          mcp(k, {
            after: (r) => {
              r.body = new TextEncoder().encode(RPC.replace('tools/list', 'tools/call'));
            },
          }),
          refused(AUTH_CODES.content_digest_mismatch),
        ),
      ],
    }),
  },
  {
    code: AUTH_CODES.key_set_unreachable,
    what: 'a key set that answers 404',
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.keySetUrl]: { status: NOT_FOUND, body: '' } },
      steps: [k.step(mcp(k), refused(AUTH_CODES.key_set_unreachable))],
    }),
  },
  {
    code: AUTH_CODES.key_set_invalid,
    what: 'a key set holding the RFC 9421 test key',
    build: (k) => ({
      documents: {
        ...k.docs(),
        [k.alice.keySetUrl]: keySetDocument([k.A.publicJwk, { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', use: 'sig' }]),
      },
      steps: [k.step(mcp(k), refused(AUTH_CODES.key_set_invalid))],
    }),
  },
  {
    code: AUTH_CODES.signature_key_unknown,
    what: 'a key set without the signing key',
    build: (k) => ({ documents: k.docs(k.alice, [k.B]), steps: [k.step(mcp(k), refused(AUTH_CODES.signature_key_unknown))] }),
  },
  {
    code: AUTH_CODES.signature_invalid,
    what: 'a signature that does not verify',
    build: (k) => ({ documents: k.docs(), steps: [k.step(mcp(k, { labels: [sig1(k, { tamper: (s) => flip(s) })] }), refused(AUTH_CODES.signature_invalid))] }),
  },
  {
    code: AUTH_CODES.signature_replayed,
    what: 'a request sent again (its first answer not judged)',
    build: (k) => {
      const request = mcp(k);
      return { documents: k.docs(), steps: [{ request }, k.step(request, refused(AUTH_CODES.signature_replayed))] };
    },
  },
  {
    code: AUTH_CODES.card_unreachable,
    what: 'first sight, the card answering 404',
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: { status: NOT_FOUND, body: '' } },
      steps: [k.step(mcp(k), refused(AUTH_CODES.card_unreachable))],
    }),
  },
  {
    code: AUTH_CODES.card_not_self_naming,
    what: "first sight, a card whose client_id is not the card's URL",
    build: (k) => ({
      documents: { ...k.docs(), [k.alice.cardUrl]: cardDocument(k.alice, { client_id: 'alice' }) },
      steps: [k.step(mcp(k), refused(AUTH_CODES.card_not_self_naming))],
    }),
  },
];

async function caseOf(kind: Kind): Promise<SignedRequestCase> {
  const id = `mcp-401-${kind.code.replaceAll('_', '-')}`;
  const scenario: Scenario = { id, description: kind.what, flags: [], build: kind.build };
  const env = target.environment;
  await target.ready?.(1);
  return buildCase(
    {
      now: env.now(),
      authority: env.authority,
      platformOrigin: env.platformOrigin,
      agentOrigin: env.agentOrigin(id),
      nonce: env.nonce,
      naming: env.naming,
      clockMargin: env.clockMargin,
    },
    scenario,
  );
}

describe(`5.3 the MCP endpoint's 401 to a signed request, every kind (${target.description})`, () => {
  for (const kind of KINDS) {
    check({
      id: `signed.mcp-401-${kind.code.replaceAll('_', '-')}`,
      title: `POST /mcp refusing ${kind.what} answers 401 ${kind.code} with Accept-Signature`,
      requirements: [PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401.id, AUTH_ERRORS[kind.code].id],
      level: 'MUST',
      timeout: TIMEOUT_MS,
      run: async ({ record, notRun }) => {
        const c = await caseOf(kind);
        const missing = missingCapabilities(target, c);
        if (missing.length) notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
        const outcomes = await runCaseOnTarget(c, target);
        for (const o of outcomes) record(o.exchange);
        const last = outcomes.at(-1)!;
        if (last.status === NOT_FOUND) notRun(`the target serves no MCP endpoint at ${PLATFORM_ROUTES.mcp}`);
        if (last.problems.length) expect.fail(last.problems.join('\n'));
        const problems = acceptSignatureProblems(last.exchange.response?.headers[HEADERS.acceptSignature], true);
        if (problems.length)
          expect.fail(`the 401 ${last.code} at ${PLATFORM_ROUTES.mcp}: ${problems.join('; ')} (5.3: every 401 to a request that carried Signature-Input)`);
      },
    });
  }
});
