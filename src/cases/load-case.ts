import { CaseInputError } from './case-input-error.js';
import { caseValidators } from './case-schemas.js';
import { describeCaseSchemaErrors } from './describe-schema-errors.js';
import type { InputProblem } from './describe-schema-errors.js';
import { JsonSyntaxError, parseJson } from '../schema/parse-json.js';
import type { SignedRequestCase, SignedRequestVectors, VectorCase } from './types.js';

export { CaseInputError } from './case-input-error.js';

/** What a case file held: one case, or a vectors file (Wycheproof layout) with its cases in order. */
export type CaseFile =
  | { readonly layout: 'case'; readonly cases: readonly [SignedRequestCase] }
  | { readonly layout: 'vectors'; readonly vectors: SignedRequestVectors; readonly cases: readonly VectorCase[] };

/** Parses and validates one signed-request case (docs/contracts.md section 2). `source` names the input in messages. */
export function loadCase(text: string, source: string): SignedRequestCase {
  const value = parse(text, source);
  if (isObject(value) && 'testGroups' in value) {
    throw new CaseInputError(source, [{ pointer: '', message: 'holds a vectors file (testGroups), not a single case; read it with loadCases' }]);
  }
  return validateCase(value, source);
}

/** Every case of a case file or a vectors file. */
export function loadCases(text: string, source: string): readonly SignedRequestCase[] {
  return loadCaseFile(text, source).cases;
}

/** A case file or a vectors file; a JSON object with `testGroups` is read as a vectors file. */
export function loadCaseFile(text: string, source: string): CaseFile {
  const value = parse(text, source);
  if (isObject(value) && 'testGroups' in value) {
    const vectors = validateVectors(value, source);
    return { layout: 'vectors', vectors, cases: vectors.testGroups.flatMap((g) => g.cases) };
  }
  return { layout: 'case', cases: [validateCase(value, source)] };
}

function parse(text: string, source: string): unknown {
  try {
    return parseJson(text, source);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new CaseInputError(source, [{ pointer: '', message: `not valid JSON at line ${error.line}, column ${error.column}: ${error.problem}` }]);
    }
    throw error;
  }
}

function validateCase(value: unknown, source: string): SignedRequestCase {
  requireObject(value, source);
  const validate = caseValidators().signedRequestCase;
  if (!validate(value)) throw new CaseInputError(source, describeCaseSchemaErrors(validate.errors ?? [], 'case'));
  return value as unknown as SignedRequestCase;
}

function validateVectors(value: unknown, source: string): SignedRequestVectors {
  const validate = caseValidators().signedRequestVectors;
  if (!validate(value)) throw new CaseInputError(source, describeCaseSchemaErrors(validate.errors ?? [], 'vectors file'));
  const vectors = value as unknown as SignedRequestVectors;
  const problems = vectorsConsistency(vectors);
  if (problems.length > 0) throw new CaseInputError(source, problems);
  return vectors;
}

/** What the schema cannot say: the count is right, every flag is described, case ids are unique. */
function vectorsConsistency(vectors: SignedRequestVectors): InputProblem[] {
  const problems: InputProblem[] = [];
  const total = vectors.testGroups.reduce((n, g) => n + g.cases.length, 0);
  if (vectors.numberOfTests !== total) {
    problems.push({ pointer: '/numberOfTests', message: `says ${vectors.numberOfTests} but the file holds ${total} case${total === 1 ? '' : 's'}` });
  }
  const firstUse = new Map<string, string>();
  for (const [g, group] of vectors.testGroups.entries()) {
    for (const [i, c] of group.cases.entries()) {
      const at = `/testGroups/${g}/cases/${i}`;
      const earlier = firstUse.get(c.id);
      if (earlier !== undefined) problems.push({ pointer: `${at}/id`, message: `"${c.id}" is already the id of ${earlier.slice(1)}` });
      else firstUse.set(c.id, at);
      for (const [f, flag] of c.flags.entries()) {
        if (!Object.hasOwn(vectors.notes, flag)) problems.push({ pointer: `${at}/flags/${f}`, message: `flag "${flag}" is not described in notes` });
      }
    }
  }
  return problems;
}

function requireObject(value: unknown, source: string): asserts value is Record<string, unknown> {
  if (!isObject(value)) {
    throw new CaseInputError(source, [{ pointer: '', message: 'must be a JSON object: a signed-request case, or a vectors file with testGroups' }]);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
