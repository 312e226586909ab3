import fc from 'fast-check';
import { afterAll, describe, expect } from 'vitest';
import type { SignedRequestCase } from '../src/cases/types.js';
import { runCaseOnTarget } from '../src/harness/case-on-target.js';
import { accepted, buildCase, refused, type Scenario } from '../src/scenarios/kit.js';
import type { MutableRequest } from '../src/scenarios/request-builder.js';
import { AUTH_CODES, AUTH_ERRORS } from '../src/spec/auth-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { DIGEST_ALGORITHMS } from '../src/spec/wire.js';
import { check } from './lib/check.js';
import { checkTimeout, context } from './lib/context.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 5.2 and 7.3 as properties, driven by the run's seed (`run --seed N` repeats the same requests): signed
 * requests drawn at random within every limit of section 8 are accepted, and the same requests with one covered
 * component changed in transit are refused with the code 7.3 gives that change.
 */
const target = suiteTarget();
afterAll(() => target.close());

/** Requests per property: each refused one counts against a live deployment's failure throttle. */
const RUNS = target.kind === 'live' ? 8 : 40;
const TIMEOUT_MS = checkTimeout(target.kind === 'live' ? 300_000 : 60_000);
const NONCE_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_.~';

interface Drawn {
  readonly query: string;
  readonly body: Record<string, string>;
  readonly nonceLength: number;
  /** Seconds before now the request was created, within the skew tolerance. */
  readonly age: number;
  /** expires - created. */
  readonly window: number;
  readonly digest: (typeof DIGEST_ALGORITHMS)[number];
  readonly nonceSeed: number;
}

const drawn: fc.Arbitrary<Drawn> = fc.record({
  query: fc.oneof(
    fc.constant(''),
    fc
      .dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/), { maxKeys: 3 })
      .map((q) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : '')),
  ),
  body: fc.dictionary(fc.stringMatching(/^[a-z]{1,10}$/), fc.string({ maxLength: 40 }), { maxKeys: 4 }),
  nonceLength: fc.integer({ min: LIMITS.nonceMinLength.value, max: LIMITS.nonceMaxLength.value }),
  age: fc.integer({ min: 0, max: LIMITS.clockSkew.value - 5 }),
  window: fc.integer({ min: LIMITS.clockSkew.value, max: LIMITS.signatureValidity.value }),
  digest: fc.constantFrom(...DIGEST_ALGORITHMS),
  nonceSeed: fc.integer({ min: 0, max: 2 ** 31 }),
});

/** A change in transit to one covered component, and the code 7.3 gives it. */
const TAMPERS = [
  { what: 'a body byte', code: AUTH_CODES.content_digest_mismatch, apply: (r: MutableRequest) => void (r.body = flipLastByte(r.body)) },
  { what: 'the query', code: AUTH_CODES.signature_invalid, apply: (r: MutableRequest) => void (r.url = r.url.includes('?') ? `${r.url}x` : `${r.url}?x`) },
  { what: 'the method', code: AUTH_CODES.signature_invalid, apply: (r: MutableRequest) => void (r.method = 'PUT') },
] as const;

function flipLastByte(body: Uint8Array): Uint8Array {
  const copy = new Uint8Array(body);
  copy[copy.length - 1] = copy[copy.length - 1]! ^ 0x01;
  return copy;
}

function nonceOf(d: Drawn, label: string): string {
  let x = d.nonceSeed + label.length;
  return Array.from({ length: d.nonceLength }, () => NONCE_CHARACTERS[(x = (x * 1103515245 + 12345) % 2 ** 31) % NONCE_CHARACTERS.length]).join('');
}

function scenario(id: string, d: Drawn, tamper?: (typeof TAMPERS)[number]): Scenario {
  return {
    id,
    description: `a drawn request${tamper ? `, ${tamper.what} changed in transit` : ''}`,
    flags: [],
    build: (k) => {
      const created = k.now - d.age;
      const request = k.request({
        url: k.url(undefined, d.query),
        bodyText: JSON.stringify(d.body),
        digest: d.digest,
        created,
        expires: created + d.window,
        nonce: (label) => nonceOf(d, label),
        ...(tamper ? { after: tamper.apply } : {}),
      });
      return { documents: k.docs(), steps: [k.step(request, tamper ? refused(tamper.code) : accepted(k.alice.agentUrl))] };
    },
  };
}

async function caseFor(s: Scenario, failing: number): Promise<SignedRequestCase> {
  await target.ready?.(failing);
  const env = target.environment;
  return buildCase({ now: env.now(), authority: env.authority, platformOrigin: env.platformOrigin, agentOrigin: env.agentOrigin(s.id), nonce: env.nonce }, s);
}

const samples = (runs: number) => fc.sample(drawn, { seed: context.seed, numRuns: runs });

describe(`5.2 and 7.3 as properties (seed ${context.seed}, ${target.description})`, () => {
  check({
    id: 'signed.property-drawn-requests-accepted',
    title:
      'signed requests drawn within every limit of section 8 (query, body, digest, nonce 1 to 256, window up to 3600 s, created up to the skew ago) are accepted with 200',
    requirements: [REQUIREMENTS.signedRequestAccepted.id, LIMITS.nonceMinLength.id, LIMITS.nonceMaxLength.id, LIMITS.signatureValidity.id, LIMITS.clockSkew.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      for (const [i, d] of samples(RUNS).entries()) {
        const [outcome] = await runCaseOnTarget(await caseFor(scenario(`property-accepted-${context.seed}-${i}`, d), 0), target);
        c.record(outcome!.exchange);
        if (outcome!.problems.length) expect.fail(`drawn request ${i + 1} of ${RUNS} (${JSON.stringify(d)}): ${outcome!.problems.join('; ')}`);
        // Accepted means the route's own success: the CLI token route answers 200 with a platform token (4.7).
        expect(outcome!.status, `drawn request ${i + 1}: status`).toBe(200);
      }
    },
  });

  check({
    id: 'signed.property-tampered-requests-refused',
    title: 'the same drawn requests with a body byte, the query or the method changed in transit are refused: content_digest_mismatch or signature_invalid',
    requirements: [AUTH_ERRORS.content_digest_mismatch.id, AUTH_ERRORS.signature_invalid.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: async (c) => {
      for (const [i, d] of samples(RUNS).entries()) {
        const tamper = TAMPERS[i % TAMPERS.length]!;
        const [outcome] = await runCaseOnTarget(await caseFor(scenario(`property-tampered-${context.seed}-${i}`, d, tamper), 1), target);
        c.record(outcome!.exchange);
        if (outcome!.problems.length)
          expect.fail(`drawn request ${i + 1} of ${RUNS}, ${tamper.what} changed (${JSON.stringify(d)}): ${outcome!.problems.join('; ')}`);
      }
    },
  });
});
