import { Token, serializeDictionary } from 'structured-headers';
import { contentDigestHeader } from '../../httpsig/index.js';
import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { READINGS } from '../../spec/readings.js';
import { SIGNATURE_AGENT_TYPES } from '../../spec/wire.js';
import { accepted, allowing, refused, type Group } from '../kit.js';
import { defaultCovered, signatureAgentHeader } from '../request-builder.js';
import { covered, params, sig1 } from './headers.js';

/** A nonce written as a Token (letters and digits only, led by a letter), fresh per request as any nonce. */
const tokenNonce = (nonce: string) => `n${nonce.replace(/[^A-Za-z0-9]/g, '')}`;

/**
 * Values whose content a lax check would pass but whose form 5.2 refuses: parameters of the wrong structured-field
 * type, covered components with parameters, a Signature-Agent member that is not a String, and one label of two
 * covering content-digest. Each breaks one rule only, so its code is the one 7.3 names for that rule.
 */
export const valueForms: Group = {
  comment: 'The form of a value, not only its content: structured-field types, component parameters, one label of two.',
  scenarios: [
    {
      id: 'params-created-decimal',
      description: 'created written as a decimal (its value a whole number), not an integer',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { created: `${k.now}.0` }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-expires-decimal',
      description: 'expires written as a decimal (its value a whole number), not an integer',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { expires: `${k.now + 60}.0` }) })] }), refused(AUTH_CODES.signature_params_invalid))],
      }),
    },
    {
      id: 'params-keyid-token',
      description: "keyid as a Token spelling the key's thumbprint, not a String",
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        // alice-1's thumbprint starts with a letter, so it is a valid Token (RFC 8941 3.3.4).
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { params: params(k, { keyid: k.A.thumbprint }) })] }),
            allowing(refused(AUTH_CODES.signature_params_invalid), [AUTH_CODES.signature_malformed], READINGS.valueType),
          ),
        ],
      }),
    },
    {
      id: 'params-alg-token',
      description: 'alg=ed25519 as a Token, not a String',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { params: params(k, { alg: 'ed25519' }) })] }),
            allowing(refused(AUTH_CODES.signature_params_invalid), [AUTH_CODES.signature_malformed], READINGS.valueType),
          ),
        ],
      }),
    },
    {
      id: 'params-alg-absent',
      description: 'no alg parameter: 5.2 asks for ed25519 only if sent, so the request is accepted',
      flags: ['Params', 'Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { alg: null }) })] }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'params-nonce-token',
      description: 'a fresh nonce sent as a Token, not a String',
      flags: ['Params'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { params: params(k, { nonce: tokenNonce(k.freshNonce('sig1')) }) })] }),
            allowing(refused(AUTH_CODES.signature_params_invalid), [AUTH_CODES.signature_malformed], READINGS.valueType),
          ),
        ],
      }),
    },
    {
      id: 'malformed-tag-other-string',
      description: 'the only label carries another tag String, so no label carries web-bot-auth',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { params: params(k, { tag: '"web-bot-auth-draft"' }) })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      id: 'malformed-dictionary-member-of-other-field',
      description: 'covering a member of Content-Digest ("content-digest";key="sha-256"), which is not a plain header field',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: [...covered(), `"${HEADERS.contentDigest}";key="sha-256"`] })] }),
            refused(AUTH_CODES.signature_malformed),
          ),
        ],
      }),
    },
    {
      id: 'malformed-signature-extra-label',
      description: 'Signature carries a second label that Signature-Input does not name',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                const s = r.headers.find(([n]) => n === HEADERS.signature)!;
                s[1] = `${s[1]}, sig2=${s[1].slice(s[1].indexOf('=') + 1)}`;
              },
            }),
            refused(AUTH_CODES.signature_malformed),
          ),
        ],
      }),
    },
    {
      id: 'malformed-covered-item-token',
      description: 'a covered item written as a Token (content-digest unquoted) beside the quoted components',
      flags: ['Malformed'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ labels: [sig1(k, { covered: [...covered(), HEADERS.contentDigest] })] }), refused(AUTH_CODES.signature_malformed))],
      }),
    },
    {
      // The id predates READING-AGENT-FIELD-COVERED-WHOLE and stays: reports and self-test trials key on it.
      id: 'valid-agent-field-covered-whole',
      description:
        'the whole Signature-Agent field covered as a plain header field beside its member: accepted, or refused as the member signed twice (READING-AGENT-FIELD-COVERED-WHOLE)',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: [...covered(), `"${HEADERS.signatureAgent}"`] })] }),
            allowing(accepted(k.alice.agentUrl), [AUTH_CODES.signature_coverage_insufficient], READINGS.agentFieldCoveredWhole),
          ),
        ],
      }),
    },
    {
      id: 'coverage-agent-field-instead-of-member',
      description:
        'the whole Signature-Agent field covered instead of its member signature-agent;key="sig1": refused, or accepted as that member (READING-AGENT-FIELD-COVERED-WHOLE)',
      flags: ['Coverage'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { covered: [...covered().slice(0, -1), `"${HEADERS.signatureAgent}"`] })] }),
            allowing(refused(AUTH_CODES.signature_coverage_insufficient), [null], READINGS.agentFieldCoveredWhole),
          ),
        ],
      }),
    },
    {
      id: 'coverage-agent-field-without-member-of-label',
      description: 'the whole Signature-Agent field covered, its only member keyed agent2, not by the label sig1: refused',
      flags: ['Coverage', 'SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              signatureAgent: signatureAgentHeader(['agent2'], k.alice.keySetUrl),
              labels: [sig1(k, { covered: [...covered().slice(0, -1), `"${HEADERS.signatureAgent}"`] })],
            }),
            allowing(refused(AUTH_CODES.signature_coverage_insufficient), [AUTH_CODES.signature_agent_invalid], READINGS.agentFieldCoveredWhole),
          ),
        ],
      }),
    },
    {
      id: 'agent-member-token',
      description: 'the Signature-Agent member is a Token spelling the key set URL, not a String',
      flags: ['SignatureAgent'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              signatureAgent: serializeDictionary(
                new Map([['sig1', [new Token(k.alice.keySetUrl), new Map([['type', new Token(SIGNATURE_AGENT_TYPES.jwksUri)]])]]]),
              ),
            }),
            allowing(refused(AUTH_CODES.signature_agent_invalid), [AUTH_CODES.signature_malformed], READINGS.valueType),
          ),
        ],
      }),
    },
    {
      id: 'digest-covered-by-one-of-two-labels',
      description: 'of two labels only one covers content-digest, whose value is not the digest of the (empty) body',
      flags: ['Digest', 'KeyRotation'],
      build: (k) => {
        const withDigest = [...covered(false).slice(0, -1), `"${HEADERS.contentDigest}"`, covered(false).at(-1)!];
        return {
          documents: k.docs(k.alice, [k.A, k.A2]),
          steps: [
            k.step(
              k.request({
                method: 'GET',
                body: new Uint8Array(0),
                headers: [[HEADERS.contentDigest, contentDigestHeader(new TextEncoder().encode('{}'))]],
                labels: [sig1(k, { covered: withDigest }), { label: 'sig2', key: k.A2, covered: defaultCovered('sig2', false) }],
              }),
              refused(AUTH_CODES.content_digest_mismatch),
            ),
          ],
        };
      },
    },
  ],
};
