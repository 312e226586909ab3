import { createAjv } from '../schema/ajv.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import caseSchema from '../../vectors/schema/signed-request-case.schema.json' with { type: 'json' };
import vectorsSchema from '../../vectors/schema/signed-requests.schema.json' with { type: 'json' };

export { caseSchema, vectorsSchema };

export interface CaseValidators {
  readonly signedRequestCase: ValidateFunction;
  readonly signedRequestVectors: ValidateFunction;
}

let compiled: CaseValidators | undefined;

/** The two schemas of vectors/schema/, compiled once. */
export function caseValidators(): CaseValidators {
  if (compiled) return compiled;
  // verbose: errors carry their parent schema, which the plain-words messages read (allowed members).
  const ajv = createAjv({ verbose: true });
  ajv.addSchema(caseSchema).addSchema(vectorsSchema);
  compiled = {
    signedRequestCase: ajv.getSchema(caseSchema.$id)!,
    signedRequestVectors: ajv.getSchema(vectorsSchema.$id)!,
  };
  return compiled;
}
