import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { accepted, refused, type Group } from '../kit.js';
import { flip } from './credentials.js';
import { covered, params, sig1, withHeader } from './headers.js';

/** Requests breaking two rules at once: the order of checks (src/verifier/order.ts) decides the code. */
export const precedence: Group = {
  comment: 'Precedence: a request breaking two rules gets the code of the check that comes first.',
  scenarios: [
    {
      id: 'precedence-params-before-size',
      description: 'a bad keyid and a 63-byte signature: parameters are checked first',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ labels: [sig1(k, { params: params(k, { keyid: '"short"' }), tamper: (s) => s.slice(0, 63) })] }),
            refused(AUTH_CODES.signature_params_invalid),
          ),
        ],
      }),
    },
    {
      id: 'precedence-expired-before-authority',
      description: 'expired and signed for another host: expiry wins',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ created: k.now - 200, expires: k.now - 100, url: k.onHost('alias-of-the-platform.example') }),
            refused(AUTH_CODES.signature_expired),
          ),
        ],
      }),
    },
    {
      id: 'precedence-authority-before-coverage',
      description: 'another host and an uncovered @query: authority wins',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ url: k.onHost('alias-of-the-platform.example'), labels: [sig1(k, { covered: covered().filter((c) => c !== '"@query"') })] }),
            refused(AUTH_CODES.signature_authority_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'precedence-coverage-before-agent-url',
      description: 'an uncovered body and an http Signature-Agent: coverage wins',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ keySetUrl: k.alice.keySetUrl.replace('https:', 'http:'), labels: [sig1(k, { covered: covered(false) })] }),
            refused(AUTH_CODES.signature_coverage_insufficient),
          ),
        ],
      }),
    },
    {
      id: 'precedence-digest-before-key-set',
      description: 'a wrong digest and an unreachable key set: the local digest check wins, nothing is fetched',
      flags: ['Precedence'],
      build: (k) => ({
        documents: { ...k.docs(), [k.alice.keySetUrl]: { status: 404, body: '' } },
        steps: [
          k.step(
            k.request({
              after: (r) => {
                r.body = new TextEncoder().encode('{"x":1}');
              },
            }),
            refused(AUTH_CODES.content_digest_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'precedence-key-unknown-before-invalid',
      description: 'an unknown keyid and a broken signature: the key is looked up first',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.B]),
        steps: [k.step(k.request({ labels: [sig1(k, { tamper: (s) => flip(s) })] }), refused(AUTH_CODES.signature_key_unknown))],
      }),
    },
    {
      id: 'precedence-invalid-before-replay',
      description: 'a forged request reusing a spent nonce is signature_invalid, and does not spend anything',
      flags: ['Precedence', 'Replay'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ nonce: () => 'nonce-1' }), accepted(k.alice.agentUrl)),
          k.step(k.request({ nonce: () => 'nonce-1', labels: [sig1(k, { tamper: (s) => flip(s) })] }), refused(AUTH_CODES.signature_invalid)),
          k.step(k.request({ nonce: () => 'nonce-2', labels: [sig1(k, { tamper: (s) => flip(s) })] }), refused(AUTH_CODES.signature_invalid)),
          k.step(k.request({ nonce: () => 'nonce-2' }), accepted(k.alice.agentUrl)),
        ],
      }),
    },
    {
      id: 'precedence-replay-before-card',
      description: 'first sight with a bad card: the replayed request is a replay, the card is never read again for it',
      flags: ['Precedence', 'Replay', 'Card'],
      build: (k) => {
        const request = k.request();
        return {
          documents: { ...k.docs(), [k.alice.cardUrl]: { status: 404, body: '' } },
          steps: [k.step(request, refused(AUTH_CODES.card_unreachable)), k.step(request, refused(AUTH_CODES.signature_replayed))],
        };
      },
    },
    {
      id: 'precedence-continuity-before-replay',
      description: 'a registered agent signing only with a new key and a spent nonce: continuity is answered',
      flags: ['Precedence', 'Continuity'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A, k.A2]),
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [
          k.step(k.request({ nonce: () => 'n' }), accepted(k.alice.agentUrl)),
          k.step(k.request({ nonce: () => 'n', labels: [{ label: 'sig1', key: k.A2 }] }), refused(AUTH_CODES.key_continuity_required)),
        ],
      }),
    },
    {
      id: 'precedence-throttle-before-everything',
      description: 'a throttled address gets too_many_failed_signatures even for a malformed request',
      flags: ['Precedence', 'Throttle'],
      build: (k) => {
        const bad = () =>
          k.step(k.request({ after: withHeader(HEADERS.signatureInput, 'nonsense (') }), refused(AUTH_CODES.signature_malformed), {
            client_address: '198.51.100.9',
          });
        return {
          documents: k.docs(),
          steps: [
            ...Array.from({ length: 30 }, bad),
            k.step(k.request({ bodyConsumed: true }), refused(AUTH_CODES.too_many_failed_signatures), { client_address: '198.51.100.9' }),
          ],
        };
      },
    },
  ],
};
