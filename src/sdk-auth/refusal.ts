import { SDK_TOKEN_REFUSALS, type SdkTokenRefusalReason } from '../spec/sdk-auth.js';

/** One thing wrong with an input: the member at fault as a JSON pointer, and what is wrong in plain words. */
export interface ConfigProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Every refusal of the SDK-auth core: a value, never a thrown exception. */
export interface SdkAuthRefusal {
  readonly ok: false;
  readonly reason: SdkTokenRefusalReason;
  /** One sentence a person can act on. */
  readonly message: string;
  /** Present on config_invalid: every problem found. */
  readonly problems?: readonly ConfigProblem[];
}

export function refusal(reason: SdkTokenRefusalReason, detail?: string, problems?: readonly ConfigProblem[]): SdkAuthRefusal {
  const message = detail ? `${SDK_TOKEN_REFUSALS[reason]}: ${detail}` : SDK_TOKEN_REFUSALS[reason];
  return Object.freeze(problems ? { ok: false, reason, message, problems } : { ok: false, reason, message });
}
