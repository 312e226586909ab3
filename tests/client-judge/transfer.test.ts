import { describe, expect, it } from 'vitest';
import { judgeTransfer } from '../../src/client-judge/transfer.js';
import type { ObservedRequest } from '../../src/client-judge/types.js';
import { challengeEcho, createChallenge, expiresAtSeconds } from '../../src/purchase/wire/challenge.js';
import { serializeCredential } from '../../src/purchase/buyer/credential-write.js';
import { tempoChargeRequest, type TempoQuote } from '../../src/purchase/machine/tempo/quote.js';
import { quotedTransfer, signTransfer, type TransferShape } from '../../src/reference/client/transfer.js';
import { CASE_WALLET_KEY } from '../../src/scenarios/clients/cases.js';

const T0 = 1_800_000_000;
const QUOTE: TempoQuote = {
  amount: '5000000',
  currency: '0x20c0000000000000000000000000000000000001',
  recipient: '0x7e57000000000000000000000000000000000001',
  chainId: 42431,
  memo: `0x${'11'.repeat(32)}`,
};
const challenge = createChallenge({ realm: 'platform.test', method: 'tempo', request: tempoChargeRequest(QUOTE), createdAt: T0 });
const expiresAt = expiresAtSeconds(challenge);

async function paying(change: (shape: TransferShape) => TransferShape = (s) => s, payload?: Record<string, string>): Promise<ObservedRequest> {
  const { serialized, source } = await signTransfer(CASE_WALLET_KEY, change(quotedTransfer(QUOTE, expiresAt)));
  const value = serializeCredential({ challenge: challengeEcho(challenge), payload: payload ?? { type: 'transaction', signature: serialized }, source });
  return { method: 'POST', url: 'https://platform.test/api/mpp/credits', headers: [['payment-authorization', value]], body: new Uint8Array(0) };
}

describe('judgeTransfer: a stablecoin credential against the quote of the challenge it echoes (7.4)', () => {
  it('meets the rule with exactly one transferWithMemo of the quote, valid until the challenge expiry', async () => {
    expect(await judgeTransfer(await paying(), T0 + 1)).toMatchObject({ ok: true });
    // Valid for less time is still valid until the expiry.
    expect(await judgeTransfer(await paying((s) => ({ ...s, validBefore: s.validBefore - 60 })), T0 + 1)).toMatchObject({ ok: true });
  });

  it.each([
    ['one base unit short', (s: TransferShape) => ({ ...s, amount: s.amount - 1n }), 'wrong-amount'],
    ['to another address', (s: TransferShape) => ({ ...s, to: '0x7e57000000000000000000000000000000000002' as const }), 'wrong-recipient'],
    ['with another memo', (s: TransferShape) => ({ ...s, memo: `0x${'22'.repeat(32)}` as const }), 'wrong-memo'],
    ['valid past the challenge expiry', (s: TransferShape) => ({ ...s, validBefore: s.validBefore + 60 }), 'valid-after-expiry'],
  ])('breaks it with a transfer %s', async (_what, change, mismatch) => {
    const judged = await judgeTransfer(await paying(change), T0 + 1);
    expect(judged?.ok).toBe(false);
    expect(judged?.detail).toContain(`(${mismatch})`);
  });

  it('breaks it with a transfer already broadcast (payload.type hash)', async () => {
    const judged = await judgeTransfer(await paying(undefined, { type: 'hash', hash: `0x${'33'.repeat(32)}` }), T0 + 1);
    expect(judged).toMatchObject({ ok: false, detail: expect.stringContaining('payload.type hash is not admitted') });
  });

  it('judges nothing for a request without a stablecoin credential', async () => {
    const bare: ObservedRequest = { method: 'POST', url: 'https://platform.test/api/mpp/credits', headers: [], body: new Uint8Array(0) };
    expect(await judgeTransfer(bare, T0)).toBeUndefined();
    const card = serializeCredential({ challenge: { ...challengeEcho(challenge), method: 'stripe' }, payload: { spt: 'spt_test_settled_1' } });
    expect(await judgeTransfer({ ...bare, headers: [['payment-authorization', card]] }, T0)).toBeUndefined();
  });
});
