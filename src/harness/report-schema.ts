import { createAjv } from '../schema/ajv.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import reportSchema from '../../vectors/schema/report.schema.json' with { type: 'json' };
import type { RunReport, Verdict } from './results.js';

export { reportSchema };

let compiled: ValidateFunction<RunReport> | undefined;

/** vectors/schema/report.schema.json compiled once (JSON Schema 2020-12, strict, with formats). */
export function reportValidator(): ValidateFunction<RunReport> {
  if (compiled) return compiled;
  const ajv = createAjv();
  compiled = ajv.compile<RunReport>(reportSchema);
  return compiled;
}

export interface ReportValidation {
  readonly valid: boolean;
  /** One line per problem: where (a JSON pointer) and what. */
  readonly errors: readonly string[];
}

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'not-run', 'error'];

const describeError = (e: ErrorObject) =>
  `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''}`;

/**
 * Validates a report.json document: the schema, then what a schema cannot say (the counts agree with the
 * results, the run does not finish before it starts).
 */
export function validateReport(value: unknown): ReportValidation {
  const validate = reportValidator();
  if (!validate(value)) return { valid: false, errors: (validate.errors ?? []).map(describeError) };
  const report = value;
  const errors: string[] = [];
  if (report.counts.total !== report.results.length) errors.push(`/counts/total is ${report.counts.total} but there are ${report.results.length} results`);
  for (const verdict of VERDICTS) {
    const n = report.results.filter((r) => r.verdict === verdict).length;
    if (report.counts[verdict] !== n) errors.push(`/counts/${verdict} is ${report.counts[verdict]} but ${n} results have that verdict`);
  }
  if (Date.parse(report.finishedAt) < Date.parse(report.startedAt)) errors.push('/finishedAt is before /startedAt');
  return { valid: errors.length === 0, errors };
}
