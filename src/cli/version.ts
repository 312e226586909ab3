import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'agent-platform-conformance';

/**
 * The package's version, from its package.json. Found by walking up from this module, which sits at
 * src/cli/ when run from source and dist/src/cli/ when built.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const found = readVersion(join(dir, 'package.json'));
    if (found !== undefined) return found;
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

function readVersion(path: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
    return pkg.name === PACKAGE_NAME && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
