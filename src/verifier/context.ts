import type { Dictionary } from 'structured-headers';
import type { HttpMessage, ParsedSignatureInputMember } from '../httpsig/index.js';
import type { AuthErrorCode } from '../spec/auth-errors.js';
import type { Awaitable, PublishedKey, Registration, VerifierPorts } from './ports.js';
import type { NonceReservation } from './nonces.js';
import type { AgentIdentity } from './signature-agent.js';
import type { VerifierConfig, VerifierRequest } from './types.js';

/** What every check may read: the request as received, and what needs no judgement to know. */
export interface SignedRequest {
  readonly request: VerifierRequest;
  readonly ports: VerifierPorts;
  readonly config: VerifierConfig;
  readonly now: number;
  readonly body: Uint8Array;
  readonly hasBody: boolean;
  readonly message: HttpMessage;
  /** The target URI parsed once (`new URL(message.url)`), or null when it does not parse; the authority check judges it. */
  readonly target: URL | null;
}

/** A signed request has at least one label, and so one of each per-label fact. */
export type NonEmpty<T> = readonly [T, ...T[]];

/** One Signature-Input member tagged web-bot-auth, with its signature. */
export interface Label {
  readonly label: string;
  readonly member: ParsedSignatureInputMember;
  /** The received text of the member, used verbatim as @signature-params. */
  readonly paramsText: string;
  readonly signature: Uint8Array;
}

/** A label's parameters, once the labels check found them well formed. */
export interface LabelParams {
  readonly created: number;
  readonly expires: number;
  readonly keyid: string;
  readonly nonce: string;
}

/** The key set a request's agent publishes, as the key-set check read it (or found it cached). */
export interface KeySet {
  /** The key set URL, or for type=cimd the card URL that names it. */
  readonly url: string;
  readonly keys: readonly PublishedKey[];
  /** True when the card was read and judged on the way (type=cimd). */
  readonly cardChecked: boolean;
}

/**
 * The facts the checks give one another. Each is given by one check of the order (its `gives`) and read only by
 * checks that name it in `needs`, so none is ever a placeholder. Per-label facts follow the order of `labels`.
 */
export interface Facts {
  /** headers-parse */
  readonly labels: NonEmpty<Label>;
  /** labels */
  readonly params: NonEmpty<LabelParams>;
  /** signature-agent-header */
  readonly agentDictionary: Dictionary;
  /** coverage: the `key` of the Signature-Agent member each label speaks for. */
  readonly agentKeys: NonEmpty<string>;
  /** signature-agent */
  readonly identity: AgentIdentity;
  /** signature-base */
  readonly bases: NonEmpty<string>;
  /** key-set */
  readonly keySet: KeySet;
  /** key-known: the key each label names. */
  readonly keys: NonEmpty<PublishedKey>;
  /** nonce-reserve: the nonces, spent ahead while the signatures are checked when the store can release them. */
  readonly reservation: NonceReservation;
  /** key-continuity: the agent's registration, null on first sight. */
  readonly registration: Registration | null;
  /** card-and-registration: true when this request registered the agent. */
  readonly registered: boolean;
}

export type FactName = keyof Facts;

/** What a check that needs the facts `N` reads. */
export type In<N extends FactName> = SignedRequest & Pick<Facts, N>;

/** A refusal a check decided; the verifier turns it into the 401 (refusal.ts). */
export interface Refused {
  readonly refused: AuthErrorCode;
  readonly description: string;
  /** The agent URL a check knew before it could give `identity` (signature-agent, on a later label). */
  readonly agentUrl?: string | undefined;
}

/** What a check giving the facts `G` answers when it does not refuse: those facts, or nothing when it gives none. */
export type Gives<G extends FactName> = [G] extends [never] ? undefined : Pick<Facts, G>;

/** What any check answers; `run` of an entry of the order, with its facts unnamed. */
export type Outcome = Refused | Partial<Facts> | undefined;

export function refused(code: AuthErrorCode, description: string, agentUrl?: string): Refused {
  return agentUrl === undefined ? { refused: code, description } : { refused: code, description, agentUrl };
}

export function isRefused(outcome: unknown): outcome is Refused {
  return typeof outcome === 'object' && outcome !== null && 'refused' in outcome;
}

/** Entry `at` of a per-label fact, which has one entry per label (`at` is a label's index). */
export function ofLabel<T>(fact: NonEmpty<T>, at: number): T {
  return fact[at] as T;
}

/** `each` of every label in order, or the first refusal: a per-label fact has one entry per label. */
export function perLabel<T>(labels: NonEmpty<Label>, each: (l: Label, at: number) => T | Refused): NonEmpty<T> | Refused {
  const all: T[] = [];
  for (let at = 0; at < labels.length; at++) {
    const one = each(labels[at] as Label, at);
    if (isRefused(one)) return one;
    all.push(one);
  }
  // As many entries as labels, and labels has one at least.
  return all as unknown as NonEmpty<T>;
}

export type CheckRun<N extends FactName, G extends FactName> = (input: In<N>) => Awaitable<Refused | Gives<G>>;
