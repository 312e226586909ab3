import type { BrowserContext, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Target } from '../../src/harness/target.js';
import { BrowserHarness, type ExtraOrigins } from './browser.js';
import type { CheckContext } from './check.js';
import { suiteTarget } from './target.js';
import { WIDGET_HOST_POST_ID, widgetHostPageUrl } from '../../src/contract/widget-host.js';
import { REFERENCE_ONLY_ROUTES } from '../../src/spec/publish.js';
import { READINGS } from '../../src/spec/readings.js';
import { context as runContext } from './context.js';
import { callInWidget, HostPageMissing, hostLog, openHost, publishWidget, referenceHostPage, type CallOutcome, type HostQuery } from './widget-host.js';

export interface HostOptions {
  readonly query?: HostQuery;
  /** Members merged into the published widget's _meta.ui (csp, permissions). */
  readonly ui?: Readonly<Record<string, unknown>>;
  readonly files?: Readonly<Record<string, string>>;
  /** Fake timers in the pages (the retry checks advance them). */
  readonly clock?: boolean;
  readonly extra?: ExtraOrigins;
  /** What the widget frame must have before the check calls (default: the SDK's window.bridge). */
  readonly readyExpression?: string;
  /**
   * What of the reference's own host the check assumes (an operation's signature, a query member, a reserved name, a
   * threshold), none of which the spec shows: the check then runs on the reference's own host page only, and is
   * not-run on any other, saying so.
   */
  readonly assumes?: string;
  /** Query members only the reference's host page reads (with `assumes`), such as cache=down. */
  readonly referenceQuery?: Readonly<Record<string, string>>;
}

export interface Hosted {
  readonly page: Page;
  readonly frame: Frame;
  readonly context: BrowserContext;
  /** Runs a promise-valued expression over the SDK's globals in the widget's frame (with a fake clock: stepping it by `stepMs`). */
  call(expression: string, stepMs?: number): Promise<CallOutcome>;
  /** Like call, for an expression that must reject: the Error it rejected with. */
  reject(expression: string): Promise<Extract<CallOutcome, { ok: false }>>;
  /** How many calls of `op` the host saw, and when (page time). */
  attempts(op: string): Promise<Array<{ at: number; code?: string }>>;
  /** The same widget in another page of the host, for another session (a second user): its call. */
  open(query: HostQuery): Promise<(expression: string) => Promise<CallOutcome>>;
}

/** Why a check that assumes the reference host's own contract does not run on another host page. */
function referenceOnlyReason(assumes: string): string {
  return `runs on the reference's own host page only (${REFERENCE_ONLY_ROUTES.widgetHost}): it assumes ${assumes}, which the spec does not show (${READINGS.bridgeWire.id}, ${READINGS.unpublishedValues.id})`;
}

/** Why the host-side checks do not run live without the deployment's host page. */
const NO_WIDGET_HOST_REASON =
  "needs --widget-host-url URL: the deployment's widget host page, {postId} where the published widget goes (docs/contracts.md section 6); against serve: --widget-host-url <base-url>/_reference/widgets/{postId}/host";

/**
 * The browser side of the host-bridge suites: one browser per suite file; per check a deployment of its own (so a
 * fault the self-test switches on is in it), the suites' widget published there, and the deployment's reference host
 * page opened on it (live: the page `run --widget-host-url` names). Without Chromium, without the upload or without the
 * host page the check is not-run.
 */
export class HostChecks {
  private harness: BrowserHarness | undefined;
  private unavailable: string | undefined;
  private readonly timings: Array<{ check: string; ms: number }> = [];

  constructor(private readonly target: Target) {}

  async start(): Promise<void> {
    const chosen = runContext.chromiumPath;
    const h = await BrowserHarness.start(this.target, chosen === undefined ? undefined : { path: chosen, option: '--chromium' });
    if (typeof h === 'string') this.unavailable = h;
    else this.harness = h;
  }

  async close(): Promise<void> {
    await this.harness?.close();
    await this.target.close();
    if (process.env.APC_BROWSER_TIMINGS) for (const t of this.timings) console.log(`chromium ${t.ms} ms ${t.check}`);
  }

  /** Notes how long a check held the browser (APC_BROWSER_TIMINGS=1 prints them when the file ends). */
  time(check: string, ms: number): void {
    this.timings.push({ check, ms });
  }

  /**
   * The host page the checks drive, `{postId}` in it: in-process the reference's; live the one `run
   * --widget-host-url` names, else the check is not-run (a deployment's host page is its own to name).
   */
  hostPage(c: CheckContext, harness: BrowserHarness): string {
    const config = runContext.target;
    if (config.kind !== 'live') return referenceHostPage(harness.origin);
    return config.widgetHostUrl ?? c.notRun(NO_WIDGET_HOST_REASON);
  }

