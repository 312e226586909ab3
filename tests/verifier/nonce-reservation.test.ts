import { describe, expect, it } from 'vitest';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { Kit, VECTOR_ENV } from '../../src/scenarios/kit.js';
import { AUTH_CODES } from '../../src/spec/auth-errors.js';
import { ed25519VerifyOffThread } from '../../src/httpsig/index.js';
import { MemoryNonceStore } from '../../src/verifier/memory-stores.js';
import { createMemoryPorts } from '../../src/verifier/memory-ports.js';
import type { NonceStore, VerifierPorts } from '../../src/verifier/ports.js';
import type { VerifierRequest } from '../../src/verifier/types.js';
import { verifyRequest } from '../../src/verifier/verify-request.js';

/**
 * A store that can forget a nonce is asked to spend it while the signatures are checked (src/verifier/nonces.ts), and
 * to forget it when the request is refused before its nonce was judged: what a client sees is what it saw when nonces
 * were spent only after the signatures verified. A store that cannot forget is asked only then.
 */
const kit = new Kit(VECTOR_ENV, 'nonce-reservation');
const config = { authority: kit.env.authority };
const registered = { agentUrl: kit.alice.agentUrl, thumbprints: [kit.A.thumbprint], registeredAt: kit.now - 86_400 };

function asVerifierRequest(signed: ReturnType<Kit['request']>): VerifierRequest {
  const body = signed.body_base64 === undefined ? null : new Uint8Array(Buffer.from(signed.body_base64, 'base64'));
  return { method: signed.method, url: signed.url, headers: signed.headers, body, clientAddress: '192.0.2.8' };
}

/** Alice's request with `nonce`-label as each label's nonce (`exact`: `nonce` itself); `forged` changes a byte of the last signature. */
function request(nonce: string, o: { forged?: boolean; withA2?: boolean; twoLabels?: boolean; exact?: boolean } = {}): VerifierRequest {
  const labels = o.twoLabels
    ? [
        { label: 'sig1', key: kit.A },
        { label: 'sig2', key: kit.A },
      ]
    : [{ label: 'sig1', key: o.withA2 ? kit.A2 : kit.A }];
  const signed = asVerifierRequest(kit.request({ nonce: (label) => (o.exact ? nonce : `${nonce}-${label}`), labels }));
  if (!o.forged) return signed;
  const headers = signed.headers.map(([name, value]): [string, string] =>
    name.toLowerCase() === 'signature'
      ? [name, value.replace(/:([^:]*):$/, (_m, b: string) => `:${b.slice(0, 20)}${b[20] === 'A' ? 'B' : 'A'}${b.slice(21)}:`)]
      : [name, value],
  );
  return { ...signed, headers };
}

type Call = readonly [string, string];

/** The memory store, with every spend and release written down; `canForget` false hides its release. */
function recordingNonces(ports: VerifierPorts, canForget: boolean, calls: Call[], asPromises = false): NonceStore {
  const store = new MemoryNonceStore(ports.clock);
  const answer = <T>(value: T) => (asPromises ? Promise.resolve(value) : value);
  const spend = (agentUrl: string, nonce: string, until: number) => {
    calls.push(['spend', nonce]);
    return answer(store.spend(agentUrl, nonce, until));
  };
  if (!canForget) return { spend };
  return {
    spend,
    release: (agentUrl, nonce) => {
      calls.push(['release', nonce]);
      return answer(store.release(agentUrl, nonce));
    },
  };
}

function world(o: { canForget?: boolean; asPromises?: boolean; offThread?: boolean; firstSightCardGone?: boolean } = {}) {
  const documents = o.firstSightCardGone ? { ...kit.docs(), [kit.alice.cardUrl]: { status: 404, body: '' } } : { ...kit.docs(kit.alice, [kit.A, kit.A2]) };
  const base = createMemoryPorts({ now: () => kit.now }, createMemoryFetcher(documents), o.firstSightCardGone ? [] : [registered]);
  const calls: Call[] = [];
  const nonces = recordingNonces(base, o.canForget ?? true, calls, o.asPromises);
  const ports: VerifierPorts = { ...base, nonces, ...(o.offThread ? { ed25519: ed25519VerifyOffThread } : {}) };
  const verify = async (r: VerifierRequest) => {
    const verdict = await verifyRequest(r, ports, config);
    return verdict.ok ? 'accepted' : verdict.code;
  };
  return { calls, verify };
}

