import { READINGS } from '../../spec/readings.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { SIGNATURE_AGENT_TYPES } from '../../spec/wire.js';
import { agentAt } from '../identities.js';
import { accepted, allowing, refused, type Group, type Kit } from '../kit.js';
import { defaultCovered, defaultParams, signatureAgentHeader, type LabelSpec } from '../request-builder.js';

/** The default parameters of label sig1 with one of them replaced (or removed with null). */
function params(k: Kit, change: Record<string, string | null>, label: LabelSpec = { label: 'sig1', key: k.A }) {
  const base = defaultParams({ created: k.now, expires: k.now + 60, nonce: (l) => k.freshNonce(l) }, label);
  const out = base.filter(([name]) => change[name] !== null).map(([name, v]) => [name, change[name] ?? v] as [string, string]);
  for (const [name, v] of Object.entries(change)) if (v !== null && !base.some(([n]) => n === name)) out.push([name, v]);
  return out;
}

function withHeader(name: string, value: string) {
  return (r: { headers: Array<[string, string]> }) => {
    const i = r.headers.findIndex(([n]) => n === name);
    if (i >= 0) r.headers[i] = [name, value];
    else r.headers.push([name, value]);
  };
}

function withoutHeader(name: string) {
  return (r: { headers: Array<[string, string]> }) => {
    r.headers = r.headers.filter(([n]) => n !== name);
  };
}

const sig1 = (k: Kit, extra: Partial<LabelSpec> = {}): LabelSpec => ({ label: 'sig1', key: k.A, ...extra });
const covered = (hasBody = true) => defaultCovered('sig1', hasBody);

