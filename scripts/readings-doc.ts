import { READING_LIST, type ReadingRecord } from '../src/spec/readings.js';

/** docs/readings.md, written from the catalogue's readings (src/spec/readings/) by `npm run vectors`. */
export function readingsMarkdown(): string {
  const entry = (r: ReadingRecord) =>
    [
      `## ${r.point}`,
      '',
      `\`${r.id}\` · sections ${r.sections.join(', ')}`,
      '',
      `- **The spec:** ${r.text}`,
      ...(r.standard ? [`- **The standard it builds on:** ${r.standard}`] : []),
      `- **The suite accepts:** ${r.accepted}`,
      `- **Our reference:** ${r.reference}`,
      '',
    ].join('\n');
  return [
    '# Readings of the spec',
    '',
    '<!-- Written by `npm run vectors` from src/spec/readings/ (one file per area); edit those files, not this one. -->',
    '',
    'Where the spec leaves a point open (it is silent, says "not shown", gives a tolerance such as "about 10',
    'minutes", or its words allow more than one reading), this page says how the suite reads it: the spec\'s',
    'words, what the suite accepts from a deployment, and what our reference does and why. A check is a failure',
    'only where the text leaves no choice; a deployment that chose differently from our reference passes.',
    'The self-test proves it: conformant variants of the reference (src/variants/), each making another allowed',
    'choice, must pass every check.',
    '',
    ...READING_LIST.map(entry),
  ].join('\n');
}
