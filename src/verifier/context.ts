import type { Dictionary } from 'structured-headers';
import type { HttpMessage, ParsedSignatureInputMember } from '../httpsig/index.js';
import type { AuthErrorCode } from '../spec/auth-errors.js';
import type { PublishedKey, Registration, VerifierPorts } from './ports.js';
import { refuse } from './refusal.js';
import type { AgentIdentity } from './signature-agent.js';
import type { Refusal, VerifierConfig, VerifierRequest } from './types.js';

/** One Signature-Input member tagged web-bot-auth, as the checks learn about it. */
export interface LabelState {
  readonly label: string;
  readonly member: ParsedSignatureInputMember;
  /** The received text of the member, used verbatim as @signature-params. */
  readonly paramsText: string;
  readonly signature: Uint8Array;
  created: number;
  expires: number;
  keyid: string;
  nonce: string;
  /** The `key` of the covered signature-agent member. */
  agentKey: string;
  base: string;
  key: PublishedKey | undefined;
}

/** What the checks of a signed request share; each check reads what earlier ones established. */
export interface SignedContext {
  readonly request: VerifierRequest;
  readonly ports: VerifierPorts;
  readonly config: VerifierConfig;
  readonly now: number;
  readonly body: Uint8Array;
  readonly hasBody: boolean;
  readonly message: HttpMessage;
  labels: LabelState[];
  /** The target URI as checkAuthority parsed it (`new URL(message.url)`), shared with the signature bases. */
  targetUrl: URL | undefined;
  agentDictionary: Dictionary | undefined;
  identity: AgentIdentity | undefined;
  keySetUrl: string | undefined;
  keys: readonly PublishedKey[] | undefined;
  /** True when the card was read and judged while resolving the key set (type=cimd). */
  cardChecked: boolean;
  registration: Registration | undefined;
  registered: boolean;
}

export type CheckResult = Refusal | undefined;

export function refusal(ctx: SignedContext, code: AuthErrorCode, description: string): Refusal {
  return refuse(code, description, { hasBody: ctx.hasBody, agentUrl: ctx.identity?.agentUrl ?? null, naming: ctx.config.naming });
}
