import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SignedRequestVectors } from '../../src/cases/types.js';

export function readVectors<T = SignedRequestVectors>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../vectors/${name}`, import.meta.url)), 'utf8')) as T;
}
