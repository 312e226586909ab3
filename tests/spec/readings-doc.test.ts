import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

  test('every reading id a document, a source or a suite names is a reading of src/spec/readings/', () => {
    const known = new Set(READING_LIST.map((r) => r.id));
    const named: string[] = [];
    const walk = (path: string): void => {
      if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
      else if (/\.(md|ts)$/.test(path))
        for (const [id] of readFileSync(path, 'utf8').matchAll(/READING-[A-Z0-9]+(?:-[A-Z0-9]+)*/g)) named.push(`${id} (${path.slice(PROJECT_ROOT.length)})`);
    };
    for (const root of ['docs', 'src', 'suites', 'README.md']) walk(`${PROJECT_ROOT}${root}`);
    expect(named.length).toBeGreaterThan(known.size);
    expect(named.filter((n) => !known.has(n.split(' ')[0]!))).toEqual([]);
  });
});
