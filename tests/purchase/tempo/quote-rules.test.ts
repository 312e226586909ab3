import { describe, expect, it } from 'vitest';
import { readTempoPayload, tempoChargeRequest, tempoQuoteOf } from '../../../src/purchase/machine/tempo/index.js';

/*
 * A stablecoin challenge's request (7.4, the tempo method: amount, currency, recipient, methodDetails.chainId and
 * memo) and a stablecoin credential's payload, read one member at a time; values written out by hand.
 */

const TOKEN = '0x20c0000000000000000000000000000000000000';
const DEPOSIT = '0x742d35cc6634c0532925a3b844bc9e7595f8fe00';
const MEMO = `0x${'ab'.repeat(32)}`;
const request = (members: Record<string, unknown> = {}, details: Record<string, unknown> = {}) => ({
  amount: '250000',
  currency: TOKEN,
  recipient: DEPOSIT,
  methodDetails: { chainId: 4217, memo: MEMO, supportedModes: ['pull'], ...details },
  ...members,
});

describe('the quote of a stablecoin request (7.4 tempo)', () => {
  it('reads a well-formed request', () => {
    expect(tempoQuoteOf(request())).toEqual({ ok: true, quote: { amount: '250000', currency: TOKEN, recipient: DEPOSIT, chainId: 4217, memo: MEMO } });
  });

  it('refuses methodDetails that are not an object', () => {
    expect(tempoQuoteOf({ ...request(), methodDetails: [4217] })).toEqual({ ok: false, detail: 'request.methodDetails is not an object' });
  });

  it.each([
    ['an amount with a leading zero', request({ amount: '0250' }), /^amount /],
    ['a currency that is not an address', request({ currency: '0x20c0' }), /^currency /],
    ['a currency that is not a string', request({ currency: 7 }), /^currency /],
    ['a currency wrapped in an array', request({ currency: [TOKEN] }), /^currency /],
    ['a recipient that is not an address', request({ recipient: 'deposit' }), /^recipient /],
    ['a recipient that is not a string', request({ recipient: null }), /^recipient /],
    ['a recipient wrapped in an array', request({ recipient: [DEPOSIT] }), /^recipient /],
    ['a chain id of zero', request({}, { chainId: 0 }), /^chainId /],
    ['a negative chain id', request({}, { chainId: -1 }), /^chainId /],
    ['a fractional chain id', request({}, { chainId: 4217.5 }), /^chainId /],
    ['a chain id written as a string', request({}, { chainId: '4217' }), /^chainId /],
    ['a memo shorter than 32 bytes', request({}, { memo: '0xabcd' }), /^memo /],
  ])('refuses %s, naming the member', (_name, body, names) => {
    const read = tempoQuoteOf(body);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.detail).toMatch(names);
  });

  it('refuses to write a request from a quote that is not well formed', () => {
    expect(() => tempoChargeRequest({ amount: '250000', currency: TOKEN, recipient: DEPOSIT, chainId: 0, memo: MEMO as `0x${string}` })).toThrow(TypeError);
  });
});

describe('the payload of a stablecoin credential (7.4 tempo)', () => {
  it('admits a signed transaction', () => {
    expect(readTempoPayload({ type: 'transaction', signature: '0x76ab' })).toEqual({ kind: 'transaction', serialized: '0x76ab' });
  });

  it.each(['hash', 'proof'])('does not admit payload.type %s, and says to send a transaction instead', (type) => {
    const read = readTempoPayload({ type, signature: '0x76ab' });
    expect(read.kind).toBe('not-admitted');
    if (read.kind === 'not-admitted') expect(read.detail).toMatch(new RegExp(`payload.type ${type} is not admitted`));
  });

  it('does not admit a payload with no type, naming the type it needs', () => {
    const read = readTempoPayload({ signature: '0x76ab' });
    expect(read.kind === 'not-admitted' && read.detail).toBe('payload.type must be transaction, not null');
  });

  it.each([
    ['a signature that is not a string', 7],
    ['an empty signature', ''],
    ['no signature', undefined],
  ])('does not admit %s', (_name, signature) => {
    expect(readTempoPayload({ type: 'transaction', ...(signature === undefined ? {} : { signature }) }).kind).toBe('not-admitted');
  });
});
