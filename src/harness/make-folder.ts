import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const codeOf = (error: unknown) => (error as { code?: string }).code;

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(dir, { recursive: true })` spins for ever where the parent
 * exists and mkdir still answers ENOENT (under /proc, for one); here every failure is thrown, with its code.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    try {
      if (statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`${at} is a file, not a folder`), { code: 'ENOTDIR', path: at });
    } catch (error) {
      const parent = dirname(at);
      if (codeOf(error) !== 'ENOENT' || parent === at) throw error;
      missing.push(at);
      at = parent;
    }
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Another process made it meanwhile: as good as made here.
      if (codeOf(error) === 'EEXIST' && statSync(folder).isDirectory()) continue;
      throw error;
    }
  }
}
