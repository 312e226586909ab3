import { join } from 'node:path';
import { ownVersion, packageRoot } from './package-root.js';

/** The package's version, from its package.json (found as packageRoot finds it). */
export function packageVersion(): string {
  const root = packageRoot();
  return (root === undefined ? undefined : ownVersion(join(root, 'package.json'))) ?? 'unknown';
}
