import { parse as parseYaml, YAMLParseError } from 'yaml';
import { JsonSyntaxError, parseJson } from '../schema/parse-json.js';
import schema from '../../vectors/schema/expected-failures.schema.json' with { type: 'json' };
import { createAjv } from '../schema/ajv.js';
import { describeSchemaErrors } from '../schema/describe-errors.js';
import type { CheckResult } from './results.js';

/** One known deviation: a check id or a requirement id, the verdict it is expected to have, and why. */
export interface ExpectedFailure {
  readonly id: string;
  readonly verdict: 'fail' | 'warn';
  readonly reason: string;
}

export interface ExpectedFailures {
  /** The file as the user named it. */
  readonly file: string;
  readonly entries: readonly ExpectedFailure[];
}

/** The file cannot be used; the message names the file, the entry and what is wrong. */
export class ExpectedFailuresError extends Error {
  override readonly name = 'ExpectedFailuresError';
}

/** What became of one entry in a run. */
export interface ExpectedOutcome extends ExpectedFailure {
  /**
   * failed-as-expected: a check it names has the expected verdict (those checks fail nothing); stale: every check it
   * names that ran now passes (remove the entry); not-run: none of its checks ran (nothing is known); differs: its
   * checks have other verdicts than the one expected, and are reported as they are.
   */
  readonly outcome: 'failed-as-expected' | 'stale' | 'not-run' | 'differs';
  /** The checks of the run the entry names. */
  readonly checks: readonly string[];
}

const validate = createAjv({ useDefaults: true }).compile(schema);

/**
 * Reads an expected-failures file (YAML, of which JSON is a subset) and checks every id against the checks and
 * requirements the suite has, so a typo is an input error before the run, not a baseline that silently matches nothing.
 */
export function parseExpectedFailures(
  text: string,
  file: string,
  known: { readonly checks: ReadonlySet<string>; readonly requirements: ReadonlySet<string> },
): ExpectedFailures {
  let document: unknown;
  // JSON (a .json file, or a text opening as a JSON array or object does) is read as JSON: a YAML parser would take
  // {"a": 1,} (a trailing comma) without a word.
  if (file.toLowerCase().endsWith('.json') || /^\uFEFF?\s*(?:\[|\{\s*["}])/.test(text)) {
    try {
      document = parseJson(text, file);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      throw new ExpectedFailuresError(`expected failures "${file}" is not valid JSON: line ${error.line}, column ${error.column}: ${error.problem}`);
    }
  } else
    try {
      document = parseYaml(text, { maxAliasCount: 100 });
    } catch (error) {
      const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}` : '';
      throw new ExpectedFailuresError(`expected failures "${file}" is not valid YAML${where}: ${firstLine(error)}`);
    }
  if (!validate(document)) {
    const problems = describeSchemaErrors(validate.errors ?? [], 'the expected-failures file');
    throw new ExpectedFailuresError(`expected failures "${file}": ${problems.map((p) => `${p.pointer || '/'} ${p.message}`).join('; ')}`);
  }
  const entries = (document as { expected_failures: ExpectedFailure[] }).expected_failures;
  const seen = new Set<string>();
  for (const [at, entry] of entries.entries()) {
    if (!known.checks.has(entry.id) && !known.requirements.has(entry.id))
      throw new ExpectedFailuresError(
        `expected failures "${file}", entry ${at + 1}: "${entry.id}" is neither a check id (suites/checks.json) nor a requirement id`,
      );
    if (seen.has(entry.id)) throw new ExpectedFailuresError(`expected failures "${file}", entry ${at + 1}: "${entry.id}" is listed twice`);
    seen.add(entry.id);
  }
  return { file, entries };
}

/**
 * Marks each result an entry names and that has the entry's verdict as expected (it then fails nothing), and says
 * what became of every entry. A check named by its own id and by a requirement takes the check-id entry.
 */
export function applyExpectedFailures(
  results: readonly CheckResult[],
  expected: ExpectedFailures,
): { readonly results: CheckResult[]; readonly outcomes: ExpectedOutcome[] } {
  const byCheck = new Map(expected.entries.map((e) => [e.id, e]));
  const entryOf = (r: CheckResult) => byCheck.get(r.id) ?? r.requirements.map((id) => byCheck.get(id)).find((e) => e !== undefined);
  const named = new Map<ExpectedFailure, CheckResult[]>(expected.entries.map((e) => [e, []]));
  const marked = results.map((r) => {
    const entry = entryOf(r);
    if (entry === undefined) return r;
    named.get(entry)!.push(r);
    return r.verdict === entry.verdict ? { ...r, expected: { id: entry.id, reason: entry.reason } } : r;
  });
  const outcomes = expected.entries.map((entry): ExpectedOutcome => {
    const checks = named.get(entry)!;
    const ran = checks.filter((r) => r.verdict !== 'not-run');
    const outcome =
      ran.length === 0
        ? 'not-run'
        : ran.some((r) => r.verdict === entry.verdict)
          ? 'failed-as-expected'
          : ran.every((r) => r.verdict === 'pass')
            ? 'stale'
            : 'differs';
    return { ...entry, outcome, checks: checks.map((r) => r.id) };
  });
  return { results: marked, outcomes };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
