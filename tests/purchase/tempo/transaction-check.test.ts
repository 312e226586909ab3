import { describe, expect, it } from 'vitest';
import { encodeFunctionData, keccak256 } from 'viem';
import { Abis } from 'viem/tempo';
import {
  checkTempoTransaction,
  memoOf,
  readTempoPayload,
  tempoChargeRequest,
  tempoQuoteOf,
  tempoTransactionHash,
  type TempoQuote,
  type TransactionMismatch,
} from '../../../src/purchase/machine/tempo/index.js';
import { TEMPO_PAYLOAD_TYPES } from '../../../src/spec/payments.js';
import { T0 } from '../machine/helpers.js';
import {
  AMOUNT,
  CHAIN_ID,
  DEPOSIT,
  OTHER_ADDRESS,
  OTHER_TOKEN,
  TOKEN,
  signTransfer,
  sponsor,
  transferWithMemoData,
  wallet,
  type TransferShape,
} from './helpers.js';

const MEMO = memoOf(new Uint8Array(32).fill(7));
const quote: TempoQuote = { amount: AMOUNT, currency: TOKEN, recipient: DEPOSIT, chainId: CHAIN_ID, memo: MEMO };
const window = { expiresAt: T0 + 300, now: T0 };

async function mismatchOf(shape: TransferShape): Promise<TransactionMismatch | 'ok'> {
  const check = await checkTempoTransaction(await signTransfer(quote, shape), quote, window);
  return check.ok ? 'ok' : check.mismatch;
}

