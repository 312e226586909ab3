import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeReports } from '../../src/harness/write-reports.js';
import { failingReport } from '../harness/sample-reports.js';
import { CHROMIUM_LAUNCH_ARGS, CHROMIUM_PATH } from '../../suites/lib/browser.js';

/** report.html as a person sees it: opened in headless Chromium (Debian's, which .ci/run installs when absent). */
const available = existsSync(CHROMIUM_PATH);
let browser: Browser | undefined;

beforeAll(async () => {
  if (!available) return;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_LAUNCH_ARGS });
}, 60_000);
afterAll(async () => browser?.close());

describe('report.html in a browser', () => {
  test('shows the verdict, the counts and every check with its verdict, as report.json says', async (ctx) => {
    if (!browser && process.env.CI) throw new Error(`CI must have Chromium at ${CHROMIUM_PATH}: .ci/run installs Debian's chromium`);
    if (!browser) ctx.skip(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH, or run .ci/run, which installs Debian's chromium)`);
    const report = failingReport();
    const runDir = writeReports(mkdtempSync(join(tmpdir(), 'apc-html-')), report);
    const page = await browser!.newPage({ javaScriptEnabled: true });
    try {
      await page.goto(pathToFileURL(join(runDir, 'report.html')).href);
      expect(await page.locator('#verdict').textContent()).toBe('NOT CONFORMANT');
      const summary = page.locator('#summary');
      for (const verdict of ['pass', 'fail', 'warn', 'not-run', 'error'] as const) {
        expect(await summary.getAttribute(`data-${verdict}`), verdict).toBe(String(report.counts[verdict]));
      }
      const rows = page.locator('tr.row[data-verdict]');
      expect(await rows.count()).toBe(report.results.length);
      const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
      expect(shown.sort()).toEqual(report.results.map((r) => r.verdict).sort());
      const failure = report.results.find((r) => r.verdict === 'fail')!;
      const article = page.locator(`article.check[data-verdict="fail"]`).first();
      expect(await article.textContent()).toContain(failure.requirements[0]!);
      const exchange = article.locator('details.exchange').first();
      await exchange.locator('summary').first().click();
      expect(await exchange.locator('pre[data-part="request"]').first().textContent()).toContain('POST https://platform.example/api/auth/cli/token');
    } finally {
      await page.close();
    }
  }, 60_000);
});
