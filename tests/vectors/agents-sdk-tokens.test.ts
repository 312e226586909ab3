import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { describeSchemaErrors } from '../../src/schema/describe-errors.js';
import { serializeVectors } from '../../src/scenarios/signed-request-vectors.js';
import { runSdkConfigCase, runSdkTokenCase, sdkTokenVectors, type SdkTokenVectors } from '../../src/scenarios/agents/index.js';
import { SDK_AUTH_REQUIREMENTS, SDK_TOKEN_REFUSAL_REASONS } from '../../src/spec/sdk-auth.js';
import schema from '../../vectors/schema/sdk-tokens.schema.json' with { type: 'json' };
import { PROJECT_ROOT } from '../paths.js';

const FILE = `${PROJECT_ROOT}vectors/sdk-tokens.json`;
const onDisk = readFileSync(FILE, 'utf8');
const vectors = JSON.parse(onDisk) as SdkTokenVectors;

describe('vectors/sdk-tokens.json', () => {
  test('validates against vectors/schema/sdk-tokens.schema.json', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    const valid = validate(vectors);
    expect(valid, JSON.stringify(describeSchemaErrors(validate.errors ?? [], 'vector file'))).toBe(true);
  });

  test('is exactly what its generator writes (run `npm run vectors` after changing a scenario)', async () => {
    expect(onDisk === serializeVectors(await sdkTokenVectors()), 'vectors/sdk-tokens.json differs from its generator').toBe(true);
  });

  test('counts its cases, names only catalogued requirements and reasons, and uses unique ids', () => {
    const cases = vectors.testGroups.flatMap((g) => g.cases);
    expect(vectors.numberOfTests).toBe(cases.length);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const ids = new Set(Object.values(SDK_AUTH_REQUIREMENTS).map((r) => r.id));
    for (const c of cases) for (const r of c.requirements) expect(ids.has(r), `${c.id}: ${r}`).toBe(true);
    expect(schema.$defs.reason.enum).toEqual([...SDK_TOKEN_REFUSAL_REASONS]);
    // Every refusal reason except config_invalid is pinned by at least one token case.
    const pinned = new Set(cases.flatMap((c) => (c.kind === 'token' && !c.expect.ok ? [c.expect.reason] : [])));
    expect([...SDK_TOKEN_REFUSAL_REASONS].filter((r) => r !== 'config_invalid' && !pinned.has(r))).toEqual([]);
  });

  for (const group of vectors.testGroups) {
    describe(group.comment, () => {
      for (const c of group.cases) {
        test(`${c.id}: ${c.description}`, async () => {
          if (c.kind === 'token') {
            const got = await runSdkTokenCase(c);
            expect(JSON.parse(JSON.stringify(got))).toEqual(c.expect);
          } else {
            expect(JSON.parse(JSON.stringify(runSdkConfigCase(c)))).toEqual(c.expect);
          }
        });
      }
    });
  }
});
