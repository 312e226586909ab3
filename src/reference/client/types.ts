import type { CaseDocuments } from '../../cases/types.js';
import type { ChallengeEcho, PaymentChallenge } from '../../purchase/wire/challenge.js';
import type { Ed25519PrivateJwk } from '../../httpsig/index.js';
import type { DigestAlgorithm } from '../../spec/wire.js';
import type { OutgoingRequest, SignPlan } from './sign.js';
import type { TransferShape } from './transfer.js';

/**
 * What client mode tells the client under test about a case (docs/client-mode.md): the APC_* variables, read. The
 * client sends that request toward the platform, signed, and acts on the answers as a buyer would.
 */
export interface ClientEnvironment {
  /** APC_PLATFORM_URL: the platform double's base URL. */
  readonly platformUrl: string;
  /** APC_CASE */
  readonly caseId: string;
  /** APC_REQUEST_URL, APC_REQUEST_METHOD */
  readonly requestUrl: string;
  readonly requestMethod: string;
  /** The bytes of the file APC_REQUEST_BODY names (empty when it is empty). */
  readonly requestBody: Uint8Array;
  /** APC_REQUEST_CONTENT_TYPE, when the request has a body. */
  readonly requestContentType: string | undefined;
  /** APC_CARD_TOKEN: the test token (spt_test_<outcome>_<n>) the buyer pays with. */
  readonly cardToken: string;
  /** APC_ALLOWED_HOSTS: the hosts the buyer's allow list holds (section 6's pointer rule). */
  readonly allowedHosts: readonly string[];
  /** APC_DAILY_CAP: the buyer's daily spend cap in minor units; null when none is configured. */
  readonly dailyCap: number | null;
  /** APC_WALLET_KEY: the private key of the wallet a stablecoin buyer pays with (hex); absent in a card case. */
  readonly walletKey: string | undefined;
}

/** The client's own clock: real time in a process, a virtual one in process (its sleeps move it, nothing waits). */
export interface ClientClock {
  nowMs(): number;
  sleep(ms: number): Promise<void>;
}

/** The agent the reference client signs as: its URL and one or two private keys (labels sig1, sig2). */
export interface ClientIdentity {
  readonly agentUrl: string;
  readonly keys: readonly Ed25519PrivateJwk[];
}

/** Choices a conformant client may make differently (the client variants of the self-test make them). */
export interface ClientChoices {
  /** Content-Digest algorithm; sha-256 by default. */
  readonly digest?: DigestAlgorithm;
  /** Whether alg="ed25519" is sent; true by default. */
  readonly alg?: boolean;
  /** expires - created in seconds; 60 by default. */
  readonly windowS?: number;
  /** Characters of each nonce (base64url of random bytes, cut); 43 by default. */
  readonly nonceLength?: number;
  /** What Signature-Agent names: the key set (jwks_uri, the default) or the card (cimd). */
  readonly signatureAgentType?: 'jwks_uri' | 'cimd';
  /** Header fields covered besides the profile's own (the purchase headers are covered whenever sent). */
  readonly coverHeaders?: readonly string[];
  /** Milliseconds waited beyond Retry-After. */
  readonly extraWaitMs?: number;
  /** Seconds before the challenge expiry the stablecoin transfer stops being valid; 0 (valid until the expiry) by default. */
  readonly transferMarginS?: number;
  /** The credential re-presented after a 503 in another encoding of the same members (READING-CLIENT-SAME-CREDENTIAL). */
  readonly reencodeOnRetry?: boolean;
  /** The challenge echoed with its members in reverse order, as mppx writes its own order (READING-CLIENT-ECHO). */
  readonly echoReversed?: boolean;
  /** Asked to wait and re-present, the buyer gives up instead (READING-CLIENT-STOPS). */
  readonly stopWhenAskedToWait?: boolean;
}

/** The credential a paid request carries: in which header, its value, and the terms version it accepts (null: none sent). */
export interface Payment {
  readonly header: string;
  readonly value: string;
  readonly termsVersion: string | null;
}

/** A request the client sends: the case's own, or a purchase pointer's purchase_url it follows (section 6). */
export interface ClientTarget {
  readonly url: string;
  readonly method: string;
  readonly body: Uint8Array;
  readonly contentType: string | undefined;
}

/** What the buyer read in an answer. */
export interface BuyerAnswer {
  readonly status: number;
  readonly code: string | undefined;
  readonly retry: { readonly sameCredential: boolean; readonly credentialHeader: string | undefined } | undefined;
  readonly retryAfterS: number | undefined;
  readonly challenge: { readonly challenge: PaymentChallenge; readonly echo: ChallengeEcho } | undefined;
  readonly termsVersion: string | undefined;
  /** The purchase_url of a rail's pointer (a 402 without a challenge, section 6). */
  readonly pointer: string | undefined;
}

/** What the buyer does after an answer: stop, or send the request again (after a wait, with or without a credential). */
export type NextStep =
  | { readonly kind: 'stop'; readonly why: string }
  | {
      readonly kind: 'send';
      readonly waitMs: number;
      readonly payment: Payment | null;
      readonly signed: boolean;
      /** Another request to send than the last one (a pointer's purchase_url, or the case's own again); the same when absent. */
      readonly target?: ClientTarget;
    };

/** What the buyer knows when it decides: the credential it last presented, and the token it pays with. */
export interface BuyerState {
  readonly payment: Payment | null;
  readonly cardToken: string;
  /** The request just answered, and the case's own. */
  readonly target: ClientTarget;
  readonly original: ClientTarget;
  /** How many requests it sent so far in this case. */
  readonly sent: number;
}

/**
 * A named fault of the reference client (its mutants, src/mutants/client.ts): the signer's plan changed before it is
 * signed, the finished request rewritten, the buyer's next step or its payment changed, or the documents it publishes.
 */
export interface ClientFault {
  readonly plan?: (plan: SignPlan, context: { readonly serial: number }) => SignPlan;
  readonly sent?: (request: OutgoingRequest) => OutgoingRequest;
  readonly next?: (decided: NextStep, answer: BuyerAnswer, state: BuyerState) => NextStep | Promise<NextStep>;
  readonly payment?: (payment: Payment, answer: BuyerAnswer, state: BuyerState) => Payment;
  readonly documents?: (documents: CaseDocuments, identity: ClientIdentity) => CaseDocuments;
  /** Changes the transfer a stablecoin buyer signs (its amount, recipient, memo, validity). */
  readonly transfer?: (shape: TransferShape) => TransferShape;
  /** Changes the in-band steps on the agent socket (when payment.submit goes, with which scheme). */
  readonly inband?: (steps: InbandSteps) => InbandSteps;
}

/** How the buyer answers payment.required on the agent socket: payment.submit after paying (or, a fault, before), with its scheme. */
export interface InbandSteps {
  readonly submitBeforePaying: boolean;
  readonly scheme: string;
}

/** The agent socket as the client holds it: send a text frame, wait for the next one (null: none came in time), close. */
export interface ClientSocket {
  send(text: string): void;
  next(timeoutMs: number): Promise<string | null>;
  close(): void;
}

/** Opens the agent socket with these header fields (the signed upgrade); the status of a refusal otherwise. */
export type SocketConnect = (url: string, headers: ReadonlyArray<readonly [string, string]>) => Promise<ClientSocket | { readonly refused: number }>;
