import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'agent-platform-conformance';

/** The version a package.json at `path` names, when it is this package's; undefined for any other file. */
export function ownVersion(path: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
    return pkg.name === PACKAGE_NAME && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The folder of the package's own package.json (the checkout, or where npm installed it), found by walking up from this
 * module, which sits at src/cli/ when run from source and dist/src/cli/ when built.
 */
export function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (ownVersion(join(dir, 'package.json')) !== undefined) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * A file the package ships (such as vectors/signed-requests.json) as a user in `cwd` can type it: relative when it lies
 * under `cwd` (a checkout, or node_modules/agent-platform-conformance/...), absolute otherwise (an npx cache).
 */
export function shippedFilePath(file: string, cwd: string): string {
  const root = packageRoot();
  if (root === undefined) return file;
  const path = relative(cwd, join(root, file));
  return path === '' || path.startsWith('..') || isAbsolute(path) ? join(root, file) : path;
}
