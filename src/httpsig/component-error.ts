export type ComponentErrorReason = 'missing-field' | 'missing-member' | 'unsupported-component' | 'bad-parameter' | 'not-a-dictionary' | 'non-ascii';

/** A covered component whose value cannot be produced (RFC 9421 §2.5: the base cannot be built). */
export class ComponentError extends Error {
  readonly reason: ComponentErrorReason;

  constructor(reason: ComponentErrorReason, message: string) {
    super(message);
    this.name = 'ComponentError';
    this.reason = reason;
  }
}
