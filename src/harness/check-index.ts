import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckIdentity } from '../contract/check.js';

/**
 * suites/checks.json: every check of the suites, with its file, so a run selecting a few requirements or checks
 * loads only the files that hold them. `npm run vectors` writes it; a full run compares it with the checks it
 * saw and fails as a harness error when they differ.
 */
export interface IndexedCheck extends CheckIdentity {
  readonly title: string;
  /** The suite file, relative to the package root (`suites/7.3-signed-requests.test.ts`). */
  readonly file: string;
  /** What it needs to run live beyond --base-url (suites/needs.json: src/harness/not-run-needs.ts ids); absent: nothing. */
  readonly needs?: readonly string[];
}

export interface CheckIndex {
  readonly checks: readonly IndexedCheck[];
}

export const CHECK_INDEX_FILE = 'suites/checks.json';

export function readCheckIndex(root: string): CheckIndex | undefined {
  const path = join(root, CHECK_INDEX_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as CheckIndex) : undefined;
}

export function writeCheckIndex(root: string, checks: readonly IndexedCheck[]): void {
  const sorted = [...checks].sort((a, b) => a.file.localeCompare(b.file) || a.id.localeCompare(b.id));
  const document = {
    $comment: 'Every check of suites/, written by `npm run vectors` (scripts/generate-vectors.ts); never edit by hand.',
    checks: sorted,
  };
  writeFileSync(join(root, CHECK_INDEX_FILE), `${JSON.stringify(document, null, 2)}\n`);
}

/** The checks of the index a selection of requirement ids and check ids names. */
export function indexedSelection(index: CheckIndex, ids: readonly string[]): IndexedCheck[] {
  return index.checks.filter((c) => ids.includes(c.id) || c.requirements.some((r) => ids.includes(r)));
}

/** How the checks a full run saw differ from the index; empty when they agree. */
export function indexDrift(index: CheckIndex, seen: readonly { readonly id: string; readonly suite: string }[]): string[] {
  const indexed = new Map(index.checks.map((c) => [c.id, c.file]));
  const ran = new Map(seen.map((c) => [c.id, c.suite]));
  const problems: string[] = [];
  for (const [id, file] of ran) if (indexed.get(id) !== file) problems.push(`check ${id} (${file}) is not in ${CHECK_INDEX_FILE} as such`);
  for (const [id, file] of indexed) if (!ran.has(id)) problems.push(`${CHECK_INDEX_FILE} lists check ${id} (${file}), which the suites no longer declare`);
  return problems;
}
