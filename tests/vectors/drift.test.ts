import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { serializeVectors, signedRequestVectors } from '../../src/scenarios/signed-request-vectors.js';
import { PROJECT_ROOT } from '../paths.js';

describe('checked-in vectors are exactly what their generator writes', () => {
  test('vectors/signed-requests.json (run `npm run vectors` after changing a scenario)', async () => {
    const onDisk = readFileSync(`${PROJECT_ROOT}vectors/signed-requests.json`, 'utf8');
    const generated = serializeVectors(await signedRequestVectors());
    expect(onDisk === generated, 'vectors/signed-requests.json differs from its generator: run `npm run vectors`').toBe(true);
  });

  test('the generator is deterministic', async () => {
    expect(serializeVectors(await signedRequestVectors())).toBe(serializeVectors(await signedRequestVectors()));
  });
});
