import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readingsMarkdown } from '../../scripts/readings-doc.js';
import { READING_LIST } from '../../src/spec/readings.js';
import { PROJECT_ROOT } from '../paths.js';

describe('the readings of the spec', () => {
  test('docs/readings.md is what npm run vectors writes from src/spec/readings/', () => {
    expect(readFileSync(`${PROJECT_ROOT}docs/readings.md`, 'utf8')).toBe(readingsMarkdown());
  });

  test("each reading has a unique id, the spec's words, what is accepted and what the reference does", () => {
    const ids = READING_LIST.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of READING_LIST) {
      expect(r.id).toMatch(/^READING-[A-Z0-9-]+$/);
      for (const field of [r.point, r.text, r.accepted, r.reference]) expect(field.length, `${r.id}`).toBeGreaterThan(5);
    }
  });
});
