import { test } from 'vitest';
import type { Level } from '../../src/spec/types.js';

/**
 * A conformance check: a vitest test whose name carries the requirement ids it checks and their level, in
 * the form `<name> [ID ID] (MUST)`, so reports can trace every result to the catalogue.
 */
export function check(name: string, requirements: readonly string[], level: Level, fn: () => Promise<void> | void, timeout?: number): void {
  test(`${name} [${requirements.join(' ')}] (${level})`, fn, timeout);
}
