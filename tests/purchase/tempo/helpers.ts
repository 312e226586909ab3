import { expect } from 'vitest';
import { encodeFunctionData, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { Abis, Transaction } from 'viem/tempo';
import {
  credentialFor,
  decidePurchase,
  decodeBase64urlJson,
  isGranted,
  serializeCredential,
  type PaymentChallenge,
  type PurchaseConfig,
  type PurchaseOutcome,
  type PurchasePorts,
  type PurchaseRequest,
  type StablecoinOffer,
} from '../../../src/purchase/index.js';
import {
  FakeCardProcessor,
  FakeStablecoinNetwork,
  FixedWalletLocations,
  ManualClock,
  MemoryBuyerDirectory,
  MemoryPurchaseLock,
  MemoryPurchaseStore,
  MemoryTransferStore,
  MemoryWalletCaps,
  SeededRandom,
} from '../../../src/purchase/testing/index.js';
import { tempoQuoteOf, type TempoQuote } from '../../../src/purchase/machine/tempo/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import {
  PAYMENT_METHODS,
  TEMPO_PAYLOAD_MEMBERS,
  TEMPO_PAYLOAD_TYPES,
  TIP20_TRANSFER_WITH_MEMO,
  type PaymentProblemRecord,
} from '../../../src/spec/payments.js';
import type { PurchaseErrorRecord } from '../../../src/spec/types.js';
import {
  BUYER,
  T0,
  TERMS_LINK,
  VERSION,
  baseConfig,
  challengeCount,
  expectFresh402 as expectPackFresh402,
  oneChallenge,
  signedBuyerRequest,
} from '../machine/helpers.js';

/** Fixed test keys (the well-known development keys 1 and 2); never funded anywhere that matters. */
const WALLET_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SPONSOR_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const wallet: PrivateKeyAccount = privateKeyToAccount(WALLET_KEY);
export const sponsor: PrivateKeyAccount = privateKeyToAccount(SPONSOR_KEY);
export const TOKEN: Hex = '0x20c0000000000000000000000000000000000000';
export const OTHER_TOKEN: Hex = '0x20c0000000000000000000000000000000000001';
export const DEPOSIT: Hex = '0x742d35cc6634c0532925a3b844bc9e7595f8fe00';
export const OTHER_ADDRESS: Hex = '0x1111111111111111111111111111111111111111';
export const CHAIN_ID = 4217;
/** The pack's price in base units (5 tokens of 6 decimals). */
export const AMOUNT = '5000000';

export function stablecoinOffer(overrides: Partial<StablecoinOffer> = {}): StablecoinOffer {
  return { chainId: CHAIN_ID, token: TOKEN, depositAddress: DEPOSIT, amount: AMOUNT, sellsToUnplaceableBuyers: false, ...overrides };
}

/** Every port in memory, transfers offered; the test wallet is placed in the US unless a test says otherwise. */
export class TempoWorld {
  readonly clock = new ManualClock(T0);
  readonly store = new MemoryPurchaseStore();
  readonly processor = new FakeCardProcessor();
  readonly network = new FakeStablecoinNetwork();
  readonly transfers = new MemoryTransferStore();
  readonly caps = new MemoryWalletCaps();
  readonly locations = new FixedWalletLocations();
  readonly ports: PurchasePorts;
  config: PurchaseConfig;

  constructor(stablecoin: Partial<StablecoinOffer> | null = {}, config: Partial<PurchaseConfig> = {}) {
    this.ports = {
      clock: this.clock,
      random: new SeededRandom('tempo'),
      processor: this.processor,
      store: this.store,
      lock: new MemoryPurchaseLock(),
      buyers: new MemoryBuyerDirectory(),
      stablecoin: { network: this.network, transfers: this.transfers, walletCaps: this.caps, locations: this.locations },
    };
    this.config = baseConfig({ ...(stablecoin === null ? {} : { stablecoin: stablecoinOffer(stablecoin) }), ...config });
    this.locations.place(wallet.address, 'US');
  }

  request(headers: Record<string, string>, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): PurchaseRequest {
    return signedBuyerRequest(this.clock.now(), headers, options);
  }

  decide(headers: Record<string, string> = {}, options: Partial<Omit<PurchaseRequest, 'headers'>> = {}): Promise<PurchaseOutcome> {
    return decidePurchase(this.request(headers, options), this.ports, this.config);
  }

