import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { READINGS } from '../../spec/readings.js';
import { accepted, allowing, refused, type Group } from '../kit.js';
import { flip } from './credentials.js';
import { covered, params, sig1, withHeader } from './headers.js';

/**
 * Requests breaking two rules at once. The spec gives no order (READING-CHECK-ORDER): the reference answers the code
 * of the check it runs first (src/verifier/order.ts), and the code of the other rule broken conforms as well.
 */
const either = (code: Parameters<typeof refused>[0], other: Parameters<typeof refused>[0]) => allowing(refused(code), [other], READINGS.checkOrder);
/** Whether a refused request spent its nonce is open too (READING-REFUSED-NONCE). */
const orSpent = (expect: ReturnType<typeof refused>) => allowing(expect, [AUTH_CODES.signature_replayed], READINGS.refusedNonce);

export const precedence: Group = {
  comment: 'Precedence: a request breaking two rules gets the code of either; the reference answers the one it checks first.',
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
            either(AUTH_CODES.signature_params_invalid, AUTH_CODES.signature_malformed),
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
            either(AUTH_CODES.signature_expired, AUTH_CODES.signature_authority_mismatch),
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
            either(AUTH_CODES.signature_authority_mismatch, AUTH_CODES.signature_coverage_insufficient),
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
            either(AUTH_CODES.signature_coverage_insufficient, AUTH_CODES.signature_agent_invalid),
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
            either(AUTH_CODES.content_digest_mismatch, AUTH_CODES.key_set_unreachable),
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
        steps: [k.step(k.request({ labels: [sig1(k, { tamper: (s) => flip(s) })] }), either(AUTH_CODES.signature_key_unknown, AUTH_CODES.signature_invalid))],
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
          k.step(
            k.request({ nonce: () => 'nonce-1', labels: [sig1(k, { tamper: (s) => flip(s) })] }),
            either(AUTH_CODES.signature_invalid, AUTH_CODES.signature_replayed),
          ),
          k.step(k.request({ nonce: () => 'nonce-2', labels: [sig1(k, { tamper: (s) => flip(s) })] }), refused(AUTH_CODES.signature_invalid)),
          k.step(k.request({ nonce: () => 'nonce-2' }), orSpent(accepted(k.alice.agentUrl))),
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
          steps: [
            k.step(request, refused(AUTH_CODES.card_unreachable)),
            k.step(request, allowing(refused(AUTH_CODES.signature_replayed), [AUTH_CODES.card_unreachable], READINGS.refusedNonce)),
          ],
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
          k.step(
            k.request({ nonce: () => 'n', labels: [{ label: 'sig1', key: k.A2 }] }),
            either(AUTH_CODES.key_continuity_required, AUTH_CODES.signature_replayed),
          ),
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
