import { Abi, AbiFunction, Address, Secp256k1 } from 'ox';
import { SignatureEnvelope, TxEnvelopeTempo } from 'ox/tempo';
import { challengeEcho, expiresAtSeconds, serializeCredential, type PaymentChallenge } from '../../purchase/index.js';
import { tempoQuoteOf, type Hex } from '../../purchase/machine/tempo/index.js';
import { TEMPO_PAYLOAD_MEMBERS, TIP20_TRANSFER_ABI, TIP20_TRANSFER_WITH_MEMO } from '../../spec/payments.js';
import type { CredentialBuild, TransactionBuild } from './types.js';

const TRANSFER_WITH_MEMO = AbiFunction.fromAbi(Abi.from(TIP20_TRANSFER_ABI), TIP20_TRANSFER_WITH_MEMO);
const addressOf = (privateKey: Hex): Hex => Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey }));

/**
 * Fixed test wallets (the well-known development keys of local EVM nodes; funded nowhere that matters). A
 * vector names a signer by key so another implementation signs the very same transaction.
 */
export const VECTOR_WALLETS: Readonly<Record<string, { readonly privateKey: Hex; readonly address: Hex }>> = Object.freeze(
  Object.fromEntries(
    (
      [
        ['wallet', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'],
        ['other-wallet', '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'],
      ] as const
    ).map(([name, privateKey]) => [name, { privateKey, address: addressOf(privateKey).toLowerCase() as Hex }]),
  ),
);

/** The did:pkh source a stablecoin credential names its paying wallet with. */
export const walletSource = (chainId: number, address: string): string => `did:pkh:eip155:${chainId}:${address}`;

/**
 * A real signed Tempo (type 0x76) transaction paying the challenge's quote with one transferWithMemo, signed with
 * ox; `build` bends one part of it. Signing is deterministic (RFC 6979), so the bytes are reproducible.
 */
async function signTransfer(challenge: PaymentChallenge, build: TransactionBuild): Promise<Hex> {
  const read = tempoQuoteOf(challenge.request);
  if (!read.ok) throw new Error(`challenge ${challenge.id} is not a stablecoin challenge: ${read.detail}`);
  const quote = read.quote;
  const signer = VECTOR_WALLETS[build.signer];
  if (signer === undefined) throw new Error(`no vector wallet named ${build.signer}`);
  const data = AbiFunction.encodeData(TRANSFER_WITH_MEMO, [
    (build.to ?? quote.recipient) as Hex,
    BigInt(build.amount ?? quote.amount),
    (build.memo ?? quote.memo) as Hex,
  ]);
  const envelope = TxEnvelopeTempo.from({
    chainId: quote.chainId,
    calls: [{ to: (build.token ?? quote.currency) as Hex, data }],
    nonce: 0n,
    nonceKey: BigInt(build.nonceKey ?? '1'),
    gas: 200_000n,
    maxFeePerGas: 20_000_000_000n,
    maxPriorityFeePerGas: 1n,
    validBefore: build.validBefore ?? expiresAtSeconds(challenge),
  });
  const signature = Secp256k1.sign({ payload: TxEnvelopeTempo.getSignPayload(envelope), privateKey: signer.privateKey });
  return TxEnvelopeTempo.serialize(envelope, { signature: SignatureEnvelope.from(signature) }) as Hex;
}

/** The Payment-Authorization value a build describes, for the challenge it names. */
export async function buildCredential(build: CredentialBuild, challenge: PaymentChallenge): Promise<string> {
  const payload: Record<string, string> = { ...build.payload };
  if (build.transaction !== undefined) payload[TEMPO_PAYLOAD_MEMBERS.signature] = await signTransfer(challenge, build.transaction);
  const echo = { ...challengeEcho(challenge), ...build.echoOverride };
  return serializeCredential({ challenge: echo, payload, ...(build.source === undefined ? {} : { source: build.source }) });
}
