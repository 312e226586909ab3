import { PURCHASE_ERROR_LIST } from './purchase-errors.js';

/** Where a deployment publishes its problem types; the spec writes them as {problems_url} and {payment_problems_url}. */
export interface ProblemBases {
  readonly problems: string;
  readonly 'payment-problems': string;
}

/** The bases the reference deployment uses. A live target may name its own. */
export const DEFAULT_PROBLEM_BASES: ProblemBases = Object.freeze({
  problems: 'https://platform.example/problems',
  'payment-problems': 'https://paymentauth.org/problems',
});

/** Every problem type slug of 7.4 with the base it lives under. */
export const PROBLEM_TYPES = Object.freeze(
  PURCHASE_ERROR_LIST.filter((r) => r.kind === 'problem').map((r) => Object.freeze({ slug: r.code, base: r.problemBase! })),
);

export function problemTypeUrl(bases: ProblemBases, base: keyof ProblemBases, slug: string): string {
  return `${bases[base].replace(/\/+$/, '')}/${slug}`;
}
