import type { Level } from '../spec/types.js';

/**
 * A check's identity: a stable slug (as the MCP conformance suite's checks carry an id), the catalogue
 * requirements it judges, and its level (MUST fails the run, SHOULD warns). The title is a sentence for people
 * and may change; reports, JUnit, expected-failure lists and self-test trials key on the id.
 */
export interface CheckIdentity {
  readonly id: string;
  readonly requirements: readonly string[];
  readonly level: Level;
}

/** Lower-case words joined by `-`, with `.` allowed between words (e.g. `replay-refused`, `7.3.valid-post`). */
export const CHECK_ID_PATTERN = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;

/** Whether a run's selection (`--only` requirement ids and check ids; empty: all) takes this check. */
export function selectedBy(selection: readonly string[], check: CheckIdentity): boolean {
  return selection.length === 0 || selection.includes(check.id) || check.requirements.some((id) => selection.includes(id));
}
