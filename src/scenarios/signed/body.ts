import { AUTH_CODES } from '../../spec/auth-errors.js';
import { HEADERS } from '../../spec/headers.js';
import { LIMITS } from '../../spec/limits.js';
import { accepted, refused, type Group } from '../kit.js';
import { covered, sig1, withHeader, withoutHeader } from './headers.js';

const FILL = 0x61;

export const body: Group = {
  comment: 'The body: the 4 MiB cap, Content-Digest over the exact bytes, and a body a route read before verification.',
  scenarios: [
    {
      id: 'body-exactly-4-mib',
      description: 'a body of exactly 4 MiB is accepted',
      flags: ['Valid', 'Boundary', 'LargeBody'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ bodyFill: { length: LIMITS.signedRequestBody.value, byte: FILL } }), accepted(k.alice.agentUrl))],
      }),
    },
    {
      id: 'body-too-large-by-one',
      description: 'a body of 4 MiB + 1 byte',
      flags: ['Boundary', 'LargeBody'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ bodyFill: { length: LIMITS.signedRequestBody.value + 1, byte: FILL } }), refused(AUTH_CODES.signature_body_too_large))],
      }),
    },
    {
      id: 'body-too-large-5-mib',
      description: 'a body of 5 MiB',
      flags: ['LargeBody'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ bodyFill: { length: 5 * 1024 * 1024, byte: FILL } }), refused(AUTH_CODES.signature_body_too_large))],
      }),
    },
    {
      id: 'body-consumed-by-route',
      description: 'a platform route read the body before verification: nothing is evaluated',
      flags: ['Platform'],
      build: (k) => ({ documents: k.docs(), steps: [k.step(k.request({ bodyConsumed: true }), refused(AUTH_CODES.request_body_consumed))] }),
    },
    {
      id: 'body-consumed-even-when-unsigned-parts-bad',
      description: 'a consumed body answers request_body_consumed before any header is parsed',
      flags: ['Platform', 'Precedence'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(k.request({ bodyConsumed: true, after: withHeader(HEADERS.signatureInput, 'not a dictionary (') }), refused(AUTH_CODES.request_body_consumed)),
        ],
      }),
    },
    {
      id: 'digest-body-changed',
      description: 'the body changed after signing: the digest no longer matches',
      flags: ['Digest'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              after: (r) => {
                r.body = new TextEncoder().encode('{"changed":true}');
              },
            }),
            refused(AUTH_CODES.content_digest_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'digest-covered-but-absent',
      description: 'content-digest is covered but the request carries no Content-Digest',
      flags: ['Digest'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ method: 'GET', body: new Uint8Array(0), labels: [sig1(k, { covered: covered(true) })] }),
            refused(AUTH_CODES.content_digest_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'digest-sha-512-wrong',
      description: 'a sha-512 digest of other bytes',
      flags: ['Digest', 'Sha512'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({
              digest: 'sha-512',
              after: (r) => {
                r.body = new TextEncoder().encode('[]');
              },
            }),
            refused(AUTH_CODES.content_digest_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'digest-unsupported-algorithm-only',
      description: 'a Content-Digest with only an algorithm the profile does not accept (md5)',
      flags: ['Digest'],
      build: (k) => ({
        documents: k.docs(),
        steps: [
          k.step(
            k.request({ digest: null, headers: [[HEADERS.contentDigest, 'md5=:mZFLkyvTelC5g8XnyQrpOw==:']] }),
            refused(AUTH_CODES.content_digest_mismatch),
          ),
        ],
      }),
    },
    {
      id: 'digest-header-removed',
      description: 'Content-Digest removed in transit from a request with a body',
      flags: ['Digest'],
      build: (k) => ({
        documents: k.docs(),
        steps: [k.step(k.request({ after: withoutHeader(HEADERS.contentDigest) }), refused(AUTH_CODES.content_digest_mismatch))],
      }),
    },
  ],
};
