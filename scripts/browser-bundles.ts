import { build, type Plugin } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The browser scripts the reference serves: the widget SDK (/widgets/sdk.v2.js) and the host page's script. */
export const BROWSER_BUNDLES = Object.freeze([
  { entry: 'src/widgets/browser/sdk-entry.ts', out: 'src/widgets/browser/generated/sdk.v2.js' },
  { entry: 'src/widgets/browser/host-entry.ts', out: 'src/widgets/browser/generated/host.v2.js' },
  { entry: 'src/widgets/browser/scripted-host-entry.ts', out: 'src/widgets/browser/generated/scripted-host.js' },
  { entry: 'src/widgets/browser/ext-apps-widget-entry.ts', out: 'src/widgets/browser/generated/ext-apps-widget.js' },
] as const);

const root = fileURLToPath(new URL('..', import.meta.url));

/** zod's error messages in English only: its other locales are most of the bundle and a widget never shows them. */
const englishZod: Plugin = {
  name: 'english-zod',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/** One browser bundle as text: an IIFE with its dependencies (ext-apps, zod, the bridge's pure core), minified. Deterministic. */
export async function bundleBrowserScript(entry: string): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [englishZod],
  });
  return result.outputFiles[0]!.text;
}

/**
 * Writes every bundle to its `out` (a build output, gitignored and shipped in the package's files): run by
 * `npm run build`, so by `prepare` on `npm ci`, and by `npm run vectors`. Returns what it wrote.
 */
export async function writeBrowserBundles(): Promise<string[]> {
  const written: string[] = [];
  for (const { entry, out } of BROWSER_BUNDLES) {
    const path = join(root, out);
    mkdirSync(dirname(path), { recursive: true });
    const text = await bundleBrowserScript(entry);
    writeFileSync(path, text);
    written.push(`${out}: ${text.length} bytes, bundled from ${entry}`);
  }
  return written;
}
