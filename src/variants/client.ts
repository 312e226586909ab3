import type { ClientChoices } from '../reference/client/types.js';
import { CLIENT_REQUIREMENTS as C } from '../spec/client-requirements.js';
import { HEADERS } from '../spec/headers.js';
import type { ReadingId } from '../spec/readings.js';

/**
 * A conformant client (client mode's self-test): the reference client making another choice the spec allows. Every
 * client check naming one of `requirements` must pass it; a check that fails it would fail a conformant client.
 */
export interface ClientVariant {
  readonly id: string;
  readonly description: string;
  /** The readings whose other allowed choice it makes (none where the spec's text names the choice itself). */
  readonly readings: readonly ReadingId[];
  readonly requirements: readonly string[];
  readonly choices: ClientChoices;
  /** How many keys it signs with (labels sig1, sig2); one by default. */
  readonly keys?: 1 | 2;
}

/** The signer's rules every signed request meets: a variant of the signer is tried by all of them. */
const SIGNER = [
  C.signed,
  C.syntax,
  C.times,
  C.keyid,
  C.alg,
  C.nonceLength,
  C.nonceUnique,
  C.window,
  C.signatureSize,
  C.signatureValid,
  C.coverage,
  C.components,
  C.agent,
].map((r) => r.id);

export const CLIENT_VARIANTS: readonly ClientVariant[] = Object.freeze<ClientVariant[]>([
  {
    id: 'client-sha-512',
    description: 'Content-Digest with sha-512 (5.2: "sha-256 or sha-512")',
    readings: [],
    requirements: [...SIGNER, C.contentDigest.id],
    choices: { digest: 'sha-512' },
  },
  {
    id: 'client-no-alg',
    description: 'no alg parameter (5.2: "ed25519 if sent")',
    readings: [],
    requirements: SIGNER,
    choices: { alg: false },
  },
  {
    id: 'client-two-labels',
    description: 'two keys, two labels (sig1 and sig2) naming the same agent (5.2: "one or two labels carry it")',
    readings: [],
    requirements: [...SIGNER, C.keySet.id, C.keyContinuity.id],
    choices: {},
    keys: 2,
  },
  {
    id: 'client-card-named',
    description: 'Signature-Agent names the card with type=cimd (5.2: "alternatively a card URL with type=cimd")',
    readings: [],
    requirements: [...SIGNER, C.card.id, C.keySet.id],
    choices: { signatureAgentType: 'cimd' },
  },
  {
    id: 'client-window-3600',
    description: 'signatures valid for the whole 3600 seconds (5.2: "at most 3600 seconds apart")',
    readings: [],
    requirements: SIGNER,
    choices: { windowS: 3600 },
  },
  {
    id: 'client-nonce-256',
    description: 'nonces of 256 characters (5.2: "1 to 256 characters")',
    readings: [],
    requirements: SIGNER,
    choices: { nonceLength: 256 },
  },
  {
    id: 'client-covers-more',
    description: 'Content-Type and Payment-Authorization covered too (5.2: "only these and plain header fields may be covered")',
    readings: [],
    requirements: [...SIGNER, C.purchaseHeadersCovered.id, C.termsAccepted.id],
    choices: { coverHeaders: [HEADERS.contentType, HEADERS.paymentAuthorization] },
  },
  {
    id: 'client-transfer-valid-shorter',
    description: "the stablecoin buyer's transaction stops being valid a minute before the challenge expiry (7.4: valid until the expiry, not beyond)",
    readings: [],
    requirements: [C.transfer.id, C.echo.id],
    choices: { transferMarginS: 60 },
  },
  {
    id: 'client-re-encodes-credential',
    description: 'the buyer re-presents the same credential in another encoding (its members in reverse order)',
    readings: ['clientSameCredential'],
    requirements: [C.sameCredential.id, C.oneCredential.id, C.echo.id],
    choices: { reencodeOnRetry: true },
  },
  {
    id: 'client-echo-reordered',
    description: "the buyer echoes the challenge's members in reverse order, not as they arrived",
    readings: ['clientEcho'],
    requirements: [C.echo.id, C.termsAccepted.id],
    choices: { echoReversed: true },
  },
  {
    id: 'client-gives-up-when-asked-to-wait',
    description: 'asked to re-present the same credential after Retry-After, the buyer stops instead',
    readings: ['clientStops'],
    requirements: [C.sameCredential.id, C.retryAfter.id, C.echo.id],
    choices: { stopWhenAskedToWait: true },
  },
  {
    id: 'client-waits-longer',
    description: 'the buyer waits a second and a half beyond Retry-After',
    readings: ['clientRetryAfter'],
    requirements: [C.retryAfter.id, C.sameCredential.id, C.oneCredential.id],
    choices: { extraWaitMs: 1500 },
  },
]);
