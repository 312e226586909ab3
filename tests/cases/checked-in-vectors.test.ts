import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCaseFile } from '../../src/cases/load-case.js';
import { PROJECT_ROOT } from '../paths.js';

const path = 'vectors/signed-requests.json';

describe(path, () => {
  it('is a valid vectors file under vectors/schema', () => {
    const file = loadCaseFile(readFileSync(`${PROJECT_ROOT}${path}`, 'utf8'), path);
    expect(file.layout).toBe('vectors');
    expect(file.cases.length).toBeGreaterThan(0);
  });
});