export const headers: Group = {
  comment: 'Signature-Input, Signature and Signature-Agent: syntax, parameters, time, coverage, authority and agent URL forms.',
  scenarios: [
    // signature_malformed
    {
      id: 'malformed-signature-input-unparseable',
      description: 'Signature-Input is not a structured-field dictionary',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ after: withHeader(HEADERS.signatureInput, 'sig1=("@method" ') }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-signature-not-bytes',
      description: 'a Signature member that is not a byte sequence',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ after: withHeader(HEADERS.signature, 'sig1="not bytes"') }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-labels-differ',
      description: 'Signature-Input and Signature name different labels',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                const s = r.headers.find(([n]) => n === HEADERS.signature)!;
                s[1] = s[1].replace(/^sig1=/, 'sig9=');
              },
            }),
            refused(AUTH_CODES.signature_malformed),
          ),
        ],
      }),
    },
    {
      id: 'malformed-signature-header-absent',
      description: 'Signature-Input without a Signature header: a signed request (5.3) whose labels have no signature',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ after: withoutHeader(HEADERS.signature) }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-no-web-bot-auth-tag',
      description: 'no label carries tag="web-bot-auth"',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { tag: null }) })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-tag-as-token',
      description: 'tag=web-bot-auth as a token is not the tag string',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { tag: 'web-bot-auth' }) })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-three-tagged-labels',
      description: 'three labels carry the tag; at most two may',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A, k.A2]),
        steps: [k.step(k.request({ labels: [sig1(k), { label: 'sig2', key: k.A2 }, { label: 'sig3', key: k.A }] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-signature-63-bytes',
      description: 'a signature of 63 bytes',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { tamper: (s) => s.slice(0, 63) })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-signature-65-bytes',
      description: 'a signature of 65 bytes (the 64 valid ones and one more)',
      flags: ['Malformed', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { tamper: (s) => new Uint8Array([...s, 0]) })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-disallowed-component',
      description: 'covering @query-param, which the profile does not allow',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ url: k.url(undefined, '?a=1'), labels: [sig1(k, { covered: [...covered(), '"@query-param";name="a"'] })] }),
            refused(AUTH_CODES.signature_malformed),
          ),
        ],
      }),
    },
    {
      id: 'malformed-disallowed-field-parameter',
      description: 'covering a header field with the sf parameter',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: [...covered().slice(0, 4), '"content-digest";sf', covered().at(-1)!] })] }),
            refused(AUTH_CODES.signature_malformed),
          ),
        ],
      }),
    },
    {
      id: 'malformed-covered-header-absent',
      description: 'a covered header field the request does not carry',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: [...covered().slice(0, 5), '"x-trace"', covered().at(-1)!] })] }),
            allowing(refused(AUTH_CODES.signature_malformed), [AUTH_CODES.signature_invalid], READINGS.coveredFieldAbsent),
          ),
        ],
      }),
    },
    {
      id: 'malformed-signature-agent-legacy-string',
      description: 'the legacy bare-string Signature-Agent is not a dictionary',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ signatureAgent: `"${k.alice.keySetUrl}"` }),
            allowing(
              refused(AUTH_CODES.signature_malformed),
              [AUTH_CODES.signature_agent_invalid, AUTH_CODES.signature_coverage_insufficient],
              READINGS.legacySignatureAgent,
            ),
          ),
        ],
      }),
    },
    // signature_params_invalid
    {
      id: 'params-created-boolean',
      description: 'created is a boolean, not an integer',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { created: '?1' }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-created-missing',
      description: 'no created parameter',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { created: null }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-expires-missing',
      description: 'no expires parameter',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { expires: null }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-keyid-not-thumbprint',
      description: 'a keyid that is not a 43-character thumbprint',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { keyid: '"alice-key-1"' }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-keyid-42-characters',
      description: "a keyid of 42 characters: the key's thumbprint with its last character cut",
      flags: ['Params', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { params: params(k, { keyid: `"${k.A.thumbprint.slice(0, -1)}"` }) })] }),
            refused(AUTH_CODES.signature_params_invalid),
          ),
        ],
      }),
    },
    {
      id: 'params-keyid-44-characters',
      description: "a keyid of 44 characters: the key's thumbprint with one more base64url character",
      flags: ['Params', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ labels: [sig1(k, { params: params(k, { keyid: `"${k.A.thumbprint}A"` }) })] }), refused(AUTH_CODES.signature_params_invalid)),
        ],
      }),
    },
    {
      id: 'params-alg-not-ed25519',
      description: 'alg names another algorithm',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { alg: '"rsa-pss-sha512"' }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-nonce-missing',
      description: 'no nonce parameter',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { nonce: null }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-nonce-empty',
      description: 'an empty nonce (0 characters)',
      flags: ['Params', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { nonce: '""' }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-nonce-too-long',
      description: 'a nonce of 257 characters',
      flags: ['Params', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ labels: [sig1(k, { params: params(k, { nonce: `"${'n'.repeat(257)}"` }) })] }), refused(AUTH_CODES.signature_params_invalid)),
        ],
      }),
    },
    {
      id: 'params-nonce-one-character',
      description: 'a nonce of 1 character, the shortest 5.2 allows, is accepted',
      flags: ['Params', 'Boundary', 'Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ nonce: () => 'x' }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'params-nonce-256-characters',
      description: 'a nonce of 256 characters, the longest 5.2 allows, is accepted',
      flags: ['Params', 'Boundary', 'Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ nonce: () => 'n'.repeat(LIMITS.nonceMaxLength.value) }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'params-expires-before-created',
      description: 'expires is not after created',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { expires: String(k.now) }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-window-3601',
      description: 'expires - created of 3601 s',
      flags: ['Params', 'Boundary'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request({ expires: k.now + 3601 }), refused(AUTH_CODES.signature_params_invalid))] }),
    },
    // signature_expired
    {
      id: 'expired-61-seconds-ago',
      description: 'expires 61 s in the past (live, further past by the clock margin of READING-LIVE-CLOCK-SKEW)',
      flags: ['Time', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ created: k.now - 121 - k.clockMargin, expires: k.now - 61 - k.clockMargin }), refused(AUTH_CODES.signature_expired))],
      }),
    },
    {
      id: 'expired-created-61-ahead',
      description: 'created 61 s in the future (live, further ahead by the clock margin of READING-LIVE-CLOCK-SKEW)',
      flags: ['Time', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ created: k.now + 61 + k.clockMargin, expires: k.now + 121 + k.clockMargin }), refused(AUTH_CODES.signature_expired))],
      }),
    },
    // signature_coverage_insufficient
    {
      id: 'coverage-missing-method',
      description: '@method is not covered',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: covered().filter((c) => c !== '"@method"') })] }),
            refused(AUTH_CODES.signature_coverage_insufficient),
          ),
        ],
      }),
    },
    {
      id: 'coverage-missing-authority',
      description: '@authority is not covered',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: covered().filter((c) => c !== '"@authority"') })] }),
            refused(AUTH_CODES.signature_coverage_insufficient),
          ),
        ],
      }),
    },
    {
      id: 'coverage-missing-path',
      description: '@path is not covered',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ labels: [sig1(k, { covered: covered().filter((c) => c !== '"@path"') })] }), refused(AUTH_CODES.signature_coverage_insufficient)),
        ],
      }),
    },
    {
      id: 'coverage-missing-query',
      description: '@query is not covered',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ labels: [sig1(k, { covered: covered().filter((c) => c !== '"@query"') })] }), refused(AUTH_CODES.signature_coverage_insufficient)),
        ],
      }),
    },
    {
      id: 'coverage-body-without-digest',
      description: 'a body whose digest the signature does not cover',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { covered: covered(false) })] }), refused(AUTH_CODES.signature_coverage_insufficient))],
      }),
    },
    {
      id: 'coverage-agent-member-not-covered',
      description: 'the Signature-Agent member is not covered',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { covered: covered().slice(0, -1) })] }), refused(AUTH_CODES.signature_coverage_insufficient))],
      }),
    },
    {
      id: 'coverage-agent-member-other-key',
      description: 'the covered member is keyed by another label',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              signatureAgent: signatureAgentHeader(['agent2'], k.alice.keySetUrl),
              labels: [sig1(k, { covered: [...covered().slice(0, -1), '"signature-agent";key="agent2"'] })],
            }),
            refused(AUTH_CODES.signature_coverage_insufficient),
          ),
        ],
      }),
    },
    {
      id: 'coverage-agent-member-twice',
      description: 'the Signature-Agent member is covered twice',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              signatureAgent: signatureAgentHeader(['sig1', 'sig2'], k.alice.keySetUrl),
              labels: [sig1(k, { covered: [...covered(), '"signature-agent";key="sig2"'] })],
            }),
            refused(AUTH_CODES.signature_coverage_insufficient),
          ),
        ],
      }),
    },
    // signature_authority_mismatch
    {
      id: 'authority-alias-host',
      description: 'a request signed and sent to an alias of the platform, not its own host',
      flags: ['Authority'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ url: k.onHost('alias-of-the-platform.example') }), refused(AUTH_CODES.signature_authority_mismatch))],
      }),
    },
    {
      id: 'authority-custom-port',
      description: 'the platform host with a non-default port is another authority',
      flags: ['Authority'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ url: k.onHost(`${k.hostname}:8443`) }), refused(AUTH_CODES.signature_authority_mismatch))],
      }),
    },
    // signature_agent_invalid
    {
      id: 'agent-header-absent',
      description: 'a signed request without Signature-Agent',
      flags: ['SignatureAgent'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request({ signatureAgent: null }), refused(AUTH_CODES.signature_agent_invalid))] }),
    },
    {
      id: 'agent-member-missing',
      description: 'the dictionary has no member keyed by the covered key',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ after: withHeader(HEADERS.signatureAgent, signatureAgentHeader(['other'], k.alice.keySetUrl)) }),
            refused(AUTH_CODES.signature_agent_invalid),
          ),
        ],
      }),
    },
    {
      id: 'agent-plain-http',
      description: 'an http key set URL',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.keySetUrl.replace('https:', 'http:')) }),
            refused(AUTH_CODES.signature_agent_invalid),
          ),
        ],
      }),
    },
    {
      id: 'agent-wrong-suffix',
      description: 'a key set URL not ending in /.well-known/jwks.json',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ signatureAgent: signatureAgentHeader(['sig1'], `${k.alice.agentUrl}/keys.json`) }), refused(AUTH_CODES.signature_agent_invalid)),
        ],
      }),
    },
    {
      id: 'agent-cimd-not-card-url',
      description: 'type=cimd naming a key set URL instead of a card URL',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.keySetUrl, SIGNATURE_AGENT_TYPES.cimd) }),
            refused(AUTH_CODES.signature_agent_invalid),
          ),
        ],
      }),
    },
    {
      id: 'agent-directory-with-path',
      description: 'type=directory naming a URL with a path instead of an origin',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.agentUrl, SIGNATURE_AGENT_TYPES.directory) }),
            refused(AUTH_CODES.signature_agent_invalid),
          ),
        ],
      }),
    },
    {
      id: 'agent-urls-differ',
      description: 'two labels whose members name different agents',
      flags: ['SignatureAgent', 'KeyRotation'],
      build: (k) => ({
        documents: { ...k.docs(), ...k.docs(k.bob, [k.B]) },
        steps: [
          k.step(
            k.request({
              signatureAgent: `${signatureAgentHeader(['sig1'], k.alice.keySetUrl)}, ${signatureAgentHeader(['sig2'], k.bob.keySetUrl)}`,
              labels: [sig1(k), { label: 'sig2', key: k.B }],
            }),
            refused(AUTH_CODES.signature_agent_invalid),
          ),
        ],
      }),
    },
    // credential_refused
    {
      id: 'refused-blocked-agent',
      description: 'an agent the platform does not admit',
      flags: ['Policy'],
      build: (k) => ({
        documents: k.docs(),
        platform: { blocked_agents: [k.alice.agentUrl] },
        steps: [k.step(k.request(), refused(AUTH_CODES.credential_refused))],
      }),
    },
    {
      id: 'refused-agent-on-platform-host',
      description: "an agent URL on the platform's own host",
      flags: ['Policy'],
      build: (k) => {
        const impostor = agentAt(`https://${k.env.authority}/agents/impostor`);
        return {
          documents: k.docs(impostor, [k.A]),
          steps: [k.step(k.request({ keySetUrl: impostor.keySetUrl }), refused(AUTH_CODES.credential_refused))],
        };
      },
    },
  ],
};

export { withHeader, withoutHeader, params, sig1, covered };