  /** Asks for a stablecoin challenge (Service-Payment-Methods: tempo) and returns it. */
  async challenge(): Promise<PaymentChallenge> {
    const answer = await this.decide({ [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo });
    const challenge = oneChallenge(answer);
    expect(challenge.method).toBe(PAYMENT_METHODS.tempo);
    return challenge;
  }

  balance(buyer = BUYER): string {
    return this.store.balance(buyer);
  }

  /** Nothing ever reached the network. */
  expectNothingBroadcast(): void {
    expect(this.network.broadcasts).toEqual([]);
  }
}

export function quoteOf(challenge: PaymentChallenge): TempoQuote {
  const read = tempoQuoteOf(challenge.request);
  if (!read.ok) throw new Error(read.detail);
  return read.quote;
}

export interface TransferShape {
  readonly amount?: bigint;
  readonly to?: Hex;
  readonly memo?: Hex;
  readonly token?: Hex;
  /** Extra calls after the transfer (e.g. a second transfer). */
  readonly extraCalls?: readonly { readonly to: Hex; readonly data: Hex }[];
  /** Seconds; null leaves validBefore out. */
  readonly validBefore?: number | null;
  readonly chainId?: number;
  readonly feePayer?: PrivateKeyAccount | true;
  readonly nonceKey?: bigint;
  readonly signer?: PrivateKeyAccount;
}

export function transferWithMemoData(to: Hex, amount: bigint, memo: Hex): Hex {
  return encodeFunctionData({ abi: Abis.tip20, functionName: TIP20_TRANSFER_WITH_MEMO, args: [to, amount, memo] });
}

/** A real signed Tempo (0x76) transaction paying the quote, signed by the wallet with viem; `shape` bends one part of it. */
export async function signTransfer(quote: TempoQuote, shape: TransferShape = {}, expiresAt = T0 + 300): Promise<Hex> {
  const data = transferWithMemoData(shape.to ?? quote.recipient, shape.amount ?? BigInt(quote.amount), shape.memo ?? quote.memo);
  const validBefore = shape.validBefore === undefined ? expiresAt : shape.validBefore;
  const transaction = {
    chainId: shape.chainId ?? quote.chainId,
    calls: [{ to: shape.token ?? quote.currency, data }, ...(shape.extraCalls ?? [])],
    nonce: 0,
    nonceKey: shape.nonceKey ?? 1n,
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    ...(validBefore === null ? {} : { validBefore }),
    ...(shape.feePayer === undefined ? {} : { feePayer: shape.feePayer }),
  };
  const signer = shape.signer ?? wallet;
  return signer.signTransaction(transaction as never, { serializer: Transaction.serialize as never }) as Promise<Hex>;
}

/** The paid retry: a stablecoin credential carrying `payload`, and assent to a version. */
export function paidTempo(challenge: PaymentChallenge, payload: Record<string, string>, version: string | null = VERSION): Record<string, string> {
  return {
    [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(challenge, payload, `did:pkh:eip155:${CHAIN_ID}:${wallet.address}`)),
    ...(version === null ? {} : { [HEADERS.termsAccepted]: version }),
  };
}

export const transactionPayload = (serialized: Hex): Record<string, string> => ({
  [TEMPO_PAYLOAD_MEMBERS.type]: TEMPO_PAYLOAD_TYPES.transaction,
  [TEMPO_PAYLOAD_MEMBERS.signature]: serialized,
});

/** A 402 carrying exactly one fresh challenge of `method` (tempo by default), the terms headers and the problem type; returns the challenge. */
export function expectFresh402(
  answer: PurchaseOutcome,
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  method: string = PAYMENT_METHODS.tempo,
): PaymentChallenge {
  return expectPackFresh402(answer, refusal, VERSION, method);
}

/** The paid 200 for a transfer: pack credited to `balance`, receipt method tempo with the transaction hash as reference. */
export function expectTransferGranted(answer: PurchaseOutcome, balance: string, hash: Hex): void {
  if (!isGranted(answer)) throw new Error(`expected 200, got ${answer.status} ${answer.code}`);
  expect(answer.body).toMatchObject({ ok: true, granted: true, packId: 'mpp_5', balance: { nano: balance } });
  expect(challengeCount(answer)).toBe(0);
  expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
  const receipt = decodeBase64urlJson(answer.headers[HEADERS.paymentReceipt]!);
  expect(receipt).toMatchObject({ ok: true, value: { method: PAYMENT_METHODS.tempo, reference: hash, status: 'success' } });
  expect(answer.body.receipt).toEqual((receipt as { value: unknown }).value);
}
