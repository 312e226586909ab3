import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FIGURE_DOCUMENTS, figures, withFigures } from '../../scripts/figures.js';
import { PROJECT_ROOT } from '../paths.js';

/** Figures in README and the docs come from the files the project generates, never from prose to keep by hand. */
describe('the figures of the documents', () => {
  const values = figures();
  for (const document of FIGURE_DOCUMENTS) {
    test(`${document} states the figures npm run vectors writes`, () => {
      const text = readFileSync(`${PROJECT_ROOT}${document}`, 'utf8');
      expect(text).toContain('<!-- figure:');
      expect(text, `run npm run vectors: ${document} drifted from scripts/figures.ts`).toBe(withFigures(text, values));
    });
  }

  test('a marker naming no figure is refused', () => {
    expect(() => withFigures('<!-- figure:nope -->1<!-- /figure -->', values)).toThrow(/no figure named nope/);
  });

  test('every figure is a non-empty text', () => {
    for (const [name, value] of Object.entries(values)) expect(value.length, name).toBeGreaterThan(0);
  });
});
