import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import type { CaseRequest } from '../../src/cases/types.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { AUTH_ERRORS, isAuthErrorCode, type AuthErrorCode } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { createMemoryPorts, verifyRequest, type Verdict } from '../../src/verifier/index.js';

const RUNS = { numRuns: 150, seed: Number(process.env.CONFORMANCE_SEED ?? 20261122) };
const kit = new Kit(VECTOR_ENV, 'properties');
const documents = kit.docs();
const config = { authority: VECTOR_ENV.authority };

interface Wire {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

function toWire(r: CaseRequest): Wire {
  return {
    method: r.method,
    url: r.url,
    headers: r.headers.map(([n, v]) => [n, v] as [string, string]),
    body: new Uint8Array(Buffer.from(r.body_base64 ?? '', 'base64')),
  };
}

async function verify(w: Wire): Promise<Verdict> {
  const ports = createMemoryPorts({ now: () => VECTOR_ENV.now }, createMemoryFetcher(documents));
  return verifyRequest({ ...w, clientAddress: '192.0.2.1' }, ports, config);
}

function header(w: Wire, name: string): string {
  return w.headers.find(([n]) => n === name)![1];
}
function setHeader(w: Wire, name: string, value: string): void {
  w.headers = w.headers.map(([n, v]) => [n, n === name ? value : v]);
}

/** Replaces the value of one parameter in the Signature-Input text (no re-signing). */
function setParam(w: Wire, name: string, value: string): void {
  setHeader(w, HEADERS.signatureInput, header(w, HEADERS.signatureInput).replace(new RegExp(`;${name}=("[^"]*"|[^;]*)`), `;${name}=${value}`));
}

type Mutation = { name: string; expected: AuthErrorCode; apply: (w: Wire) => void };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom('PUT', 'PATCH', 'DELETE', 'post').map((m) => ({
    name: `method ${m}`,
    expected: 'signature_invalid' as const,
    apply: (w: Wire) => {
      w.method = m;
    },
  })),
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((seg) => ({
    name: `path /${seg}`,
    expected: 'signature_invalid' as const,
    apply: (w: Wire) => {
      w.url = w.url.replace('/token', `/${seg}x`);
    },
  })),
  fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/).map((q) => ({
    name: `query ?${q}`,
    expected: 'signature_invalid' as const,
    apply: (w: Wire) => {
      w.url = `${w.url}?${q}`;
    },
  })),
  fc.stringMatching(/^[a-z]{1,10}$/).map((h) => ({
    name: `authority ${h}`,
    expected: 'signature_authority_mismatch' as const,
    apply: (w: Wire) => {
      w.url = w.url.replace(VECTOR_ENV.authority, `${h}.example`);
    },
  })),
  fc.nat({ max: 1 }).chain((i) =>
    fc.integer({ min: 1, max: 255 }).map((x) => ({
      name: `body byte ${i} ^ ${x}`,
      expected: 'content_digest_mismatch' as const,
      apply: (w: Wire) => {
        w.body = new Uint8Array(w.body);
        w.body[i] = w.body[i]! ^ x;
      },
    })),
  ),
  fc.integer({ min: 0, max: 63 }).chain((i) =>
    fc.integer({ min: 1, max: 255 }).map((x) => ({
      name: `signature byte ${i} ^ ${x}`,
      expected: 'signature_invalid' as const,
      apply: (w: Wire) => {
        const value = header(w, HEADERS.signature);
        const bytes = Buffer.from(value.slice('sig1=:'.length, -1), 'base64');
        bytes[i] = bytes[i]! ^ x;
        setHeader(w, HEADERS.signature, `sig1=:${bytes.toString('base64')}:`);
      },
    })),
  ),
  fc
    .integer({ min: -59, max: 59 })
    .filter((d) => d !== 0)
    .map((d) => ({ name: `created ${d}`, expected: 'signature_invalid' as const, apply: (w: Wire) => setParam(w, 'created', String(VECTOR_ENV.now + d)) })),
  fc.integer({ min: 1, max: 3000 }).map((d) => ({
    name: `expires +${d}`,
    expected: 'signature_invalid' as const,
    apply: (w: Wire) => setParam(w, 'expires', String(VECTOR_ENV.now + 60 + d)),
  })),
  fc
    .stringMatching(/^[A-Za-z0-9+/]{1,64}$/)
    .map((n) => ({ name: `nonce ${n}`, expected: 'signature_invalid' as const, apply: (w: Wire) => setParam(w, 'nonce', `"${n}"`) })),
  fc
    .stringMatching(/^[A-Za-z0-9_-]{43}$/)
    .filter((t) => t !== kit.A.thumbprint)
    .map((t) => ({ name: `keyid ${t}`, expected: 'signature_key_unknown' as const, apply: (w: Wire) => setParam(w, 'keyid', `"${t}"`) })),
  fc.constant({
    name: 'signature-agent member without its type parameter',
    expected: 'signature_invalid' as const,
    apply: (w: Wire) => setHeader(w, HEADERS.signatureAgent, header(w, HEADERS.signatureAgent).replace(';type=jwks_uri', '')),
  }),
  fc
    .stringMatching(/^[a-z]{1,8}$/)
    .filter((n) => n !== 'alice')
    .map((n) => ({
      name: `signature-agent naming agent ${n}, who publishes nothing`,
      expected: 'key_set_unreachable' as const,
      apply: (w: Wire) => setHeader(w, HEADERS.signatureAgent, header(w, HEADERS.signatureAgent).replace('/a/alice/', `/a/${n}/`)),
    })),
);

