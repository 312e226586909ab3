import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import type { ChargeRecord } from '../../src/purchase/machine/ports/purchase.js';
import type { TransferRecord } from '../../src/purchase/machine/ports/stablecoin.js';
import { resumeTransferStep } from '../../src/purchase/machine/transfer/step.js';
import {
  FakeCardProcessor,
  FakeStablecoinNetwork,
  FixedWalletLocations,
  MemoryBuyerDirectory,
  MemoryCapCounters,
  MemoryFunding,
  MemoryPurchaseStore,
  MemorySaleStore,
  MemoryTransferStore,
  MemoryWalletCaps,
  ScriptedCallServer,
  SeededRandom,
} from '../../src/purchase/testing/index.js';

/*
 * The in-memory adapters the machine's tests and the reference's tests stand on: each fake keeps the promise its
 * doc comment makes, so a test that leans on it means what it says. One promise per test.
 */

const AMOUNT = { amount: '500', currency: 'usd' } as const;
const TX = '0x76aa' as Hex;
const TX_HASH = '0x2c4ad1f7e1d4e4ab9a1bc3cf2b1f6c6f1e0b4e0a5f3b2c1d0e9f8a7b6c5d4e3f' as Hex;
const WALLET = '0xAbCd000000000000000000000000000000000001' as Hex;

/** Lets the event loop turn `n` times: a deterministic bound on "resolves soon", never a sleep. */
async function turns(n: number): Promise<'stuck'> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return 'stuck';
}

const saleCall = (challengeId: string | null) =>
  ({ resource: '/api/priced/echo', account: null, challengeId, body: new Uint8Array(), headers: {} }) as unknown as Parameters<ScriptedCallServer['serve']>[0];

describe('MemoryBuyerDirectory', () => {
  it('gives every agent an owner unless it is listed as ownerless', () => {
    const directory = new MemoryBuyerDirectory();
    expect(directory.hasOwner('https://buyer.agent.example/')).toBe(true);
    directory.ownerless.add('https://buyer.agent.example/');
    expect(directory.hasOwner('https://buyer.agent.example/')).toBe(false);
  });
});

describe('SeededRandom', () => {
  it('gives the same bytes for the same seed and different bytes for another seed', () => {
    expect(new SeededRandom('a').bytes(8)).toEqual(new SeededRandom('a').bytes(8));
    expect(new SeededRandom('a').bytes(8)).not.toEqual(new SeededRandom('b').bytes(8));
    expect(new SeededRandom().bytes(8)).toEqual(new SeededRandom('seed').bytes(8));
  });

  it('fills a length beyond one 32-byte block with no zero tail', () => {
    const bytes = new SeededRandom().bytes(40);
    expect(bytes).toHaveLength(40);
    expect(bytes.subarray(32).some((b) => b !== 0)).toBe(true);
  });
});

describe('FakeCardProcessor', () => {
  it('throws before creating any charge for a scripted fault before the processor (created: false)', () => {
    const processor = new FakeCardProcessor([{ reply: 'throw', created: false }]);
    expect(() => processor.charge('spt_1', AMOUNT, 'k1')).toThrow('card processor unreachable');
    expect(processor.chargeFor('k1')).toBeUndefined();
  });

  it('creates a processing charge for a fault after the processor was reached', () => {
    const processor = new FakeCardProcessor(['throw']);
    expect(() => processor.charge('spt_1', AMOUNT, 'k1')).toThrow('card processor connection reset');
    expect(processor.chargeFor('k1')).toMatchObject({ chargeId: 'pi_1', state: 'processing' });
  });

  it('answers a settled charge by default, and unknown for a charge id it never made', () => {
    const processor = new FakeCardProcessor();
    expect(processor.charge('spt_1', AMOUNT, 'k1')).toEqual({ outcome: 'settled', chargeId: 'pi_1' });
    expect(processor.status('pi_9')).toEqual({ outcome: 'unknown', chargeId: 'pi_9' });
  });

  it('refuses to resolve a charge it never made', () => {
    expect(() => new FakeCardProcessor().resolve('pi_9', 'settled')).toThrow('no charge pi_9');
  });

  it('finds no charge under a key never used', () => {
    expect(new FakeCardProcessor().chargeFor('nothing')).toBeUndefined();
  });

  it('places a card in the US unless told otherwise', () => {
    expect(new FakeCardProcessor().instrumentCountry('spt_1')).toBe('US');
  });
});

