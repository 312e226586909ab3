import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import type { CaseStep } from '../../cases/types.js';
import { accepted, refused, type Group, type Kit } from '../kit.js';
import { flip } from './credentials.js';

/**
 * One second past the key set re-read interval: "read at most once per 5 minutes" allows a read at exactly 300 s and
 * does not ask one, so a step demanding what only a new read shows comes a second later.
 */
const REREAD = LIMITS.keySetRereadInterval.value + 1;

const OWNER_KEY = 'owner-key-4f1c2a9e';
/** One address per throttle case: a live deployment keeps counting an address from one case into the next minute. */
const THROTTLED = '198.51.100.7';
const THROTTLED_IN_WINDOW = '198.51.100.10';
const THROTTLED_AGING = '198.51.100.11';
const OTHER = '198.51.100.8';

function failures(k: Kit, count: number, address: string, at = k.now): CaseStep[] {
  return Array.from({ length: count }, () =>
    k.step(k.request({ labels: [{ label: 'sig1', key: k.A, tamper: (s) => flip(s) }] }), refused(AUTH_CODES.signature_invalid), {
      client_address: address,
      at,
    }),
  );
}

export const state: Group = {
  comment: 'What the platform remembers between requests: nonces, registrations and key continuity, failed signatures per address.',
  scenarios: [
    {
      id: 'replay-same-request',
      description: 'the same signed request twice: the second is a replay',
      flags: ['Replay'],
      build: (k) => {
        const request = k.request();
        return { documents: k.docs(), steps: [k.step(request, accepted(k.alice.agentUrl)), k.step(request, refused(AUTH_CODES.signature_replayed))] };
      },
    },
    {
      id: 'replay-not-remembered',
      description: 'signature_replayed is not remembered: right after a replay, a request with a fresh nonce is accepted',
      flags: ['Replay'],
      build: (k) => {
        const request = k.request();
        return {
          documents: k.docs(),
          steps: [
            k.step(request, accepted(k.alice.agentUrl)),
            k.step(request, refused(AUTH_CODES.signature_replayed)),
            k.step(k.request(), accepted(k.alice.agentUrl)),
          ],
        };
      },
    },
    {
      id: 'replay-until-skew-ends',
      description:
        'a nonce stays spent while its signature is still accepted: replayed exactly 60 s after its expires, inside the skew (live, inside it by the clock margin of READING-LIVE-CLOCK-SKEW)',
      flags: ['Replay', 'Time', 'Caching', 'Boundary'],
      build: (k) => {
        const request = k.request({ created: k.now, expires: k.now + 60 });
        return {
          documents: k.docs(),
          steps: [
            k.step(request, accepted(k.alice.agentUrl)),
            k.step(request, refused(AUTH_CODES.signature_replayed), { at: k.now + 60 + LIMITS.clockSkew.value - 2 * k.clockMargin }),
          ],
        };
      },
    },
    {
      id: 'card-read-on-first-sight-only',
      description: 'the card is read on first sight only: once the agent is registered, a card that went missing is not read again',
      flags: ['Card', 'Replay'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request(), accepted(k.alice.agentUrl)),
          k.step(k.request(), accepted(k.alice.agentUrl), { documents: { [k.alice.cardUrl]: { status: 404, body: '' } } }),
        ],
      }),
    },
    {
      id: 'replay-nonce-reused-in-new-request',
      description: 'a new request reusing a nonce already spent by this agent',
      flags: ['Replay'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ nonce: () => 'reused-nonce' }), accepted(k.alice.agentUrl)),
          k.step(k.request({ nonce: () => 'reused-nonce', bodyText: '{"n":2}' }), refused(AUTH_CODES.signature_replayed)),
        ],
      }),
    },
    {
      id: 'replay-one-nonce-two-labels',
      description: 'two labels of one request sharing a nonce: the second label is a replay',
      flags: ['Replay', 'KeyRotation'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A, k.A2]),
        steps: [
          k.step(
            k.request({
              nonce: () => 'shared-nonce',
              labels: [
                { label: 'sig1', key: k.A },
                { label: 'sig2', key: k.A2 },
              ],
            }),
            refused(AUTH_CODES.signature_replayed),
          ),
        ],
      }),
    },
    {
      id: 'replay-nonce-is-per-agent',
      description: 'a nonce is single use per agent URL: another agent may use the same nonce',
      flags: ['Replay', 'Valid'],
      build: (k) => ({
        documents: { ...k.docs(), ...k.docs(k.bob, [k.B]) },
        steps: [
          k.step(k.request({ nonce: () => 'same-nonce' }), accepted(k.alice.agentUrl)),
          k.step(k.request({ nonce: () => 'same-nonce', keySetUrl: k.bob.keySetUrl, labels: [{ label: 'sig1', key: k.B }] }), accepted(k.bob.agentUrl)),
        ],
      }),
    },
    {
      id: 'key-removed-refused-after-reread',
      description:
        'key removal is the revocation lever: a key taken out of the key set still verifies within the 5-minute read window, and is signature_key_unknown once the set is read again; the key left in it still signs',
      flags: ['KeySelection', 'Caching', 'KeyRotation'],
      build: (k) => {
        const both = [
          { label: 'sig1', key: k.A },
          { label: 'sig2', key: k.A2 },
        ];
        return {
          documents: k.docs(k.alice, [k.A, k.A2]),
          steps: [
            k.step(k.request({ labels: both }), accepted(k.alice.agentUrl)),
            k.step(k.request({ created: k.now + 100, expires: k.now + 160 }), accepted(k.alice.agentUrl), {
              at: k.now + 100,
              documents: k.docs(k.alice, [k.A2]),
            }),
            k.step(k.request({ created: k.now + REREAD, expires: k.now + REREAD + 60 }), refused(AUTH_CODES.signature_key_unknown), { at: k.now + REREAD }),
            k.step(k.request({ created: k.now + REREAD, expires: k.now + REREAD + 60, labels: [{ label: 'sig1', key: k.A2 }] }), accepted(k.alice.agentUrl), {
              at: k.now + REREAD,
            }),
          ],
        };
      },
    },
    {
      id: 'continuity-new-key-alone',
      description: 'the key set carries the signing key but the registration holds none of the keys that signed',
      flags: ['Continuity'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A, k.A2]),
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [k.step(k.request({ labels: [{ label: 'sig1', key: k.A2 }] }), refused(AUTH_CODES.key_continuity_required))],
      }),
    },
    {
      id: 'continuity-old-key-removed',
      description: 'the registered key was removed from the key set and a new key signs alone',
      flags: ['Continuity'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A2]),
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [k.step(k.request({ labels: [{ label: 'sig1', key: k.A2 }] }), refused(AUTH_CODES.key_continuity_required))],
      }),
    },
    {
      id: 'continuity-owner-key',
      description: "a new key alone is admitted with the operator's platform key in X-Service-Owner-Key",
      flags: ['Continuity', 'Valid'],
      build: (k) => ({
        documents: k.docs(k.alice, [k.A2]),
        platform: { owner_keys: [OWNER_KEY] },
        registrations: { [k.alice.agentUrl]: { thumbprints: [k.A.thumbprint] } },
        steps: [
          k.step(
            k.request({ labels: [{ label: 'sig1', key: k.A2 }], headers: [[HEADERS.ownerKey, 'not-the-owner-key']] }),
            refused(AUTH_CODES.key_continuity_required),
          ),
          k.step(k.request({ labels: [{ label: 'sig1', key: k.A2 }], headers: [[HEADERS.ownerKey, OWNER_KEY]] }), accepted(k.alice.agentUrl)),
          k.step(k.request({ labels: [{ label: 'sig1', key: k.A2 }] }), accepted(k.alice.agentUrl)),
        ],
      }),
    },
    {
      id: 'throttle-thirty-failures',
      description: '30 failed signed requests from one address in 60 s: the next is refused before reading, even a valid one',
      flags: ['Throttle'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          ...failures(k, LIMITS.failedSignatures.value, THROTTLED),
          k.step(k.request(), refused(AUTH_CODES.too_many_failed_signatures), { client_address: THROTTLED }),
        ],
      }),
    },
    {
      id: 'throttle-per-address-and-window',
      description: 'the count is per address and only over the last 60 s; 29 failures do not throttle',
      flags: ['Throttle', 'Boundary'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          ...failures(k, LIMITS.failedSignatures.value - 1, THROTTLED_IN_WINDOW),
          k.step(k.request({ labels: [{ label: 'sig1', key: k.A, tamper: (s) => flip(s) }] }), refused(AUTH_CODES.signature_invalid), {
            client_address: THROTTLED_IN_WINDOW,
          }),
          k.step(k.request(), refused(AUTH_CODES.too_many_failed_signatures), { client_address: THROTTLED_IN_WINDOW }),
          k.step(k.request(), accepted(k.alice.agentUrl), { client_address: OTHER }),
          k.step(k.request({ created: k.now + 60, expires: k.now + 120 }), accepted(k.alice.agentUrl), { client_address: THROTTLED_IN_WINDOW, at: k.now + 60 }),
        ],
      }),
    },
    {
      id: 'throttle-failures-age-out',
      description:
        'each failure leaves the count when it is 60 s old: 29 failures, one more 50 s later, and 75 s after the first a valid request is accepted (a sliding or a fixed window both count at most one then)',
      flags: ['Throttle', 'Caching'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          ...failures(k, LIMITS.failedSignatures.value - 1, THROTTLED_AGING),
          k.step(
            k.request({ created: k.now + 50, expires: k.now + 110, labels: [{ label: 'sig1', key: k.A, tamper: (s) => flip(s) }] }),
            refused(AUTH_CODES.signature_invalid),
            { client_address: THROTTLED_AGING, at: k.now + 50 },
          ),
          k.step(k.request({ created: k.now + 75, expires: k.now + 135 }), accepted(k.alice.agentUrl), { client_address: THROTTLED_AGING, at: k.now + 75 }),
        ],
      }),
    },
  ],
};