describe('a single change to a valid signed request is refused with the right code', () => {
  test('the unchanged request is accepted', async () => {
    expect((await verify(toWire(kit.request()))).ok).toBe(true);
  });

  test('property: one change, one code', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const wire = toWire(kit.request());
        m.apply(wire);
        const verdict = await verify(wire);
        expect(verdict.ok, m.name).toBe(false);
        if (!verdict.ok) expect(verdict.code, m.name).toBe(m.expected);
      }),
      RUNS,
    );
  });
});

const headerValue = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.stringMatching(/^[\x20-\x7e]{0,200}$/),
  fc.constantFrom(
    'sig1=()',
    'sig1=("@method");created=1',
    'sig1=:AA==:',
    'sig1="x";type=cimd',
    'sig1=(),sig2=()',
    '',
    ' ',
    'sig1=("@path";sf)',
    '"https://a.example"',
    'Bearer a.b.c',
    'Bearer',
    'sha-256=:x:',
  ),
);

describe('arbitrary header values never make the verifier throw and always yield a catalogue code', () => {
  test('property: signature, agent, digest and authorization headers of any value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          input: fc.option(headerValue, { nil: undefined }),
          signature: fc.option(headerValue, { nil: undefined }),
          agent: fc.option(headerValue, { nil: undefined }),
          digest: fc.option(headerValue, { nil: undefined }),
          authorization: fc.option(headerValue, { nil: undefined }),
          body: fc.uint8Array({ maxLength: 64 }),
        }),
        async (h) => {
          const headers: Array<[string, string]> = [];
          if (h.input !== undefined) headers.push([HEADERS.signatureInput, h.input]);
          if (h.signature !== undefined) headers.push([HEADERS.signature, h.signature]);
          if (h.agent !== undefined) headers.push([HEADERS.signatureAgent, h.agent]);
          if (h.digest !== undefined) headers.push([HEADERS.contentDigest, h.digest]);
          if (h.authorization !== undefined) headers.push([HEADERS.authorization, h.authorization]);
          const verdict = await verify({ method: 'POST', url: kit.url(), headers, body: h.body });
          expect(verdict.ok).toBe(false);
          if (!verdict.ok) {
            expect(isAuthErrorCode(verdict.code)).toBe(true);
            expect(verdict.status).toBe(AUTH_ERRORS[verdict.code].status);
            expect(verdict.body.error_code).toBe(verdict.code);
            expect(verdict.headers[HEADERS.wwwAuthenticate]).toMatch(/^Bearer realm="service", error="invalid_token", error_description="[\x20-\x7e]+"$/);
          }
        },
      ),
      { ...RUNS, numRuns: 400 },
    );
  });
});
