import { describe, expect } from 'vitest';
import { adapterTests } from './adapter-tests.js';
import { ManualClock } from '../../src/purchase/testing/memory.js';
import type { PurchaseLock } from '../../src/purchase/machine/ports/purchase.js';
import type { CardRefusal, KeySetCacheEntry, VerifierPorts } from '../../src/verifier/ports.js';

type Stores = Omit<VerifierPorts, 'clock' | 'fetcher' | 'revocations'>;

/** The verifier's stores and the purchase lock of one adapter, fresh and empty, around `clock`. */
export interface VerifierStoresUnderTest extends Stores {
  readonly revocations: { isRevoked(jti: string): unknown; revoke(jti: string): unknown };
  readonly lock: PurchaseLock;
  close?(): Promise<void>;
}

export type VerifierStoresFactory = (clock: ManualClock) => Promise<VerifierStoresUnderTest>;

const NOW = 1_800_000_000;
const ALICE = 'https://agents.example/a/alice';
const BOB = 'https://agents.example/a/bob';

const keySet: KeySetCacheEntry = {
  ok: true,
  at: NOW,
  keys: [{ thumbprint: 'tp1', jwk: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'k1' } }],
};
const refusal: CardRefusal = { code: 'card_unreachable', description: 'answered 404', at: NOW };

/**
 * What every adapter of the verifier's stores must do, run over each (memory, Redis): nonces single use per agent
 * URL even under concurrent spends, the failure count over a sliding 60 s window, the key-set cache and card memory
 * read back as written, registrations, revocations, and the purchase lock.
 */
export function verifierStoreContract(name: string, open: VerifierStoresFactory, skip?: () => string | undefined): void {
  describe(`verifier stores: ${name}`, () => {
    const adapter = adapterTests(open, skip);
    const fresh = (clock = new ManualClock(NOW)) => adapter.fresh(clock);
    const test = adapter.test;

    test('spends a nonce once per agent URL', async () => {
      const { nonces } = await fresh();
      expect(await nonces.spend(ALICE, 'n1', NOW + 300)).toBe(true);
      expect(await nonces.spend(ALICE, 'n1', NOW + 300)).toBe(false);
      expect(await nonces.spend(BOB, 'n1', NOW + 300)).toBe(true);
      expect(await nonces.spend(ALICE, 'n2', NOW + 300)).toBe(true);
    });

    test('forgets a nonce it spent, for that agent URL only', async () => {
      const { nonces } = await fresh();
      expect(nonces.release, 'every adapter of ours can forget a nonce (src/verifier/nonces.ts)').toBeDefined();
      expect(await nonces.spend(ALICE, 'n1', NOW + 300)).toBe(true);
      expect(await nonces.spend(BOB, 'n1', NOW + 300)).toBe(true);
      await nonces.release?.(ALICE, 'n1');
      expect(await nonces.spend(ALICE, 'n1', NOW + 300), 'spent again once forgotten').toBe(true);
      expect(await nonces.spend(ALICE, 'n1', NOW + 300)).toBe(false);
      expect(await nonces.spend(BOB, 'n1', NOW + 300), "bob's is still spent").toBe(false);
    });

    test('accepts one of 20 concurrent spends of the same nonce', async () => {
      const { nonces } = await fresh();
      const spends = await Promise.all(Array.from({ length: 20 }, () => nonces.spend(ALICE, 'race', NOW + 300)));
      expect(spends.filter(Boolean)).toHaveLength(1);
    });

    test('counts failures per address over a sliding window', async () => {
      const { failures } = await fresh();
      for (const at of [NOW, NOW, NOW + 30]) await failures.record('192.0.2.1', at);
      expect(await failures.count('192.0.2.1', NOW + 30, 60)).toBe(3);
      expect(await failures.count('192.0.2.1', NOW + 59, 60)).toBe(3);
      expect(await failures.count('192.0.2.1', NOW + 60, 60), 'the first two left the window').toBe(1);
      expect(await failures.count('192.0.2.1', NOW + 90, 60)).toBe(0);
      expect(await failures.count('192.0.2.2', NOW + 30, 60)).toBe(0);
      await failures.record('192.0.2.1', NOW + 100);
      expect(await failures.count('192.0.2.1', NOW + 100, 60)).toBe(1);
    });

    test('reads back key sets and card refusals as cached, and nothing for another URL', async () => {
      const { keySets, cardRefusals } = await fresh();
      await keySets.set(`${ALICE}/.well-known/jwks.json`, keySet);
      const failed: KeySetCacheEntry = { ok: false, code: 'key_set_unreachable', description: 'timed out', at: NOW };
      await keySets.set('https://agents.example/a/bob/.well-known/jwks.json', failed);
      expect(await keySets.get(`${ALICE}/.well-known/jwks.json`)).toEqual(keySet);
      expect(await keySets.get('https://agents.example/a/bob/.well-known/jwks.json')).toEqual(failed);
      expect(await keySets.get('https://agents.example/a/carol/.well-known/jwks.json')).toBeUndefined();
      await cardRefusals.set(ALICE, refusal);
      expect(await cardRefusals.get(ALICE)).toEqual(refusal);
      expect(await cardRefusals.get('https://agents.example/a/bob')).toBeUndefined();
    });

    test('keeps registrations and revocations', async () => {
      const { registrations, revocations } = await fresh();
      expect(await registrations.get(ALICE)).toBeUndefined();
      await registrations.put({ agentUrl: ALICE, thumbprints: ['tp1'], registeredAt: NOW });
      await registrations.put({ agentUrl: ALICE, thumbprints: ['tp1', 'tp2'], registeredAt: NOW + 5 });
      expect(await registrations.get(ALICE)).toEqual({ agentUrl: ALICE, thumbprints: ['tp1', 'tp2'], registeredAt: NOW + 5 });
      expect(await revocations.isRevoked('jti-1')).toBe(false);
      await revocations.revoke('jti-1');
      expect(await revocations.isRevoked('jti-1')).toBe(true);
    });

    test('locks a buyer for one purchase at a time, and releases', async () => {
      const { lock } = await fresh();
      const release = await lock.acquire(ALICE);
      expect(release).toBeTypeOf('function');
      expect(await lock.acquire(ALICE)).toBeNull();
      const bob = await lock.acquire('https://agents.example/a/bob');
      expect(bob).toBeTypeOf('function');
      await release!();
      const again = await lock.acquire(ALICE);
      expect(again).toBeTypeOf('function');
      const racing = await Promise.all(Array.from({ length: 10 }, () => lock.acquire('https://agents.example/a/carol')));
      expect(racing.filter((r) => r !== null)).toHaveLength(1);
    });
  });
}