describe('MemoryPurchaseStore', () => {
  const record = (challengeId: string, token: string) =>
    ({ challengeId, token, idempotencyKey: `mpp_${challengeId}`, buyer: 'https://a.example/', state: 'sent', sentAt: 0 }) as unknown as ChargeRecord;

  it("answers a credential's records as chargeOf and unreconciledOf do, and no unreconciled payment without a token", () => {
    const store = new MemoryPurchaseStore();
    store.openCharge(record('ch_1', 'spt_a'));
    store.recordUnreconciled({ chargeId: 'pi_9', token: 'spt_b', refund: 'issued' });
    expect(store.credentialRecords('ch_1', 'spt_b')).toEqual({
      charge: record('ch_1', 'spt_a'),
      unreconciled: { chargeId: 'pi_9', token: 'spt_b', refund: 'issued' },
    });
    expect(store.credentialRecords('ch_2', 'spt_a')).toEqual({ charge: undefined, unreconciled: undefined });
    expect(store.credentialRecords('ch_1', undefined)).toEqual({ charge: record('ch_1', 'spt_a'), unreconciled: undefined });
  });

  it('settles a charge and then grants, as updateCharge and grant; a failed grant leaves the charge settled, a failed update grants nothing', () => {
    const store = new MemoryPurchaseStore();
    const grant = (challengeId: string) =>
      ({
        challengeId,
        buyer: 'https://a.example/',
        packId: 'p',
        creditNano: '5',
        chargeId: 'pi_1',
        method: 'stripe',
        termsVersion: 'v',
        grantedAt: 0,
      }) as const;
    store.openCharge(record('ch_1', 'spt_a'));
    store.openCharge(record('ch_2', 'spt_b'));
    const settled = { ...record('ch_1', 'spt_a'), state: 'settled', chargeId: 'pi_1' };
    expect(store.settleAndGrant('ch_1', 'pi_1', grant('ch_1'))).toEqual({
      record: settled,
      credited: { granted: true, grant: grant('ch_1'), balanceNano: '5' },
    });
    expect(store.settleAndGrant('ch_1', undefined, grant('ch_1'))).toEqual({
      record: settled,
      credited: { granted: false, grant: grant('ch_1'), balanceNano: '5' },
    });
    store.failGrants = 1;
    expect(store.settleAndGrant('ch_2', undefined, grant('ch_2'))).toEqual({ record: { ...record('ch_2', 'spt_b'), state: 'settled' } });
    expect(store.grantOf('ch_2')).toBeUndefined();
    expect(() => store.settleAndGrant('ch_9', 'pi_9', grant('ch_9'))).toThrow('no charge under challenge ch_9');
    expect(store.grantOf('ch_9')).toBeUndefined();
    expect(store.balance('https://a.example/')).toBe('5');
  });
});

describe('MemorySaleStore', () => {
  it('refuses to move a sale it does not hold', () => {
    expect(() => new MemorySaleStore().move('ch_none', ['open'] as never, 'served' as never)).toThrow('no sale under challenge ch_none');
  });
});

describe('MemoryFunding', () => {
  it('answers a key seen before with its hold while held, and insufficient once spent', () => {
    const funding = new MemoryFunding(() => '100');
    const first = funding.hold('p', '60', 'k');
    expect(first).toEqual({ held: true, holdId: 'hold_1' });
    expect(funding.hold('p', '60', 'k')).toEqual({ held: true, holdId: 'hold_1' });
    funding.spend('hold_1');
    expect(funding.hold('p', '60', 'k')).toEqual({ held: false, reason: 'insufficient' });
  });

  it('numbers holds upwards', () => {
    const funding = new MemoryFunding(() => '100');
    expect(funding.hold('p', '10', 'a')).toEqual({ held: true, holdId: 'hold_1' });
    expect(funding.hold('p', '10', 'b')).toEqual({ held: true, holdId: 'hold_2' });
  });

  it('counts credited less spent less held as available, and a released hold as available again', () => {
    const funding = new MemoryFunding(() => '100');
    funding.hold('p', '30', 'a');
    funding.spend('hold_1');
    funding.hold('p', '20', 'b');
    expect(funding.available('p')).toBe('50');
    funding.release('hold_2');
    expect(funding.available('p')).toBe('70');
    expect(funding.total('p', 'released')).toBe(20n);
  });

  it('refuses to end a hold it never made', () => {
    expect(() => new MemoryFunding(() => '0').spend('hold_9')).toThrow('no hold hold_9');
  });
});

describe('MemoryCapCounters', () => {
  it('never counts below zero when a counter is given back more often than taken', () => {
    const caps = new MemoryCapCounters();
    caps.release(['principal'], 0);
    expect(caps.count('principal', 0)).toBe(0);
  });
});

