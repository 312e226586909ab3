import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { describeSchemaErrors } from '../../src/schema/describe-errors.js';
import { serializeVectors } from '../../src/scenarios/signed-request-vectors.js';
import { accessVectors, runAccessCase, type AccessVectors } from '../../src/scenarios/agents/index.js';
import { ENDPOINT_ERRORS } from '../../src/spec/endpoint-errors.js';
import { ENDPOINT_AUTH_MODES } from '../../src/spec/sdk-auth.js';
import schema from '../../vectors/schema/access.schema.json' with { type: 'json' };
import { PROJECT_ROOT } from '../paths.js';

const onDisk = readFileSync(`${PROJECT_ROOT}vectors/access.json`, 'utf8');
const vectors = JSON.parse(onDisk) as AccessVectors;

describe('vectors/access.json', () => {
  test('validates against vectors/schema/access.schema.json', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    expect(validate(vectors), JSON.stringify(describeSchemaErrors(validate.errors ?? [], 'vector file'))).toBe(true);
  });

  test('is exactly what its generator writes (run `npm run vectors` after changing a scenario)', async () => {
    expect(onDisk === serializeVectors(await accessVectors()), 'vectors/access.json differs from its generator').toBe(true);
  });

  test('counts its cases, uses unique ids, the 7.2 codes and every auth mode of 5.4', () => {
    const cases = vectors.testGroups.flatMap((g) => g.cases);
    expect(vectors.numberOfTests).toBe(cases.length);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(schema.$defs.case.properties.expect.oneOf[1]!.properties.code!.enum).toEqual([ENDPOINT_ERRORS.unauthorized.code, ENDPOINT_ERRORS.forbidden.code]);
    const modes = new Set(cases.flatMap((c) => (c.rule.kind === 'auth_mode' ? [c.rule.mode] : [])));
    expect([...modes].sort()).toEqual(Object.values(ENDPOINT_AUTH_MODES).sort());
  });

  for (const group of vectors.testGroups) {
    describe(group.comment, () => {
      for (const c of group.cases) {
        test(`${c.id}: ${c.description}`, () => {
          expect(runAccessCase(c)).toEqual(c.expect);
        });
      }
    });
  }
});