describe('nonces spent while the signatures are checked', () => {
  for (const [asPromises, offThread] of [
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ]) {
    const where = offThread ? ', the signatures checked off the thread (as serve does)' : '';
    describe(`${asPromises ? 'a store answering with promises' : 'a store answering at once'}${where}`, () => {
      it('a forged request is refused and leaves its nonce to the genuine one, which spends it', async () => {
        const { calls, verify } = world({ asPromises, offThread });
        expect(await verify(request('n1', { forged: true }))).toBe(AUTH_CODES.signature_invalid);
        expect(calls).toEqual([
          ['spend', 'n1-sig1'],
          ['release', 'n1-sig1'],
        ]);
        expect(await verify(request('n1'))).toBe('accepted');
        expect(await verify(request('n1'))).toBe(AUTH_CODES.signature_replayed);
      });

      it('a forged copy of a spent nonce is refused for its signature and forgets nothing', async () => {
        const { calls, verify } = world({ asPromises, offThread });
        expect(await verify(request('n2'))).toBe('accepted');
        calls.length = 0;
        expect(await verify(request('n2', { forged: true }))).toBe(AUTH_CODES.signature_invalid);
        expect(calls).toEqual([['spend', 'n2-sig1']]);
        expect(await verify(request('n2'))).toBe(AUTH_CODES.signature_replayed);
      });

      it('a refusal for key continuity forgets the nonce too', async () => {
        const { calls, verify } = world({ asPromises, offThread });
        expect(await verify(request('n3', { withA2: true }))).toBe(AUTH_CODES.key_continuity_required);
        expect(calls).toEqual([
          ['spend', 'n3-sig1'],
          ['release', 'n3-sig1'],
        ]);
      });

      it('two labels, the second forged: both nonces forgotten', async () => {
        const { calls, verify } = world({ asPromises, offThread });
        expect(await verify(request('n4', { twoLabels: true, forged: true }))).toBe(AUTH_CODES.signature_invalid);
        expect(calls).toEqual([
          ['spend', 'n4-sig1'],
          ['spend', 'n4-sig2'],
          ['release', 'n4-sig1'],
          ['release', 'n4-sig2'],
        ]);
        expect(await verify(request('n4', { twoLabels: true }))).toBe('accepted');
      });

      it('two labels, the second nonce spent before: a replay, and only the first forgotten when the request is refused', async () => {
        const { calls, verify } = world({ asPromises, offThread });
        expect(await verify(request('n5', { twoLabels: true }))).toBe('accepted');
        // Another request spends n6-sig2, then a forged request carries n6-sig1 and n6-sig2.
        expect(await verify(request('n6-sig2', { exact: true }))).toBe('accepted');
        calls.length = 0;
        expect(await verify(request('n6', { twoLabels: true, forged: true }))).toBe(AUTH_CODES.signature_invalid);
        expect(calls).toEqual([
          ['spend', 'n6-sig1'],
          ['spend', 'n6-sig2'],
          ['release', 'n6-sig1'],
        ]);
      });
    });
  }

  it('a refusal after the nonce check keeps the nonce spent: the card of a first sight unreachable', async () => {
    const { calls, verify } = world({ firstSightCardGone: true });
    expect(await verify(request('k1'))).toBe(AUTH_CODES.card_unreachable);
    expect(calls).toEqual([['spend', 'k1-sig1']]);
    expect(await verify(request('k1'))).toBe(AUTH_CODES.signature_replayed);
  });

  it('a store that cannot forget is asked only once the signatures verified', async () => {
    const { calls, verify } = world({ canForget: false });
    expect(await verify(request('m1', { forged: true }))).toBe(AUTH_CODES.signature_invalid);
    expect(await verify(request('m1', { withA2: true }))).toBe(AUTH_CODES.key_continuity_required);
    expect(calls).toEqual([]);
    expect(await verify(request('m1'))).toBe('accepted');
    expect(await verify(request('m1'))).toBe(AUTH_CODES.signature_replayed);
    expect(calls).toEqual([
      ['spend', 'm1-sig1'],
      ['spend', 'm1-sig1'],
    ]);
  });
});

