import { Challenge, Credential } from 'mppx';
import { tempo as mppxTempoClient } from 'mppx/client';
import { Methods as MppxTempoMethods } from 'mppx/tempo';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, custom } from 'viem';
import { Transaction } from 'viem/tempo';
import { tempo as tempoChain } from 'viem/tempo/chains';
import { jcsBase64url } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, PAYMENT_PROBLEMS, TEMPO_PAYLOAD_TYPES } from '../../../src/spec/payments.js';
import { T0, VERSION, oneChallenge } from '../machine/helpers.js';
import { CHAIN_ID, TempoWorld, expectFresh402, quoteOf, wallet } from './helpers.js';

/**
 * A viem client for the mppx Tempo client that answers the few RPC reads it makes to fill a transaction
 * (fees, gas, chain id) in process: nothing leaves the machine. eth_fillTransaction is refused, so viem fills
 * the transaction from the other reads.
 */
function offlineClient() {
  const answers: Readonly<Record<string, unknown>> = {
    eth_chainId: `0x${CHAIN_ID.toString(16)}`,
    eth_getTransactionCount: '0x0',
    eth_estimateGas: '0x30000',
    eth_maxPriorityFeePerGas: '0x1',
    eth_gasPrice: '0x4a817c800',
    eth_getBlockByNumber: { baseFeePerGas: '0x4a817c800', number: '0x1', timestamp: '0x0', hash: `0x${'00'.repeat(32)}`, transactions: [] },
  };
  const transport = custom({
    async request({ method }: { method: string }) {
      if (method in answers) return answers[method];
      throw new Error(`offline: ${method} is not answered`);
    },
  });
  return createClient({ chain: tempoChain, transport, account: wallet });
}

describe('mppx reads our stablecoin challenge', () => {
  it('Challenge.deserialize parses it (with and without the tempo charge schema), and re-serialising reproduces our exact request', async () => {
    const world = new TempoWorld();
    const answer = await world.decide({ [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo });
    const header = answer.headers[HEADERS.wwwAuthenticate]!;
    const ours = oneChallenge(answer);
    const requestB64 = jcsBase64url(ours.request);
    for (const parsed of [Challenge.deserialize(header), Challenge.deserialize(header, { methods: [MppxTempoMethods.charge] } as never)]) {
      expect(parsed.id).toBe(ours.id);
      expect(parsed.method).toBe(PAYMENT_METHODS.tempo);
      expect(parsed.request).toEqual(ours.request);
      expect(Challenge.serialize(parsed)).toContain(`request="${requestB64}"`);
      expect(Challenge.credentialHeader(parsed)).toBe(PAYMENT_CREDENTIAL_HEADER);
    }
  });
});

describe("a credential mppx 0.11's Tempo client builds for our challenge", () => {
  beforeEach(() => {
    // mppx reads Date.now() for the transaction's validBefore; pin it to the machine's clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0 * 1000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a signed 0x76 transaction paying amount and deposit, but with mppx attribution memo instead of ours: refused with a fresh challenge and never broadcast', async () => {
    const world = new TempoWorld();
    const answer = await world.decide({ [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo });
    const challenge = Challenge.deserialize(answer.headers[HEADERS.wwwAuthenticate]!);
    const method = mppxTempoClient.charge({ account: wallet, getClient: () => offlineClient() } as never) as unknown as {
      createCredential(input: { challenge: unknown; context: unknown }): Promise<string>;
    };
    const serialized = await method.createCredential({ challenge, context: {} });
    const credential = Credential.deserialize(serialized) as { payload: { type: string; signature: `0x76${string}` } };
    expect(credential.payload.type).toBe(TEMPO_PAYLOAD_TYPES.transaction);
    const tx = Transaction.deserialize(credential.payload.signature);
    expect(tx.from?.toLowerCase()).toBe(wallet.address.toLowerCase());

    const refused = await world.decide({ [HEADERS.paymentAuthorization]: serialized, [HEADERS.termsAccepted]: VERSION });
    expectFresh402(refused, PAYMENT_PROBLEMS.verificationFailed);
    // 7.4: the transfer must carry "that memo" (the one the challenge quotes); mppx 0.11 writes its own.
    expect(refused.body.detail).toContain('(wrong-memo)');
    expect(refused.body.detail).toContain(quoteOf(oneChallenge(answer)).memo);
    world.expectNothingBroadcast();
    expect(world.balance()).toBe('0');
  });
});
