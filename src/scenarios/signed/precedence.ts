import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { READINGS } from '../../spec/readings.js';
import { accepted, allowing, refused, type Group } from '../kit.js';
import { flip } from './credentials.js';
import { covered, params, sig1, withHeader } from './headers.js';

/**
 * Requests breaking two rules at once. The spec gives no order (READING-CHECK-ORDER): the reference answers the code
 * of the check it runs first (src/verifier/order.ts), and the code of the other rule broken conforms as well. The ids
 * name the reference's order and stay as they are (reports and self-test trials key on them); the descriptions say
 * what each check demands, which is either code.
 */
const either = (code: Parameters<typeof refused>[0], other: Parameters<typeof refused>[0]) => allowing(refused(code), [other], READINGS.checkOrder);
/** Whether a refused request spent its nonce is open too (READING-REFUSED-NONCE). */
const orSpent = (expect: ReturnType<typeof refused>) => allowing(expect, [AUTH_CODES.signature_replayed], READINGS.refusedNonce);

export const precedence: Group = {
  comment:
    'Two rules broken at once: the request is refused with the code of either (READING-CHECK-ORDER); no order is demanded, except that too_many_failed_signatures comes before reading.',
  scenarios: [
    {
      id: 'precedence-params-before-size',
      description: 'a bad keyid and a 63-byte signature at once: refused, signature_params_invalid or signature_malformed',
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
      description: 'expired and signed for another host at once: refused, signature_expired or signature_authority_mismatch',
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
      description: 'signed for another host with @query uncovered: refused, signature_authority_mismatch or signature_coverage_insufficient',
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
      description: 'an uncovered body and an http Signature-Agent at once: refused, signature_coverage_insufficient or signature_agent_invalid',
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
      description: 'a wrong Content-Digest and an unreachable key set at once: refused, content_digest_mismatch or key_set_unreachable',
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
      description: 'an unknown keyid and a broken signature at once: refused, signature_key_unknown or signature_invalid',
      flags: ['Precedence'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.B]),
        steps: [k.step(k.request({ labels: [sig1(k, { tamper: (s) => flip(s) })] }), either(AUTH_CODES.signature_key_unknown, AUTH_CODES.signature_invalid))],
      }),
    },
    {
      id: 'precedence-invalid-before-replay',
      description:
        'a forged request reusing a spent nonce is refused (signature_invalid or signature_replayed); a forged one with a fresh nonce is signature_invalid, and the genuine request with that nonce after it is accepted (or signature_replayed, READING-REFUSED-NONCE)',
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
      description: 'first sight with a card that answers 404, then the same request again: card_unreachable, then signature_replayed or card_unreachable again',
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
      description: 'a registered agent signing only with a new key and reusing a spent nonce: refused, key_continuity_required or signature_replayed',
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
      description:
        'after 30 malformed requests from one address, the next, whose route read its body first, is refused too_many_failed_signatures: refused before reading, so before request_body_consumed',
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
