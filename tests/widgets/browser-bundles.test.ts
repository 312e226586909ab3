import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { BROWSER_BUNDLES, bundleBrowserScript } from '../../scripts/browser-bundles.js';

/** The browser bundles are built (npm run build, npm run vectors), not committed: they must be what their sources bundle to. */
describe('the generated browser bundles', () => {
  test('are the bundles of their sources (npm run build regenerates them)', async () => {
    for (const { entry, out } of BROWSER_BUNDLES) {
      expect(readFileSync(out, 'utf8') === (await bundleBrowserScript(entry)), `${out} is stale: run npm run build`).toBe(true);
    }
  }, 60_000);
});
