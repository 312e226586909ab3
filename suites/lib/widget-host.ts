import type { BrowserContext, Frame, Page } from 'playwright-core';
import { suiteWidgetFiles } from '../../src/harness/widget-bundle.js';
import { jsonBody, WidgetSession } from '../../src/harness/widget-session.js';
import type { Target } from '../../src/harness/target.js';
import type { WidgetHostLogEntry, WidgetHostSession } from '../../src/contract/widget-host.js';
import { REFERENCE_ONLY_ROUTES } from '../../src/spec/publish.js';
import { WIDGET_MANIFEST } from '../../src/spec/widgets.js';

/** A widget the suite published on the target, or why it could not. */
export type Published = { readonly postId: string; readonly session: WidgetSession } | { readonly reason: string };

/**
 * Publishes the suites' widget (src/harness/widget-bundle.ts) with `ui` merged into its manifest's _meta.ui and `files`
 * added, through the reference-only upload and the publish of 4.4: a deployment without the upload is not-run.
 */
export async function publishWidget(
  target: Target,
  sessionId: string,
  ui: Readonly<Record<string, unknown>> = {},
  files: Readonly<Record<string, string>> = {},
): Promise<Published> {
  const session = new WidgetSession(target, sessionId);
  await session.open();
  const base = suiteWidgetFiles(`Conformance Host Widget ${sessionId}`);
  const manifest = JSON.parse(base[WIDGET_MANIFEST.fileName]!) as { _meta: { ui: Record<string, unknown> } };
  manifest._meta.ui = { ...manifest._meta.ui, ...ui };
  const upload = await session.uploadFolder('alice', { ...base, [WIDGET_MANIFEST.fileName]: JSON.stringify(manifest), ...files });
  const folderId = (jsonBody(upload.response) as { folderId?: unknown } | undefined)?.folderId;
  if (upload.response.status !== 201 || typeof folderId !== 'string') {
    return {
      reason: `needs a published widget: the deployment answered ${upload.response.status} to the reference-only upload ${REFERENCE_ONLY_ROUTES.folders}`,
    };
  }
  const published = await session.publish('alice', folderId);
  const postId = (jsonBody(published.response) as { postId?: unknown } | undefined)?.postId;
  if (published.response.status >= 300 || typeof postId !== 'string') return { reason: `publishing the suite's widget answered ${published.response.status}` };
  return { postId, session };
}

/** The session a check asks the host page for (docs/contracts.md section 6). */
export type HostQuery = WidgetHostSession;

/** The reference host page (REFERENCE_ONLY_ROUTES.widgetHost) on an origin, as a host page URL. */
export const referenceHostPage = (origin: string) => `${origin}${REFERENCE_ONLY_ROUTES.widgetHost}`;

export interface OpenHost {
  readonly page: Page;
  /** The widget's frame, its SDK loaded. */
  readonly frame: Frame;
}

/** Opens a host page and waits for the widget's frame with the SDK's globals. */
export async function openHost(context: BrowserContext, url: string, ready = 'window.bridge !== undefined'): Promise<OpenHost> {
  const page = await context.newPage();
  const answer = await page.goto(url, { waitUntil: 'commit' });
  if (answer?.status() !== 200) throw new HostPageMissing(`the host page ${url} answered ${answer?.status() ?? 'nothing'}`);
  const frameOf = () =>
    page
      .mainFrame()
      .childFrames()
      .find((f) => f.url() !== '' && f.url() !== 'about:blank');
  let frame = frameOf();
  for (let i = 0; !frame && i < 200; i++) {
    await page.waitForTimeout(25);
    frame = frameOf();
  }
  if (!frame) throw new Error('the host page rendered no widget frame');
  // Polled with evaluate (the debugger protocol), which the widget's CSP does not stop, unlike waitForFunction's eval.
  for (let i = 0; ; i++) {
    const done = await frame.evaluate(`Boolean(${ready})`).catch(() => false);
    if (done) break;
    if (i >= 400) throw new Error(`the widget frame never had ${ready}`);
    await page.waitForTimeout(25);
  }
  return { page, frame };
}

/** The host page of the deployment is not there (a deployment other than the reference): the check is not-run. */
export class HostPageMissing extends Error {}

/** What a bridge call in the widget came to: its value, or the Error it rejected with, as the page saw it. */
export type CallOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly isError: boolean; readonly code: unknown; readonly message: string; readonly name: string };

/** Runs `expression` (a promise-valued JavaScript expression over the SDK's globals) in the widget's frame. */
export async function callInWidget(frame: Frame, expression: string): Promise<CallOutcome> {
  // A string, evaluated by the browser's debugger protocol, so the widget's CSP (no unsafe-eval) does not stop it.
  return (await frame.evaluate(`(async () => {
    try { return { ok: true, value: await (${expression}) }; }
    catch (e) { return { ok: false, isError: e instanceof Error, code: e && e.code, message: String(e && e.message), name: String(e && e.name) }; }
  })()`)) as CallOutcome;
}
/** The calls the host page saw, oldest first (window.__hostLog, docs/contracts.md section 6); undefined when the page keeps none. */
export async function hostLog(page: Page): Promise<WidgetHostLogEntry[] | undefined> {
  const log = await page.evaluate('window.__hostLog');
  return Array.isArray(log) ? (log as WidgetHostLogEntry[]) : undefined;
}

/**
 * In the widget: the globals other than `bridge` that expose a callTool function, the ChatGPT-style shim of 4.6 under
 * whatever name the SDK gives it (READING-BRIDGE-WIRE); the bare global function callTool when no object exposes one.
 */
export const SHIM_GLOBALS = `(() => {
  const own = new Set([window, self, globalThis, top, parent, frames]);
  const names = Object.getOwnPropertyNames(window).filter((name) => {
    if (name === 'bridge') return false;
    try {
      const v = window[name];
      return v !== null && typeof v === 'object' && !own.has(v) && typeof v.callTool === 'function';
    } catch { return false; }
  });
  return Promise.resolve(names.length || typeof window.callTool !== 'function' ? names : ['callTool']);
})()`;

/** The expression calling a tool through the shim global `name` found by SHIM_GLOBALS. */
export function shimCall(name: string, tool: string, args: Readonly<Record<string, unknown>>): string {
  const target = name === 'callTool' ? 'window.callTool' : `window[${JSON.stringify(name)}].callTool`;
  return `${target}(${JSON.stringify(tool)}, ${JSON.stringify(args)})`;
}