  /**
   * Whether the host page the checks drive is the reference's own (REFERENCE_ONLY_ROUTES.widgetHost): in-process, or
   * live when `run --widget-host-url` names that route on the deployment at --base-url (serve's own page).
   */
  referenceHost(): boolean {
    const config = runContext.target;
    if (config.kind !== 'live') return true;
    if (config.widgetHostUrl === undefined) return false;
    try {
      const named = new URL(config.widgetHostUrl.replaceAll(WIDGET_HOST_POST_ID, 'p'));
      const reference = new URL(REFERENCE_ONLY_ROUTES.widgetHost.replaceAll(WIDGET_HOST_POST_ID, 'p'), config.baseUrl);
      return named.origin === reference.origin && named.pathname === reference.pathname;
    } catch {
      return false;
    }
  }

  /** The harness, or the check is not-run. */
  browser(c: CheckContext): BrowserHarness {
    if (!this.harness) c.notRun(this.unavailable ?? 'needs Chromium');
    return this.harness;
  }

  /** Runs `fn` against a freshly published widget in the deployment's host page. */
  async withHost(c: CheckContext, name: string, options: HostOptions, fn: (h: Hosted) => Promise<void>): Promise<void> {
    const harness = this.browser(c);
    const hostPage = this.hostPage(c, harness);
    if (options.assumes !== undefined && !this.referenceHost()) c.notRun(referenceOnlyReason(options.assumes));
    const started = Date.now();
    const own = suiteTarget();
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    const others: Page[] = [];
    try {
      harness.use(own);
      const published = await publishWidget(own, name, options.ui, options.files);
      if ('reason' in published) return c.notRun(published.reason);
      const own_context = options.clock || options.extra;
      context = own_context
        ? await harness.ownContext({ ...(options.clock ? { clock: true } : {}), ...(options.extra ? { extra: options.extra } : {}) })
        : await harness.context();
      const pageUrl = (query: HostQuery | undefined, extra: Readonly<Record<string, string>> = {}) => {
        const url = new URL(widgetHostPageUrl(hostPage, published.postId, query));
        for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
        return url.href;
      };
      let opened: { page: Page; frame: Frame };
      try {
        opened = await openHost(context, pageUrl(options.query, options.referenceQuery), options.readyExpression);
      } catch (error) {
        if (error instanceof HostPageMissing) return c.notRun(`needs the deployment's widget host page (docs/contracts.md section 6): ${error.message}`);
        throw error;
      }
      page = opened.page;
      const frame = opened.frame;
      const hosted: Hosted = {
        page,
        frame,
        context,
        call: (expression, stepMs) => (options.clock ? settle(page!, frame, expression, 600, stepMs) : callInWidget(frame, expression)),
        reject: async (expression) => {
          const outcome = await hosted.call(expression);
          if (outcome.ok) expect.fail(`${expression} resolved with ${JSON.stringify(outcome.value)}; it must reject`);
          return outcome as Extract<CallOutcome, { ok: false }>;
        },
        attempts: async (op) => {
          const log = await hostLog(page!);
          if (!log) return c.notRun('needs window.__hostLog in the host page (docs/contracts.md section 6): this check counts the calls the host answered');
          return log.filter((e) => e.op === op);
        },
        open: async (query) => {
          const other = await openHost(context!, pageUrl(query), options.readyExpression);
          others.push(other.page);
          return (expression) => callInWidget(other.frame, expression);
        },
      };
      await fn(hosted);
    } finally {
      await page?.close().catch(() => undefined);
      for (const other of others) await other.close().catch(() => undefined);
      if (context && (options.clock || options.extra)) await context.close().catch(() => undefined);
      await own.close();
      this.timings.push({ check: name, ms: Date.now() - started });
    }
  }
}

/**
 * Runs a call in a page with fake timers: starts it, then advances the clock `stepMs` at a time (letting the page's
 * real work run in between) until it settles, so retry waits of seconds take milliseconds. The host's log then
 * has its times to within a step.
 */
export async function settle(page: Page, frame: Frame, expression: string, maxSeconds = 600, stepMs = 100): Promise<CallOutcome> {
  const slot = `__settle${Math.random().toString(36).slice(2)}`;
  await frame.evaluate(`(() => {
    window.${slot} = undefined;
    Promise.resolve().then(() => (${expression})).then(
      (value) => { window.${slot} = { ok: true, value }; },
      (e) => { window.${slot} = { ok: false, isError: e instanceof Error, code: e && e.code, message: String(e && e.message), name: String(e && e.name) }; },
    );
  })()`);
  for (let elapsed = 0; elapsed < maxSeconds * 1000; elapsed += stepMs) {
    const outcome = (await frame.evaluate(`window.${slot}`)) as CallOutcome | undefined;
    if (outcome) return outcome;
    await page.waitForTimeout(10);
    await page.clock.runFor(stepMs);
  }
  throw new Error(`${expression} did not settle within ${maxSeconds} s of page time`);
}
