import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

/** Modules of the network: the undici fetcher and address policy live in their own entries (fetch/, net/). */
const NETWORK = [/^undici(\/|$)/, /^node:(net|http|https|http2|dns|tls|dgram)$/, /^(net|http|https|http2|dns|tls|dgram)$/];
const NETWORK_FOLDERS = ['src/fetch/', 'src/net/', 'src/reference/', 'src/stores/'];

const SPECIFIERS = /(?:^|[^\w.])(?:import|export)\s[^'"`;]*?from\s*'([^']+)'|(?:^|[^\w.])import\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** Every module `entry` reaches through static and dynamic imports (type-only imports included: they name the module too). */
function importGraph(entry: string): { modules: string[]; packages: Map<string, string> } {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const spec = (m[1] ?? m[2] ?? m[3]) as string;
      if (!spec.startsWith('.')) {
        packages.set(spec, relative(PROJECT_ROOT, file));
        continue;
      }
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      walk(existsSync(target) ? target : `${target.replace(/\.ts$/, '')}/index.ts`);
    }
  };
  walk(resolve(PROJECT_ROOT, entry));
  return { modules: [...seen].map((f) => relative(PROJECT_ROOT, f)), packages };
}

/** Issue 24: `agent-platform-conformance/verifier` is a pure core; the network adapter is reached from `./fetch`. */
describe('the verifier entry', () => {
  const graph = importGraph('src/verifier/index.ts');

  it('reaches no network package (undici, node:net, node:http and kin)', () => {
    const network = [...graph.packages].filter(([spec]) => NETWORK.some((re) => re.test(spec)));
    expect(network).toEqual([]);
  });

  it('reaches no module of the network adapters, the reference or the stores', () => {
    expect(graph.modules.filter((m) => NETWORK_FOLDERS.some((folder) => m.startsWith(folder)))).toEqual([]);
  });

  it('is walked for real (the walk finds the checks and a package)', () => {
    expect(graph.modules).toContain('src/verifier/checks-remote.ts');
    expect(graph.packages.has('structured-headers')).toBe(true);
  });

  it('the fetch entry, walked the same way, does reach undici (the walk can see it)', () => {
    expect([...importGraph('src/fetch/index.ts').packages.keys()]).toContain('undici');
  });
});
