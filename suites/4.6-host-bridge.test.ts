import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { WidgetSession } from '../src/harness/widget-session.js';
import { browserAsset } from '../src/widgets/browser-assets.js';
import { BRIDGE_ERROR_LIST, BRIDGE_ERRORS } from '../src/spec/bridge-errors.js';
import { LIMITS } from '../src/spec/limits.js';
import { READINGS } from '../src/spec/readings.js';
import { BUNDLE_REQUIREMENTS } from '../src/spec/publish-requirements.js';
import { REQUIREMENTS } from '../src/spec/requirements.js';
import { WIDGET_MANIFEST, WIDGET_SDK } from '../src/spec/widgets.js';
import { check, type CheckContext } from './lib/check.js';
import { checkTimeout } from './lib/context.js';
import { withManifest } from './lib/widgets.js';
import { HostChecks, settle } from './lib/host-check.js';
import { suiteTarget } from './lib/target.js';
import { callInWidget, hostLog, shimCall, SHIM_GLOBALS } from './lib/widget-host.js';

/**
 * Section 4.6 (and the sandbox of 2.5) in headless Chromium. Against the deployment's host page (the reference's, a
 * reference-only route): the three call surfaces reach one transport, a widget written with ext-apps' own App calls a
 * tool, and the browser enforces the CSP merged from the manifest and grants its permissions. Against any
 * deployment: the run plays the host around the deployment's own /widgets/sdk.v2.js and checks the SDK's side of
 * 7.1, the .code it rejects with and the retries it makes. bridge.openLink is judged by what the browser loads.
 */
const target = suiteTarget();
const hosts = new HostChecks(target);
const TIMEOUT_MS = checkTimeout(90_000);
const ALLOWED = 'api.allowed.example';
const BLOCKED = 'blocked.example';
const LINK_LISTED = 'links.listed.example';
const LINK_UNLISTED = 'links.unlisted.example';
/** How long the openLink check gives a link off the allowlist to settle; a host asking the user keeps it pending. */
const GATE_WAIT_MS = 2000;
/** The run's own origin for the host page it serves around the deployment's SDK. */
const RUN_HOST = 'https://conformance-host.test';

beforeAll(() => hosts.start(), 60_000);
afterAll(() => hosts.close());