describe('how long a nonce is kept', () => {
  it('a replay minutes later, while its signature is still valid, is refused', async () => {
    let now = kit.now;
    const ports = createMemoryPorts({ now: () => now }, createMemoryFetcher({ ...kit.docs() }), [registered]);
    const signed = asVerifierRequest(kit.request({ created: kit.now, expires: kit.now + 600, nonce: () => 'kept-1' }));
    expect((await verifyRequest(signed, ports, config)).ok).toBe(true);
    now += 300;
    expect(await verifyRequest(signed, ports, config)).toMatchObject({ ok: false, code: AUTH_CODES.signature_replayed });
  });

  it('and forgotten once its signature expired, past the clock skew', async () => {
    let now = kit.now;
    const ports = createMemoryPorts({ now: () => now }, createMemoryFetcher({ ...kit.docs() }), [registered]);
    const nonces = ports.nonces as MemoryNonceStore;
    const at = (created: number, nonce: string) => asVerifierRequest(kit.request({ created, expires: created + 60, nonce: () => nonce }));
    expect((await verifyRequest(at(now, 'gone-1'), ports, config)).ok).toBe(true);
    expect(nonces.size).toBe(1);
    now += 60 + 60 + 180;
    expect((await verifyRequest(at(now, 'gone-2'), ports, config)).ok).toBe(true);
    expect(nonces.size, 'the first nonce is forgotten').toBe(1);
  });
});

describe('a store out of reach while the signatures are checked', () => {
  function unreachable(): VerifierPorts {
    const base = createMemoryPorts({ now: () => kit.now }, createMemoryFetcher({ ...kit.docs() }), [registered]);
    const down = () => Promise.reject(new Error('the store is unreachable'));
    return { ...base, nonces: { spend: down, release: down } };
  }

  it('a forged request is still refused for its signature', async () => {
    const verdict = await verifyRequest(request('o1', { forged: true }), unreachable(), config);
    expect(verdict).toMatchObject({ ok: false, code: AUTH_CODES.signature_invalid });
  });

  it('a store failing later, while the registration is still being read, leaves no rejection unhandled', async () => {
    const base = createMemoryPorts({ now: () => kit.now }, createMemoryFetcher({ ...kit.docs() }), [registered]);
    const later = <T>(work: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(work()), 5));
    const ports: VerifierPorts = {
      ...base,
      nonces: { spend: () => new Promise((_, reject) => setImmediate(() => reject(new Error('the store went away')))), release: async () => undefined },
      registrations: { get: (url) => later(() => base.registrations.get(url)), put: (r) => base.registrations.put(r) },
    };
    await expect(verifyRequest(request('o3'), ports, config)).rejects.toThrow('the store went away');
  });

  it('a genuine request fails with the store', async () => {
    await expect(verifyRequest(request('o2'), unreachable(), config)).rejects.toThrow('the store is unreachable');
  });
});

describe('the signatures checked through the ed25519 port', () => {
  it('label by label in order: the first that does not verify refuses the request, and the labels after it are not checked', async () => {
    let script: boolean[] = [];
    let asked = 0;
    const ports: VerifierPorts = {
      ...createMemoryPorts({ now: () => kit.now }, createMemoryFetcher({ ...kit.docs() }), [registered]),
      ed25519: async () => {
        asked++;
        return script.shift()!;
      },
    };
    const run = async (nonce: string, answers: boolean[]) => {
      [script, asked] = [answers, 0];
      const verdict = await verifyRequest(request(nonce, { twoLabels: true }), ports, config);
      return { verdict: verdict.ok ? 'accepted' : `${verdict.code} ${JSON.stringify(verdict.body)}`, asked };
    };
    expect(await run('p1', [true, true])).toEqual({ verdict: 'accepted', asked: 2 });
    const first = await run('p2', [false, true]);
    expect(first.asked).toBe(1);
    expect(first.verdict).toMatch(new RegExp(`^${AUTH_CODES.signature_invalid} .*sig1`));
    const second = await run('p3', [true, false]);
    expect(second.asked).toBe(2);
    expect(second.verdict).toMatch(new RegExp(`^${AUTH_CODES.signature_invalid} .*sig2`));
  });
});
