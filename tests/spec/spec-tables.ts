import { readFileSync } from 'node:fs';
import { PROJECT_ROOT } from '../paths.js';

export const SPEC_TEXT = readFileSync(`${PROJECT_ROOT}spec/agent-platform-interface.md`, 'utf8');

/** The body of section `### <number>` (or `## <number>`) up to the next heading of the same or higher level. */
export function sectionText(number: string): string {
  const lines = SPEC_TEXT.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^#{2,3} ${number.replace('.', '\\.')}\\.? `).test(l));
  if (start < 0) throw new Error(`section ${number} not found in the spec`);
  const level = lines[start]!.match(/^#+/)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.match(/^#+/)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The data rows of the first markdown table in a text, as arrays of trimmed cells. */
export function tableRows(text: string): string[][] {
  const rows = text.split('\n').filter((l) => l.startsWith('|'));
  return rows.slice(2).map((r) =>
    r
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim()),
  );
}