describe('the stablecoin request', () => {
  it('quotes amount in base units, token as currency, deposit as recipient, chain, memo and pull mode, and reads back', () => {
    const request = tempoChargeRequest(quote);
    expect(request).toEqual({
      amount: AMOUNT,
      currency: TOKEN,
      recipient: DEPOSIT,
      methodDetails: { chainId: CHAIN_ID, memo: MEMO, supportedModes: ['pull'] },
    });
    expect(tempoQuoteOf(request)).toEqual({ ok: true, quote });
  });

  it('names the member that is wrong', () => {
    expect(tempoQuoteOf({ ...tempoChargeRequest(quote), amount: '5.00' })).toEqual({ ok: false, detail: 'amount is not a decimal integer of base units' });
    expect(tempoQuoteOf({ ...tempoChargeRequest(quote), methodDetails: { chainId: CHAIN_ID, memo: '0x12' } })).toEqual({
      ok: false,
      detail: 'memo is not bytes32 hex',
    });
    expect(() => memoOf(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});

describe('the payload', () => {
  it('admits payload.type transaction only', () => {
    expect(readTempoPayload({ type: TEMPO_PAYLOAD_TYPES.transaction, signature: '0x76aa' })).toEqual({ kind: 'transaction', serialized: '0x76aa' });
    for (const type of [TEMPO_PAYLOAD_TYPES.hash, TEMPO_PAYLOAD_TYPES.proof, 'other']) {
      const read = readTempoPayload({ type, hash: '0x00', signature: '0x76aa' });
      expect(read.kind).toBe('not-admitted');
      expect(read.kind === 'not-admitted' && read.detail).toContain(`payload.type`);
    }
    expect(readTempoPayload({ type: TEMPO_PAYLOAD_TYPES.transaction })).toMatchObject({
      kind: 'not-admitted',
      detail: expect.stringContaining('payload.signature'),
    });
  });
});

describe('a real signed Tempo transaction (viem)', () => {
  it('is admitted when it pays the quote exactly: hash, canonical bytes, recovered wallet, validBefore', async () => {
    const serialized = await signTransfer(quote);
    expect(serialized.startsWith('0x76')).toBe(true);
    const check = await checkTempoTransaction(serialized, quote, window);
    expect(check).toEqual({ ok: true, transfer: { hash: keccak256(serialized), serialized, wallet: wallet.address.toLowerCase(), validBefore: T0 + 300 } });
    expect(await tempoTransactionHash(serialized)).toBe(keccak256(serialized));
  });

  it('matches addresses and memo case-insensitively', async () => {
    const upper = { ...quote, recipient: DEPOSIT.toUpperCase().replace('0X', '0x') as `0x${string}` };
    expect((await checkTempoTransaction(await signTransfer(quote), upper, window)).ok).toBe(true);
  });

  it.each<[string, TransferShape, TransactionMismatch]>([
    ['wrong amount', { amount: BigInt(AMOUNT) - 1n }, 'wrong-amount'],
    ['more than the amount', { amount: BigInt(AMOUNT) + 1n }, 'wrong-amount'],
    ['wrong recipient', { to: OTHER_ADDRESS }, 'wrong-recipient'],
    ['wrong memo', { memo: memoOf(new Uint8Array(32).fill(8)) }, 'wrong-memo'],
    ['wrong token', { token: OTHER_TOKEN }, 'wrong-token'],
    ['two transfers', { extraCalls: [{ to: TOKEN, data: transferWithMemoData(DEPOSIT, BigInt(AMOUNT), MEMO) }] }, 'not-one-call'],
    ['a fee payer co-signed (sponsored)', { feePayer: sponsor }, 'fee-payer'],
    ['a fee payer asked for (0x78 hand-off)', { feePayer: true }, 'fee-payer'],
    ['validBefore after the challenge expiry', { validBefore: T0 + 301 }, 'valid-after-expiry'],
    ['no validBefore', { validBefore: null }, 'no-expiry'],
    ['validBefore already passed', { validBefore: T0 }, 'transaction-expired'],
    ['another chain', { chainId: 42431 }, 'wrong-chain'],
  ])('refuses %s', async (_name, shape, mismatch) => {
    expect(await mismatchOf(shape)).toBe(mismatch);
  });

  it('refuses a plain transfer (no memo) as not transferWithMemo', async () => {
    const data = encodeFunctionData({ abi: Abis.tip20, functionName: 'transfer', args: [DEPOSIT, BigInt(AMOUNT)] });
    const serialized = await wallet.signTransaction(
      {
        chainId: CHAIN_ID,
        calls: [{ to: TOKEN, data }],
        nonce: 0,
        nonceKey: 1n,
        gas: 1n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
        validBefore: T0 + 300,
      } as never,
      {
        serializer: (await import('viem/tempo')).Transaction.serialize as never,
      },
    );
    const check = await checkTempoTransaction(serialized, quote, window);
    expect(check).toMatchObject({ ok: false, mismatch: 'not-transfer-with-memo', detail: 'the call is transfer, not transferWithMemo' });
  });

  it('refuses an unsigned transaction', async () => {
    const { Transaction } = await import('viem/tempo');
    const unsigned = await Transaction.serialize({
      chainId: CHAIN_ID,
      calls: [{ to: TOKEN, data: transferWithMemoData(DEPOSIT, BigInt(AMOUNT), MEMO) }],
      validBefore: T0 + 300,
    } as never);
    expect(await checkTempoTransaction(unsigned, quote, window)).toMatchObject({ ok: false, mismatch: 'unsigned' });
  });

  it('refuses an ordinary EIP-1559 transaction as not Tempo', async () => {
    const eip1559 = await wallet.signTransaction({
      type: 'eip1559',
      chainId: CHAIN_ID,
      to: TOKEN,
      data: transferWithMemoData(DEPOSIT, BigInt(AMOUNT), MEMO),
      nonce: 0,
      gas: 1n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    });
    expect(await checkTempoTransaction(eip1559, quote, window)).toMatchObject({ ok: false, mismatch: 'not-tempo' });
  });

  it.each([
    ['garbage after the type byte', '0x76deadbeef', 'undecodable'],
    ['truncated', 'truncate', 'undecodable'],
    ['not hex', 'hello', 'not-hex'],
    ['odd hex', '0x76f', 'not-hex'],
  ])('refuses %s, naming why', async (_name, text, mismatch) => {
    const value = text === 'truncate' ? (await signTransfer(quote)).slice(0, 120) : text;
    const check = await checkTempoTransaction(value, quote, window);
    expect(check).toMatchObject({ ok: false, mismatch });
    expect(check.ok === false && check.detail).toBeTruthy();
    expect(await tempoTransactionHash(value)).toBeUndefined();
  });

  it('names what is wrong in the detail', async () => {
    const check = await checkTempoTransaction(await signTransfer(quote, { amount: 1n }), quote, window);
    expect(check).toEqual({ ok: false, mismatch: 'wrong-amount', detail: `the transfer moves 1 base units; the challenge quotes ${AMOUNT}` });
  });
});
