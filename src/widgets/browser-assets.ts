import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The generated browser scripts (scripts/browser-bundles.ts: `npm run build`, a build output), by name. */
export type BrowserAsset = 'sdk.v2.js' | 'host.v2.js' | 'scripted-host.js' | 'ext-apps-widget.js';

const cache = new Map<BrowserAsset, string>();

/** The package root: the nearest folder above this module with a package.json (src/ under tsx, dist/src/ when built). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the package root (package.json) was not found above the widget modules');
    dir = up;
  }
  return dir;
}

/** A generated browser script's text, read once: the reference serves them, and suites load the host-side ones into their own pages. */
export function browserAsset(name: BrowserAsset): string {
  let text = cache.get(name);
  if (text === undefined) {
    const path = join(packageRoot(), 'src', 'widgets', 'browser', 'generated', name);
    // A build output: a clone has it once `npm ci` (its prepare step) or `npm run build` ran.
    if (!existsSync(path)) throw new Error(`the browser script ${name} is not built: run npm run build (looked for ${path})`);
    text = readFileSync(path, 'utf8');
    cache.set(name, text);
  }
  return text;
}
