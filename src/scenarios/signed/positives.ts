import { SIGNATURE_AGENT_TYPES, WELL_KNOWN } from '../../spec/wire.js';
import { cardDocument } from '../identities.js';
import { accepted, type Group } from '../kit.js';
import { signatureAgentHeader } from '../request-builder.js';

export const positives: Group = {
  comment: 'Requests the platform must accept: every Signature-Agent form, one and two labels, both digest algorithms.',
  scenarios: [
    {
      id: 'valid-post-one-label',
      description: 'a POST signed as the platform SDK signs it, with a sha-256 Content-Digest, registers the agent on first sight',
      flags: ['Valid'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request(), accepted(k.alice.agentUrl))] }),
    },
    {
      id: 'valid-get-with-query',
      description: 'a GET with a query string and no body covers no content-digest (sent to the key directory, a platform route that serves GET)',
      flags: ['Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ method: 'GET', url: k.url(WELL_KNOWN.keyDirectory, '?x=1&y=two'), body: new Uint8Array(0) }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'valid-sha-512-digest',
      description: 'Content-Digest may use sha-512 (5.2)',
      flags: ['Valid', 'Sha512'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request({ digest: 'sha-512' }), accepted(k.alice.agentUrl))] }),
    },
    {
      id: 'valid-untyped-member',
      description: 'a Signature-Agent member without a type parameter names a key set URL',
      flags: ['Valid'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.keySetUrl, null) }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'valid-two-labels-key-rotation',
      description: 'key rotation: the registered key and a new key both sign; the new key is admitted and later signs alone',
      flags: ['Valid', 'KeyRotation'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A, k.A2]),
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [
          k.step(
            k.request({
              labels: [
                { label: 'sig1', key: k.A },
                { label: 'sig2', key: k.A2 },
              ],
            }),
            accepted(k.alice.agentUrl),
          ),
          k.step(k.request({ labels: [{ label: 'sig1', key: k.A2 }] }), accepted(k.alice.agentUrl)),
        ],
      }),
    },
    {
      id: 'valid-cimd-card-url',
      description: 'type=cimd: the member names the card, whose jwks_uri names the key set',
      flags: ['Valid', 'Cimd'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.cardUrl, SIGNATURE_AGENT_TYPES.cimd) }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'valid-cimd-inline-jwks',
      description: 'type=cimd with a card carrying an inline jwks instead of jwks_uri',
      flags: ['Valid', 'Cimd'],
      build: (k) => {
        const card = cardDocument(k.alice, { jwks_uri: undefined, jwks: { keys: [k.A.publicJwk] } });
        return {
          documents: { [k.alice.cardUrl]: card },
          steps: [
            k.step(k.request({ signatureAgent: signatureAgentHeader(['sig1'], k.alice.cardUrl, SIGNATURE_AGENT_TYPES.cimd) }), accepted(k.alice.agentUrl)),
          ],
        };
      },
    },
    {
      id: 'valid-directory-origin',
      description: 'type=directory: the member is an origin whose key directory is served with its media type',
      flags: ['Valid', 'Directory'],
      build: (k) => {
        const origin = k.directoryAgent;
        return {
          documents: k.directoryDocs(),
          steps: [
            k.step(k.request({ signatureAgent: signatureAgentHeader(['sig1'], origin.agentUrl, SIGNATURE_AGENT_TYPES.directory) }), accepted(origin.agentUrl)),
          ],
        };
      },
    },
    {
      id: 'valid-skew-boundary',
      description:
        'created exactly 60 s ahead and, later, expires exactly 60 s past are still inside the tolerated skew (live, inside it by the clock margin of READING-LIVE-CLOCK-SKEW)',
      flags: ['Valid', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ created: k.now + 60 - k.clockMargin, expires: k.now + 120 - k.clockMargin }), accepted(k.alice.agentUrl)),
          k.step(k.request({ created: k.now - 120 + k.clockMargin, expires: k.now - 60 + k.clockMargin }), accepted(k.alice.agentUrl)),
        ],
      }),
    },
    {
      id: 'valid-window-boundary',
      description: 'expires - created of exactly 3600 s is allowed',
      flags: ['Valid', 'Boundary'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request({ expires: k.now + 3600 }), accepted(k.alice.agentUrl))] }),
    },
  ],
};
