import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { purchaseVectors, type PurchaseVectors } from '../../src/scenarios/purchases/index.js';
import { serializeVectors } from '../../src/scenarios/signed-request-vectors.js';
import { PROJECT_ROOT } from '../paths.js';

const FILE = `${PROJECT_ROOT}vectors/purchases.json`;
const text = readFileSync(FILE, 'utf8');
const vectors = JSON.parse(text) as PurchaseVectors;

describe('vectors/purchases.json', () => {
  let generated: string;
  beforeAll(async () => {
    generated = serializeVectors(await purchaseVectors());
  }, 120_000);

  test('validates against vectors/schema/purchases.schema.json', () => {
    const schema = JSON.parse(readFileSync(`${PROJECT_ROOT}vectors/schema/purchases.schema.json`, 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    expect(validate(vectors), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });

  test('the schema refuses a present event without its expectation', () => {
    const schema = JSON.parse(readFileSync(`${PROJECT_ROOT}vectors/schema/purchases.schema.json`, 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    const broken = structuredClone(vectors) as unknown as { testGroups: { cases: { events: Record<string, unknown>[] }[] }[] };
    delete broken.testGroups[0]!.cases[0]!.events[0]!.expect;
    expect(validate(broken)).toBe(false);
  });

  test('is exactly what its generator writes (regenerate after changing a scenario)', () => {
    expect(text === generated, 'vectors/purchases.json differs from src/scenarios/purchases: regenerate it').toBe(true);
  });

  test('the generator is deterministic', async () => {
    expect(serializeVectors(await purchaseVectors())).toBe(generated);
  }, 120_000);

  test('numberOfTests counts the cases, ids are unique and every flag is described', () => {
    const cases = vectors.testGroups.flatMap((g) => g.cases);
    expect(vectors.numberOfTests).toBe(cases.length);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) for (const flag of c.flags) expect(vectors.notes[flag], `${c.id} flag ${flag}`).toBeTypeOf('string');
  });

  test('a credential built from a challenge names an earlier event that carried one', () => {
    for (const c of vectors.testGroups.flatMap((g) => g.cases)) {
      c.events.forEach((event, index) => {
        if (event.type !== 'present' || event.paymentAuthorization?.built === undefined) return;
        const from = event.paymentAuthorization.built.challengeOf;
        expect(from, `${c.id} event ${index}`).toBeLessThan(index);
        const source = c.events[from]!;
        expect(source.type === 'present' && source.expect.challenge !== null, `${c.id} event ${index} builds on event ${from}`).toBe(true);
      });
    }
  });
});
