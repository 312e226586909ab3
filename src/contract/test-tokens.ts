/**
 * Shared payment tokens a deployment in test mode charges with a named outcome, the way card processors publish
 * test cards: `spt_test_<outcome>_<anything>`. The reference's card processor honours them, and a live run pays
 * with them only under `--allow-spend`; any other token settles.
 */
const TEST_TOKEN_PREFIX = 'spt_test_';

/** The outcomes a test token can name, as the token spells them. */
const TEST_TOKEN_OUTCOMES = Object.freeze(['settled', 'declined', 'processing', 'unknown', 'cancelled'] as const);
export type TestTokenOutcome = (typeof TEST_TOKEN_OUTCOMES)[number];

/** A fresh test token for one outcome (`serial` keeps tokens of one run apart). */
export function testToken(outcome: TestTokenOutcome, serial: string): string {
  return `${TEST_TOKEN_PREFIX}${outcome}_${serial}`;
}

/** The outcome a test token names, or undefined for a token that is not one. */
export function testTokenOutcome(token: string): TestTokenOutcome | undefined {
  if (!token.startsWith(TEST_TOKEN_PREFIX)) return undefined;
  const word = token.slice(TEST_TOKEN_PREFIX.length).split('_')[0];
  return TEST_TOKEN_OUTCOMES.find((o) => o === word);
}