const corsJson = () => ({ status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' }, body: '{"ok":true}' });

/** In the widget: fetches the allowed and the blocked domain, and reports their outcome and the CSP violations seen. */
const PROBE_CONNECT = `new Promise((resolve) => {
  const seen = [];
  document.addEventListener('securitypolicyviolation', (e) => seen.push({ uri: e.blockedURI, directive: e.effectiveDirective }));
  const probe = (url) => fetch(url).then((r) => r.status, () => 'failed');
  Promise.all([probe('https://${ALLOWED}/data'), probe('https://${BLOCKED}/data')]).then((statuses) => setTimeout(() => resolve({ statuses, seen }), 100));
})`;

/** The colour style.css gives the probe element, as getComputedStyle reports it. */
const ASSET_COLOR = 'rgb(1, 2, 3)';
/** A widget as an author writes one: the entry names its script and stylesheet by relative URL, beside it in the folder. */
const ASSET_WIDGET = {
  'index.html':
    '<!doctype html><html><head><title>asset widget</title><link rel="widget-manifest" href="widget.json"><link rel="stylesheet" href="style.css"><script src="app.js"></script></head><body><p id="asset-probe">forecast</p></body></html>',
  'app.js': `window.assetApp = bridge.callTool('forecast', { city: 'Bergen' });\n`,
  'style.css': `#asset-probe { color: ${ASSET_COLOR}; }\n`,
};

/** Every 7.1 code, and the CODE_TOO_LARGE and FN_NOT_FOUND of host.fn. */
const BRIDGE_CODES: unknown[] = BRIDGE_ERROR_LIST.map((r) => r.code);

/** The names of the shim globals the SDK defines in `frame` (READING-BRIDGE-WIRE); fails when there is none. */
async function shimGlobals(frame: Frame): Promise<string[]> {
  const found = await callInWidget(frame, SHIM_GLOBALS);
  const names = found.ok && Array.isArray(found.value) ? (found.value as string[]) : [];
  if (names.length === 0)
    expect.fail('the widget SDK defines no global other than bridge that exposes callTool (the ChatGPT-style shim of 4.6), nor a global function callTool');
  return names;
}

const RESOURCES = 'cdn.allowed.example';
const FRAMES = 'frames.allowed.example';
/** Where the resource probe loads each kind from, on a listed and on an unlisted domain. */
const RESOURCE_PATH = { img: '/pixel.png', script: '/lib.js', style: '/style.css' } as const;
/** A 1x1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const RESOURCE_FILES: Record<string, [string, string | Buffer]> = {
  [RESOURCE_PATH.img]: ['image/png', PIXEL],
  [RESOURCE_PATH.script]: ['text/javascript', 'window.__resourceScriptRan = true;'],
  [RESOURCE_PATH.style]: ['text/css', 'body { margin: 1px; }'],
};

/** In the widget: loads an image, a script, a stylesheet and a frame from a listed and an unlisted domain; reports what loaded and the violations. */
const PROBE_RESOURCES = `new Promise((resolve) => {
  const seen = [];
  document.addEventListener('securitypolicyviolation', (e) => seen.push({ uri: e.blockedURI, directive: e.effectiveDirective }));
  const loaded = {};
  const load = (kind, host, make) => new Promise((done) => {
    const el = make();
    el.onload = () => { loaded[kind + ':' + host] = 'loaded'; done(); };
    el.onerror = () => { loaded[kind + ':' + host] = 'failed'; done(); };
    setTimeout(() => done(), 3000);
    document.body.append(el);
  });
  const tag = (name, attrs) => () => Object.assign(document.createElement(name), attrs);
  const all = [];
  for (const host of ['${RESOURCES}', '${BLOCKED}']) {
    all.push(load('img', host, tag('img', { src: 'https://' + host + '${RESOURCE_PATH.img}' })));
    all.push(load('script', host, tag('script', { src: 'https://' + host + '${RESOURCE_PATH.script}' })));
    all.push(load('style', host, tag('link', { rel: 'stylesheet', href: 'https://' + host + '${RESOURCE_PATH.style}' })));
  }
  for (const host of ['${FRAMES}', '${BLOCKED}']) document.body.append(tag('iframe', { src: 'https://' + host + '/frame' })());
  Promise.all(all).then(() => setTimeout(() => resolve({ loaded, seen, ran: window.__resourceScriptRan === true }), 300));
})`;

type Probe = { statuses: Array<number | string>; seen: Array<{ uri: string; directive: string }> };

describe(`4.6 widget host bridge in Chromium (${target.description})`, () => {
  check({
    id: 'bridge.surfaces-one-transport',
    title: 'bridge.callTool, the callTool shim global and App.connect() each call a tool, all through the one transport the host answers',
    requirements: [REQUIREMENTS.widgetBridgeSurfaces.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      hosts.withHost(c, 'bridge-surfaces', { query: { user: 'alice' } }, async (h) => {
        const shims = await shimGlobals(h.frame);
        const surfaces: Record<string, [string, string]> = {
          'bridge.callTool': [`bridge.callTool('forecast', { city: 'Oslo' })`, 'Oslo'],
          ...Object.fromEntries(shims.map((name, i) => [`${name}.callTool (shim global)`, [shimCall(name, 'forecast', { city: `Lima${i}` }), `Lima${i}`]])),
          'App.connect()': [`new App().connect().then((app) => app.callTool('forecast', { city: 'Pune' }))`, 'Pune'],
        };
        const counted = await hostLog(h.page);
        let seen = counted?.filter((e) => e.op === 'callTool').length ?? 0;
        for (const [surface, [expression, city]] of Object.entries(surfaces)) {
          const outcome = await h.call(expression);
          expect(outcome.ok, `${surface} (${JSON.stringify(outcome)})`).toBe(true);
          // The tool's own answer for this call's city: the host ran the published tool (4.4), nothing answered alone.
          expect(JSON.stringify(outcome.ok && outcome.value), `${surface}: the tool's answer`).toContain(`sunny in ${city}`);
          if (!counted) continue;
          const calls = await h.attempts('callTool');
          expect(calls.length, `${surface} reached the host's one transport`).toBe(seen + 1);
          seen = calls.length;
        }
        // Equivalent surfaces fail alike: the shim rejects a call of a tool that does not exist as bridge.callTool does.
        const viaBridge = await h.reject(`bridge.callTool('no-such-tool', {})`);
        expect(BRIDGE_CODES, `bridge.callTool's .code for a tool that does not exist (${viaBridge.message})`).toContain(viaBridge.code);
        for (const name of shims) {
          const viaShim = await h.reject(shimCall(name, 'no-such-tool', {}));
          expect(viaShim.code, `${name}.callTool rejects like bridge.callTool, with the same .code`).toBe(viaBridge.code);
        }
      }),
  });

  check({
    id: 'bridge.model-only-tool-refused',
    title: 'the widget cannot invoke a tool whose visibility lacks app: bridge.callTool of a [model] tool rejects, while an app tool answers',
    requirements: [BUNDLE_REQUIREMENTS.toolVisibilityApp.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) => {
      const files = withManifest(
        'Conformance Model Only Widget',
        (m) => {
          (m.tools as unknown[]).push({
            name: 'summarise',
            description: 'For the model only',
            inputSchema: { type: 'object' },
            _meta: { ui: { visibility: ['model'] } },
          });
        },
        { [WIDGET_MANIFEST.defaultToolFile('summarise')]: `module.exports = () => { globalThis.ran = true; return { summary: 'ran for the widget' }; };\n` },
      );
      return hosts.withHost(c, 'bridge-model-only', { query: { user: 'alice' }, files }, async (h) => {
        expect((await h.call(`bridge.callTool('forecast', { city: 'Oslo' })`)).ok, 'forecast ([app, model]) answers the widget').toBe(true);
        const refused = await h.call(`bridge.callTool('summarise', {})`);
        expect(refused.ok, `summarise ([model]) answered the widget (${JSON.stringify(refused)}); only the widget UI's tools (app) are its to invoke`).toBe(
          false,
        );
        if (refused.ok) return;
        expect(refused.isError, 'an Error').toBe(true);
        expect(BRIDGE_CODES, `its .code, ${String(refused.code)} (${READINGS.toolVisibility.id})`).toContain(refused.code);
      });
    },
  });

  check({
    id: 'bridge.ext-apps-app',
    title: "a widget written with ext-apps' own App class calls a tool through the host (MCP Apps transport)",
    requirements: [REQUIREMENTS.widgetBridgeSurfaces.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) => {
      const inline = browserAsset('ext-apps-widget.js').replace(/<\/script/gi, '<\\/script');
      const entry = `<!doctype html><html><head><title>ext-apps widget</title><link rel="widget-manifest" href="widget.json"><script>${inline}</script></head><body></body></html>`;
      return hosts.withHost(
        c,
        'bridge-ext-apps',
        {
          query: { user: 'alice' },
          files: { 'index.html': entry },
          readyExpression: 'window.extApp !== undefined',
          assumes: "a host page that speaks MCP Apps' JSON-RPC (ext-apps' AppBridge) to a widget bringing its own ext-apps App",
        },
        async (h) => {
          const outcome = await h.call(`extApp.then((app) => app.callServerTool({ name: 'forecast', arguments: { city: 'Oslo' } }))`);
          expect(outcome.ok, `callServerTool (${JSON.stringify(outcome)})`).toBe(true);
          const result = (outcome as { value: { structuredContent?: { forecast?: unknown }; isError?: boolean } }).value;
          expect(result.isError ?? false, 'isError').toBe(false);
          expect(result.structuredContent?.forecast, "the tool's answer").toBe('sunny in Oslo');
        },
      );
    },
  });

  check({
    id: 'bridge.folder-assets',
    title:
      'a widget whose entry loads a script (app.js) and a stylesheet by relative URL renders with both: the script calls a tool through the bridge, the style applies',
    requirements: [REQUIREMENTS.widgetFolderAssets.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      hosts.withHost(
        c,
        'bridge-folder-assets',
        { query: { user: 'alice' }, files: ASSET_WIDGET, readyExpression: `window.bridge !== undefined && document.readyState === 'complete'` },
        async (h) => {
          const ran = await h.call(`Promise.resolve(typeof window.assetApp)`);
          expect(ran, `app.js, loaded by the entry's relative src, ran (${READINGS.folderAssets.id})`).toEqual({ ok: true, value: 'object' });
          const outcome = await h.call('window.assetApp');
          expect(outcome, "app.js's bridge.callTool").toEqual({ ok: true, value: { city: 'Bergen', forecast: 'sunny in Bergen' } });
          if (await hostLog(h.page)) expect((await h.attempts('callTool')).length, "app.js's call reached the host").toBe(1);
          const color = await h.call(`Promise.resolve(getComputedStyle(document.getElementById('asset-probe')).color)`);
          expect(color, "style.css, linked by the entry's relative href, applies").toEqual({ ok: true, value: ASSET_COLOR });
        },
      ),
  });

  check({
    id: 'bridge.csp-connect-enforced',
    title: 'the browser blocks a fetch to a domain connectDomains does not list (a securitypolicyviolation), and allows a listed one',
    requirements: [REQUIREMENTS.widgetCspRender.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      hosts.withHost(
        c,
        'bridge-csp-connect',
        { query: { user: 'alice' }, ui: { csp: { connectDomains: [ALLOWED] } }, extra: { [`https://${ALLOWED}`]: corsJson, [`https://${BLOCKED}`]: corsJson } },
        async (h) => {
          const outcome = await h.call(PROBE_CONNECT);
          const probe = (outcome as { value: Probe }).value;
          expect(probe.statuses[0], `a listed domain (${ALLOWED}) is reachable`).toBe(200);
          expect(probe.statuses[1], `an unlisted domain (${BLOCKED}) is not`).toBe('failed');
          expect(
            probe.seen.filter((v) => v.uri.includes(BLOCKED)).map((v) => v.directive),
            'the violation the browser reported',
          ).toEqual(['connect-src']);
          expect(
            probe.seen.filter((v) => v.uri.includes(ALLOWED)),
            'no violation for the listed domain',
          ).toEqual([]);
        },
      ),
  });

  check({
    id: 'bridge.csp-fallback-enforced',
    title: 'a bundle with one rejected CSP token renders under the restrictive default: even its listed domain is blocked',
    requirements: [REQUIREMENTS.widgetCspFallback.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      hosts.withHost(
        c,
        'bridge-csp-fallback',
        {
          query: { user: 'alice' },
          ui: { csp: { connectDomains: [ALLOWED, '*.wild.example'] } },
          extra: { [`https://${ALLOWED}`]: corsJson, [`https://${BLOCKED}`]: corsJson },
        },
        async (h) => {
          const probe = ((await h.call(PROBE_CONNECT)) as { value: Probe }).value;
          expect(probe.statuses, 'both fetches fail').toEqual(['failed', 'failed']);
          expect(
            probe.seen.filter((v) => v.uri.includes(ALLOWED)).map((v) => v.directive),
            `the listed ${ALLOWED} is blocked by connect-src`,
          ).toEqual(['connect-src']);
        },
      ),
  });

  check({
    id: 'bridge.csp-resource-frame-enforced',
    title:
      'a script, a stylesheet and an image load from a resourceDomains domain and a frame from a frameDomains one; from any other domain the browser blocks each',
    requirements: [BUNDLE_REQUIREMENTS.cspResourceDomains.id, BUNDLE_REQUIREMENTS.cspFrameDomains.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) => {
      const requested: string[] = [];
      const serve = (origin: string) => (path: string) => {
        requested.push(`${origin}${path}`);
        const [type, body] = RESOURCE_FILES[path] ?? ['text/html', '<!doctype html><title>framed</title>'];
        return { status: 200, headers: { 'content-type': type }, body };
      };
      return hosts.withHost(
        c,
        'bridge-csp-resource-frame',
        {
          query: { user: 'alice' },
          ui: { csp: { resourceDomains: [RESOURCES], frameDomains: [FRAMES] } },
          extra: Object.fromEntries([RESOURCES, FRAMES, BLOCKED].map((d) => [`https://${d}`, serve(`https://${d}`)])),
        },
        async (h) => {
          const outcome = await h.call(PROBE_RESOURCES);
          expect(outcome.ok, `the probe (${JSON.stringify(outcome)})`).toBe(true);
          const probe = (outcome as { value: { loaded: Record<string, string>; seen: Array<{ uri: string; directive: string }>; ran: boolean } }).value;
          const blockedBy = (host: string) => probe.seen.filter((v) => v.uri.includes(host)).map((v) => v.directive.replace(/-(elem|attr)$/, ''));
          for (const kind of ['img', 'script', 'style'] as const) {
            expect(probe.loaded[`${kind}:${RESOURCES}`], `a ${kind} from the listed ${RESOURCES} loads`).toBe('loaded');
            expect(requested, `the ${kind} from the unlisted ${BLOCKED} is never fetched`).not.toContain(`https://${BLOCKED}${RESOURCE_PATH[kind]}`);
          }
          expect(probe.ran, `the script from ${RESOURCES} ran`).toBe(true);
          expect(blockedBy(RESOURCES), `no violation for the listed ${RESOURCES}`).toEqual([]);
          expect(
            blockedBy(BLOCKED)
              .filter((d) => d !== 'frame-src')
              .sort(),
            `the violations reported for ${BLOCKED}'s script, stylesheet and image`,
          ).toEqual(['img-src', 'script-src', 'style-src']);
          for (let i = 0; i < 200 && !requested.includes(`https://${FRAMES}/frame`); i++) await h.page.waitForTimeout(25);
          expect(requested, `a frame from the listed ${FRAMES} is loaded`).toContain(`https://${FRAMES}/frame`);
          expect(blockedBy(FRAMES), `no violation for the listed ${FRAMES}`).toEqual([]);
          expect(requested, `a frame from the unlisted ${BLOCKED} is never fetched`).not.toContain(`https://${BLOCKED}/frame`);
          expect(blockedBy(BLOCKED), `the violation reported for ${BLOCKED}'s frame`).toContain('frame-src');
        },
      );
    },
  });

  check({
    id: 'bridge.permissions-allow',
    title: "the manifest's permissions reach the widget iframe: clipboard-write is allowed, a permission not asked for is not",
    requirements: [REQUIREMENTS.widgetPermissionsAllow.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      hosts.withHost(c, 'bridge-permissions', { query: { user: 'alice' }, ui: { permissions: ['clipboard-write'] } }, async (h) => {
        // The widget's own iframe element, wherever the host page puts it.
        const allow = await (await h.frame.frameElement()).getAttribute('allow');
        expect(String(allow).split(/\s*;\s*/), `the iframe's allow attribute (${READINGS.widgetPermissions.id})`).toContain('clipboard-write');
        const policy = await callInWidget(
          h.frame,
          `Promise.resolve({ clipboard: document.featurePolicy.allowsFeature('clipboard-write'), camera: document.featurePolicy.allowsFeature('camera') })`,
        );
        expect(policy, 'the permissions policy inside the widget').toEqual({ ok: true, value: { clipboard: true, camera: false } });
      }),
  });

  check({
    id: 'bridge.open-link-redirect-domains',
    title:
      'bridge.openLink opens a link on a redirectDomains domain (the browser loads it); a link on another domain is not opened, and a refusal carries permission or invalid_args',
    requirements: [REQUIREMENTS.widgetOpenLinkRedirectDomains.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) => {
      const loaded: string[] = [];
      const linkPage = (origin: string) => (path: string) => {
        loaded.push(`${origin}${path}`);
        return { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>opened</title>' };
      };
      const listed = `https://${LINK_LISTED}/listed`;
      const unlisted = `https://${LINK_UNLISTED}/unlisted`;
      return hosts.withHost(
        c,
        'bridge-open-link',
        {
          query: { user: 'alice' },
          ui: { csp: { redirectDomains: [LINK_LISTED] } },
          extra: { [`https://${LINK_LISTED}`]: linkPage(`https://${LINK_LISTED}`), [`https://${LINK_UNLISTED}`]: linkPage(`https://${LINK_UNLISTED}`) },
        },
        async (h) => {
          // The unlisted link first: a host that opened it would have loaded it by the time the listed one loads.
          const gated = await h.call(
            `Promise.race([bridge.openLink(${JSON.stringify(unlisted)}).then(() => 'resolved'), new Promise((r) => setTimeout(() => r('pending'), ${GATE_WAIT_MS}))])`,
          );
          if (!gated.ok) {
            expect(gated.isError, `the refused link rejects with an Error (${gated.message})`).toBe(true);
            expect(
              [BRIDGE_ERRORS.permission.code, BRIDGE_ERRORS.invalid_args.code],
              `the refused link's .code, ${String(gated.code)} (${READINGS.openLinkGate.id}: ${gated.message})`,
            ).toContain(gated.code);
          }
          const opened = await h.call(`bridge.openLink(${JSON.stringify(listed)})`);
          expect(opened, 'bridge.openLink of a link on a redirectDomains domain resolves').toMatchObject({ ok: true });
          for (let i = 0; i < 400 && !loaded.includes(listed); i++) await h.page.waitForTimeout(25);
          expect(loaded, `the browser loaded the link on the listed ${LINK_LISTED}`).toContain(listed);
          expect(
            loaded.filter((url) => url.startsWith(`https://${LINK_UNLISTED}`)),
            `the link on the unlisted ${LINK_UNLISTED} (the call ${gated.ok ? gated.value : `rejected with ${String(gated.code)}`})`,
          ).toEqual([]);
        },
      );
    },
  });

  check({
    id: 'bridge.sdk-handling',
    title: "the deployment's widget SDK, in a host the run plays, rejects with each 7.1 code as .code and retries as 7.1's handling column says",
    requirements: [REQUIREMENTS.widgetSdkErrorHandling.id, LIMITS.serviceUnavailableRetries.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      scriptedHost(c, 'bridge-sdk-handling', async (page, frame) => {
        for (const record of BRIDGE_ERROR_LIST) {
          const retryAfter = record.handling.kind === 'retry-after-window' ? 2 : undefined;
          await page.evaluate(
            `window.__hostLog = []; window.__script = { callTool: [{ error: ${JSON.stringify({ code: record.code, ...(retryAfter ? { retryAfter } : {}) })} }] }`,
          );
          const outcome = await settle(page, frame, `bridge.callTool('probe', {})`, 300, 250);
          expect(outcome.ok, `${record.code}: the call rejects`).toBe(false);
          if (outcome.ok) continue;
          expect(outcome.isError, `${record.code}: an Error`).toBe(true);
          expect(outcome.code, `${record.code}: the Error's .code mirrors the host's (${READINGS.bridgeWire.id})`).toBe(record.code);
          const log = (await page.evaluate('window.__hostLog')) as Array<{ at: number }>;
          const n = log.length;
          const gaps = log.slice(1).map((a, i) => a.at - log[i]!.at);
          switch (record.handling.kind) {
            case 'surface':
              expect(n, `${record.code} is surfaced: attempts`).toBe(1);
              break;
            case 'retry-once-then-surface':
              expect(n, `${record.code} is retried once: attempts`).toBe(2);
              break;
            case 'retry-at-most-once':
              expect(n, `${record.code} is retried at most once: attempts`).toBeLessThanOrEqual(2);
              break;
            case 'retry-after-window':
              expect(n, `${record.code} is retried after the window: attempts`).toBeGreaterThanOrEqual(2);
              // Page time is read to within a step of the fake clock (250 ms).
              for (const gap of gaps)
                expect(gap, `${record.code}: a retry waits Retry-After (${retryAfter} s)`).toBeGreaterThanOrEqual(retryAfter! * 1000 - 250);
              break;
            case 'exponential-backoff':
              expect(n, `${record.code}: attempts ("up to about 5")`).toBeGreaterThanOrEqual(LIMITS.serviceUnavailableRetries.value - 1);
              expect(n, `${record.code}: attempts ("up to about 5")`).toBeLessThanOrEqual(LIMITS.serviceUnavailableRetries.value + 1);
              for (let i = 1; i < gaps.length; i++)
                expect(gaps[i], `${record.code}: backoff ${i + 1} is longer than backoff ${i}`).toBeGreaterThan(gaps[i - 1]!);
              break;
          }
        }
      }),
  });

  check({
    id: 'bridge.sdk-surfaces',
    title: "the deployment's widget SDK, in a host the run plays: bridge.callTool, the callTool shim global and App.connect() reach the one transport",
    requirements: [REQUIREMENTS.widgetBridgeSurfaces.id],
    level: 'MUST',
    timeout: TIMEOUT_MS,
    run: (c) =>
      scriptedHost(c, 'bridge-sdk-surfaces', async (page, frame) => {
        const shims = await shimGlobals(frame);
        const surfaces: Record<string, string> = {
          'bridge.callTool': `bridge.callTool('probe', { n: 1 })`,
          ...Object.fromEntries(shims.map((name, i) => [`${name}.callTool (shim global)`, shimCall(name, 'probe', { n: 2 + i })])),
          'App.connect()': `new App().connect().then((app) => app.callTool('probe', { n: 0 }))`,
        };
        for (const [surface, expression] of Object.entries(surfaces)) {
          await page.evaluate(`window.__hostLog = []; window.__script = { callTool: [{ result: { answered: ${JSON.stringify(surface)} } }] }`);
          const outcome = await settle(page, frame, expression, 30, 250);
          expect(outcome, `${surface} resolves with what the host answered`).toEqual({ ok: true, value: { answered: surface } });
          expect(((await page.evaluate('window.__hostLog')) as unknown[]).length, `${surface}: calls the host saw on its transport`).toBe(1);
        }
      }),
  });
});

/**
 * The host the run plays (src/widgets/browser/scripted-host-entry.ts) around the deployment's own widget SDK, on the
 * run's own origin, with fake timers; `fn` scripts its answers and reads its log.
 */
async function scriptedHost(c: CheckContext, name: string, fn: (page: Page, frame: Frame) => Promise<void>): Promise<void> {
  const harness = hosts.browser(c);
  const started = Date.now();
  // The deployment's SDK, fetched by the run and served on the run's own origin: a page the run serves may not reach
  // into a loopback deployment (Chromium's private network access), and it is the same script.
  // A deployment of its own (prepared, so a fault the self-test switches on is in it).
  const own = suiteTarget();
  await new WidgetSession(own, 'bridge-sdk').open();
  const sdk = await own.send({ method: 'GET', url: `${own.environment.platformOrigin}${WIDGET_SDK.path}`, headers: [], body: null });
  await own.close();
  if (sdk.status !== 200) return c.notRun(`needs the widget SDK: ${WIDGET_SDK.path} answered ${sdk.status}`);
  const pages: Record<string, string> = {
    '/host': `<!doctype html><html><head><title>conformance host</title></head><body><script>${browserAsset('scripted-host.js').replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
    '/widget': `<!doctype html><html><head><title>widget</title><script src="${RUN_HOST}${WIDGET_SDK.path}"></script></head><body></body></html>`,
  };
  const context = await harness.ownContext({
    clock: true,
    extra: {
      [RUN_HOST]: (path) =>
        path === WIDGET_SDK.path
          ? { status: 200, headers: { 'content-type': 'text/javascript' }, body: Buffer.from(sdk.body) }
          : { status: pages[path] ? 200 : 404, headers: { 'content-type': 'text/html' }, body: pages[path] ?? '' },
    },
  });
  try {
    const page = await context.newPage();
    await page.goto(`${RUN_HOST}/host#widget=${encodeURIComponent(`${RUN_HOST}/widget`)}`);
    const frame = await waitForWidget(page);
    await expectMcpAppsWire(c, page, frame);
    await fn(page, frame);
  } finally {
    await context.close();
    hosts.time(name, Date.now() - started);
  }
}
/**
 * Whether the deployment's SDK speaks the wire the run's host plays (MCP Apps' JSON-RPC, READING-BRIDGE-WIRE): a
 * bridge.callTool that reaches the host as tools/call. An SDK that never made MCP Apps' handshake (ui/initialize) uses
 * another wire, which 4.6 does not show: the check is not-run. One that made it and still did not call is a fault.
 */
async function expectMcpAppsWire(c: CheckContext, page: Page, frame: Frame): Promise<void> {
  await page.evaluate(`window.__hostLog = []; window.__script = { callTool: [{ result: { wire: 'mcp-apps' } }] }`);
  const outcome = await settle(page, frame, `bridge.callTool('probe', {})`, 30, 250).catch((e: unknown) => ({ ok: false, unsettled: String(e) }));
  const calls = ((await page.evaluate('window.__hostLog')) as unknown[]).length;
  await page.evaluate('window.__hostLog = []; window.__script = {}');
  if (calls > 0) return;
  if (!(await page.evaluate('window.__hostInitialized')))
    c.notRun(
      `the deployment's widget SDK did not speak MCP Apps' JSON-RPC to the host the run plays (no ui/initialize, and bridge.callTool came to ${JSON.stringify(outcome)}); 4.6 does not show the wire, so the SDK's side of 7.1 cannot be observed without assuming it (${READINGS.bridgeWire.id})`,
    );
  expect.fail(`the SDK made MCP Apps' handshake, yet bridge.callTool never reached the host as tools/call (it came to ${JSON.stringify(outcome)})`);
}

async function waitForWidget(page: Page): Promise<Frame> {
  for (let i = 0; i < 400; i++) {
    const frame = page
      .mainFrame()
      .childFrames()
      .find((f) => f.url().endsWith('/widget'));
    if (frame && (await frame.evaluate('window.bridge !== undefined').catch(() => false))) return frame;
    await page.waitForTimeout(25);
  }
  throw new Error(`the deployment's ${WIDGET_SDK.path} defined no window.bridge in the widget`);
}
