import type { CaseExpect } from './types.js';

/** What a step came to: accepted, or refused with a status and a code. */
export interface StepVerdict {
  readonly ok: boolean;
  readonly status: number;
  readonly error_code: string | null;
  readonly agent_url: string | null;
}

export interface ExpectationJudgement {
  /** null when the step states no expectation. */
  readonly matches: boolean | null;
  /** One sentence per expect member that differs. */
  readonly mismatches: readonly string[];
  /** Set when the verdict is not the reference's own but another the spec allows (`also_allowed`). */
  readonly reading?: string;
}

/**
 * Compares a verdict with a step's expectation. The members present must match; where the spec allows other
 * outcomes too (`also_allowed`: further error codes, or null for acceptance, with the `reading` that allows
 * them), one of those matches as well and is named as such.
 */
export function judgeExpectation(expect: CaseExpect | undefined, got: StepVerdict): ExpectationJudgement {
  if (!expect) return { matches: null, mismatches: [] };
  const mismatches: string[] = [];
  const check = (member: 'ok' | 'status' | 'error_code' | 'agent_url', actual: unknown) => {
    if (expect[member] !== undefined && expect[member] !== actual)
      mismatches.push(`${member}: expected ${JSON.stringify(expect[member])}, got ${JSON.stringify(actual)}`);
  };
  check('ok', got.ok);
  check('status', got.status);
  check('error_code', got.error_code);
  check('agent_url', got.agent_url);
  if (mismatches.length === 0) return { matches: true, mismatches };
  if (expect.also_allowed?.includes(got.ok ? null : (got.error_code as never))) {
    const reading = expect.reading ?? 'another reading of the spec';
    return {
      matches: true,
      mismatches: [],
      reading: `${got.ok ? 'accepted' : got.error_code}: allowed by ${reading} (the reference answers ${expect.ok === false ? expect.error_code : 'accepted'})`,
    };
  }
  if (expect.also_allowed?.length) {
    mismatches.push(
      `the spec also allows ${expect.also_allowed.map((c) => c ?? 'acceptance').join(', ')} here (${expect.reading ?? 'another reading'}), and this is none of them`,
    );
  }
  return { matches: false, mismatches };
}
