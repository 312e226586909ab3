import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { caseSchema, caseValidators, vectorsSchema } from '../../src/cases/case-schemas.js';
import { AUTH_ERROR_LIST } from '../../src/spec/auth-errors.js';
import { LIMITS } from '../../src/spec/limits.js';
import { PROJECT_ROOT } from '../paths.js';
import { sampleCase, sampleVectors } from './sample-case.js';

const schemaDir = `${PROJECT_ROOT}vectors/schema`;

describe('vectors/schema', () => {
  it('both files compile as JSON Schema 2020-12 in strict mode', () => {
    expect(caseSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(vectorsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const { signedRequestCase, signedRequestVectors } = caseValidators();
    expect(typeof signedRequestCase).toBe('function');
    expect(typeof signedRequestVectors).toBe('function');
  });

  it('the module holds the files as they are on disk', () => {
    expect(caseSchema).toEqual(JSON.parse(readFileSync(`${schemaDir}/signed-request-case.schema.json`, 'utf8')));
    expect(vectorsSchema).toEqual(JSON.parse(readFileSync(`${schemaDir}/signed-requests.schema.json`, 'utf8')));
  });

  it("spells expect.error_code as exactly the catalogue's 7.3 codes, in its order, or null", () => {
    const values = caseSchema.$defs.expect.properties.error_code.enum;
    expect(values.filter((v) => v !== null)).toEqual(AUTH_ERROR_LIST.map((r) => r.code));
    expect(values).toContain(null);
  });

  it("uses the catalogue's thumbprint length", () => {
    expect(caseSchema.$defs.thumbprint.pattern).toBe(`^[A-Za-z0-9_-]{${LIMITS.thumbprintLength.value}}$`);
  });

  it("refers each vector case to the case schema's $id", () => {
    const ref = vectorsSchema.$defs.vectorCase.$ref;
    expect(new URL(ref, vectorsSchema.$id).href).toBe(`${caseSchema.$id}#/$defs/caseMembers`);
  });

  it('accepts the sample case and a vectors file holding it', () => {
    const { signedRequestCase, signedRequestVectors } = caseValidators();
    expect(signedRequestCase(sampleCase()), JSON.stringify(signedRequestCase.errors)).toBe(true);
    const vectors = sampleVectors([{ ...sampleCase(), flags: ['KeySetFetch'], comment: 'redirects are not followed' }]);
    expect(signedRequestVectors(vectors), JSON.stringify(signedRequestVectors.errors)).toBe(true);
  });

  it('keeps a case closed: flags belong to vector cases only', () => {
    const { signedRequestCase } = caseValidators();
    expect(signedRequestCase({ ...sampleCase(), flags: [] })).toBe(false);
  });

  it('accepts the optional bearer-token platform members', () => {
    const c = sampleCase();
    c.platform = {
      authority: 'platform.example',
      token_keys: { keys: [] },
      token_issuer: 'https://platform.example',
      agent_scope: 'agent',
      revoked_token_ids: ['j1'],
    };
    expect(caseValidators().signedRequestCase(c)).toBe(true);
  });
});
