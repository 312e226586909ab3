import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAsset } from '../../src/widgets/browser-assets.js';
import { BRIDGE_ERROR_LIST } from '../../src/spec/bridge-errors.js';
import { BridgeError, callWithRetry } from '../../src/widgets/bridge/index.js';
import { CHROMIUM_PATH } from '../../suites/lib/browser.js';
import { settle } from '../../suites/lib/host-check.js';

/** The browser SDK (/widgets/sdk.v2.js) and the pure retry policy agree: same attempts, same waits, for every code. */
const HOST = 'https://policy-host.test';
const STEP_MS = 50;
let browser: Browser | undefined;

beforeAll(async () => {
  if (existsSync(CHROMIUM_PATH)) browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => browser?.close());

/** What the pure core does with a call that always fails with `code`: its attempts and the waits between them. */
async function nodePolicy(code: string, retryAfter?: number): Promise<{ attempts: number; waits: number[] }> {
  let attempts = 0;
  const waits: number[] = [];
  await callWithRetry(
    async () => {
      attempts++;
      throw new BridgeError(code, code, retryAfter);
    },
    { sleep: async (ms) => void waits.push(ms) },
  ).catch(() => undefined);
  return { attempts, waits };
}

describe('the browser SDK follows the pure retry policy', () => {
  test('for every 7.1 code and an unknown one: the attempts the host sees and the waits between them', async (ctx) => {
    if (!browser && process.env.CI) throw new Error(`CI must have Chromium at ${CHROMIUM_PATH}`);
    if (!browser) return ctx.skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    const pages: Record<string, string> = {
      '/host': `<!doctype html><body><script>${browserAsset('scripted-host.js').replace(/<\/script/gi, '<\\/script')}</script></body>`,
      '/widget': `<!doctype html><head><script>${browserAsset('sdk.v2.js').replace(/<\/script/gi, '<\\/script')}</script></head>`,
    };
    const context = await browser.newContext();
    await context.clock.install();
    // Paused: page time moves only when settle() steps it, so the waits are measured exactly (to a step).
    await context.clock.pauseAt(Date.now() + 60_000);
    await context.route(`${HOST}/**`, (route) =>
      route.fulfill({ status: 200, headers: { 'content-type': 'text/html' }, body: pages[new URL(route.request().url()).pathname] ?? '' }),
    );
    const page = await context.newPage();
    await page.goto(`${HOST}/host#widget=${encodeURIComponent(`${HOST}/widget`)}`);
    let frame = page.mainFrame().childFrames()[0];
    for (let i = 0; i < 200 && !(frame && (await frame.evaluate('window.bridge !== undefined').catch(() => false))); i++) {
      await page.waitForTimeout(25);
      frame = page.mainFrame().childFrames()[0];
    }
    for (const [code, retryAfter] of [
      ...BRIDGE_ERROR_LIST.map((r) => [r.code, r.code === 'rate_limited' ? 1 : undefined] as const),
      ['weird_code', undefined] as const,
    ]) {
      await page.evaluate(
        `window.__hostLog = []; window.__script = { callTool: [{ error: ${JSON.stringify({ code, ...(retryAfter ? { retryAfter } : {}) })} }] }`,
      );
      const outcome = await settle(page, frame!, `bridge.callTool('x', {})`, 120, STEP_MS);
      expect(outcome, code).toMatchObject({ ok: false, code });
      const log = (await page.evaluate('window.__hostLog')) as Array<{ at: number }>;
      const node = await nodePolicy(code, retryAfter);
      expect(log.length, `${code}: attempts`).toBe(node.attempts);
      log.slice(1).forEach((a, i) => {
        const gap = a.at - log[i]!.at;
        // Page time is read in the host frame and in the widget frame, each to within a step of the fake clock.
        expect(gap, `${code}: wait ${i + 1}`).toBeGreaterThanOrEqual(node.waits[i]! - STEP_MS);
        expect(gap, `${code}: wait ${i + 1}`).toBeLessThanOrEqual(node.waits[i]! + 2 * STEP_MS);
      });
    }
    await context.close();
  });
});