describe('ScriptedCallServer', () => {
  it('serves a slow call once the event loop has turned', async () => {
    const server = new ScriptedCallServer(['slow']);
    const served = await Promise.race([server.serve(saleCall('ch_1')), turns(5)]);
    expect(served).toMatchObject({ outcome: 'served', response: { status: 200 } });
  });

  it('lets a request already in flight go on while a slow call runs', async () => {
    const server = new ScriptedCallServer(['slow']);
    let settled = false;
    const slow = server.serve(saleCall('ch_1')).then(() => {
      settled = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    await slow;
    expect(settled).toBe(true);
  });

  it('answers a call that is not slow without the event loop turning', async () => {
    const microtasks = async (n: number): Promise<'stuck'> => {
      for (let i = 0; i < n; i += 1) await Promise.resolve();
      return 'stuck';
    };
    expect(await Promise.race([new ScriptedCallServer().serve(saleCall('ch_1')), microtasks(20)])).toMatchObject({ outcome: 'served' });
  });

  it('serves 200 with {"served": n} as JSON by default', async () => {
    const result = await new ScriptedCallServer().serve(saleCall('ch_1'));
    expect(result).toMatchObject({ outcome: 'served', response: { status: 200, headers: { 'content-type': 'application/json' } } });
    if (result.outcome === 'served') expect(JSON.parse(new TextDecoder().decode(result.response.body))).toEqual({ served: 1 });
  });

  it('counts the calls served under one challenge only', async () => {
    const server = new ScriptedCallServer();
    await server.serve(saleCall('ch_1'));
    await server.serve(saleCall('ch_2'));
    await server.serve(saleCall('ch_1'));
    expect(server.servedUnder('ch_1')).toBe(2);
    expect(server.servedUnder('ch_3')).toBe(0);
  });
});

describe('FakeStablecoinNetwork', () => {
  it('records each broadcast and each status read, in order', () => {
    const network = new FakeStablecoinNetwork();
    const { hash } = network.broadcast(TX);
    network.status(hash);
    expect(network.calls).toEqual([
      { kind: 'broadcast', arg: TX },
      { kind: 'status', arg: hash },
    ]);
  });

  it('keeps a transfer pending for the reads it was broadcast with, however often it is broadcast again', () => {
    const network = new FakeStablecoinNetwork();
    network.pendingReads = 1;
    const { hash } = network.broadcast(TX);
    expect(network.status(hash)).toBe('pending');
    network.broadcast(TX);
    expect(network.status(hash)).toBe('settled');
  });

  it('ends a broadcast transfer on resolve, whatever the case of its hash, and refuses one never broadcast', () => {
    const network = new FakeStablecoinNetwork();
    network.pendingReads = 3;
    const { hash } = network.broadcast(TX);
    network.resolve(hash.toUpperCase().replace('0X', '0x') as Hex, 'failed');
    expect(network.status(hash)).toBe('failed');
    expect(() => network.resolve(TX_HASH, 'settled')).toThrow(`no transfer ${TX_HASH}`);
  });
});

function transferRecord(overrides: Partial<TransferRecord> = {}): TransferRecord {
  return {
    challengeId: 'ch_1',
    hash: TX_HASH,
    serialized: TX,
    wallet: WALLET,
    buyer: 'https://buyer.agent.example/',
    termsVersion: '2026-07-31',
    packId: 'mpp_5',
    price: { amount: '5000000', currency: '0x20c0000000000000000000000000000000000000' },
    creditNano: '5000000000',
    state: 'unsent',
    validBefore: 1_789_733_100,
    ...overrides,
  } as TransferRecord;
}

describe('MemoryTransferStore', () => {
  it('tells a second record under the same challenge it clashes on the challenge', () => {
    const store = new MemoryTransferStore();
    store.openTransfer(transferRecord());
    expect(store.openTransfer(transferRecord({ hash: '0x01' as Hex }))).toEqual({ opened: false, clash: 'challenge', existing: transferRecord() });
  });

  it('finds no transfer under a hash it never recorded', () => {
    expect(new MemoryTransferStore().transferByHash(TX_HASH)).toBeUndefined();
  });

  it('refuses to update a transfer it does not hold', () => {
    expect(() => new MemoryTransferStore().updateTransfer('ch_none', 'settled')).toThrow('no transfer under challenge ch_none');
  });

  it('lists every record it holds', () => {
    const store = new MemoryTransferStore();
    store.openTransfer(transferRecord());
    expect(store.all()).toEqual([transferRecord()]);
  });
});

describe('MemoryWalletCaps', () => {
  it("counts a transfer once by its hash in any case, on the wallet's total in any case", () => {
    const caps = new MemoryWalletCaps();
    expect(caps.count(WALLET, 0, TX_HASH, '60', '100')).toBe('counted');
    expect(caps.count(WALLET, 0, TX_HASH.toUpperCase().replace('0X', '0x') as Hex, '60', '100')).toBe('counted');
    expect(caps.totalOf(WALLET.toLowerCase() as Hex, 0)).toBe('60');
    expect(caps.count(WALLET.toLowerCase() as Hex, 0, '0x02' as Hex, '60', '100')).toBe('over-cap');
  });
});

describe('a transfer whose network cannot be read (7.4)', () => {
  const unreachable = () => {
    const network = new FakeStablecoinNetwork();
    network.unreachable = true;
    return { network, transfers: new MemoryTransferStore(), walletCaps: new MemoryWalletCaps(), locations: new FixedWalletLocations() };
  };

  it('is unavailable (tempo_unavailable) when it was never broadcast', async () => {
    const record = transferRecord({ state: 'unsent', validBefore: 100 });
    expect(await resumeTransferStep(record, unreachable(), 200)).toEqual({ kind: 'unavailable', record });
  });

  it('is pending (tempo_settlement_pending) once it was broadcast', async () => {
    const record = transferRecord({ state: 'broadcast' });
    expect(await resumeTransferStep(record, unreachable(), 200)).toEqual({ kind: 'pending', record });
  });
});
