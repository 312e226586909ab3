import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

/** The Dockerfile is not built here (no Docker): what can be read of it is checked, as a linter would. */
const dockerfile = readFileSync(`${PROJECT_ROOT}Dockerfile`, 'utf8');
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.trimStart().startsWith('#'));
const pkg = JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { name: string; bin: Record<string, string> };

describe('Dockerfile', () => {
  it("runs the package's command on Debian's Node 20 with Debian's Chromium", () => {
    const froms = instructions.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:20-bookworm-slim( AS \w+)?$/);
    expect(instructions.some((l) => /^RUN apt-get update .*apt-get install -y --no-install-recommends .*\bchromium\b/.test(l))).toBe(true);
    expect(instructions).toContain('ENV CHROMIUM_PATH=/usr/bin/chromium');
    expect(Object.keys(pkg.bin)).toEqual([pkg.name]);
    expect(instructions).toContain(`ENTRYPOINT ["${pkg.name}"]`);
    expect(instructions.filter((l) => l.startsWith('ENTRYPOINT ')).length).toBe(1);
  });

  it('uses only instructions Docker knows, and runs as a user without root', () => {
    const known = ['FROM', 'RUN', 'COPY', 'ENV', 'WORKDIR', 'USER', 'ENTRYPOINT', 'CMD', 'ARG', 'LABEL'];
    for (const line of instructions) expect(known, line).toContain(line.split(' ')[0]);
    expect(instructions.filter((l) => l.startsWith('USER ')).at(-1)).toBe('USER node');
  });
});
