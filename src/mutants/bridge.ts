import type { WidgetServiceOptions } from '../reference/widgets/service.js';
import { BRIDGE_ERROR_LIST, BRIDGE_ERRORS } from '../spec/bridge-errors.js';
import { LIMITS } from '../spec/limits.js';
import { BUNDLE_REQUIREMENTS as B } from '../spec/publish-requirements.js';
import { REQUIREMENTS as R } from '../spec/requirements.js';
import { buildCspPolicy } from '../widgets/csp/index.js';
import { renderPolicy, type CspLists, type WidgetCspPolicy } from '../widgets/csp/policy.js';
import type { BridgeHost } from '../widgets/host/host-core.js';
import { BRIDGE_OPERATIONS } from '../widgets/host/operations.js';
import type { Mutant } from './types.js';

/** Sections 2.5 (the sandbox), 4.6 and 7.1: faults of the reference host and of the widget SDK it serves. */

type HostParts = Exclude<WidgetServiceOptions['host'], false | undefined>;
const host =
  (parts: HostParts) =>
  (o: WidgetServiceOptions): WidgetServiceOptions => ({ ...o, host: { ...(o.host || {}), ...parts } });
const sdk =
  (transform: (source: string) => string) =>
  (o: WidgetServiceOptions): WidgetServiceOptions => ({ ...o, sdkSource: transform });

/** A host that answers `code` with another code wherever it decides it. */
function misnaming(code: string, instead: string) {
  return (h: BridgeHost): BridgeHost => ({
    async dispatch(session, op, args) {
      const answer = await h.dispatch(session, op, args);
      return !answer.ok && answer.code === code ? { ...answer, code: instead } : answer;
    },
  });
}

/** After the SDK: every surface's rejection loses its .code (a plain Error with the message). */
const DROP_CODE = `;(() => {
  const strip = (f) => (...a) => f(...a).catch((e) => { throw new Error(e && e.message); });
  const walk = (o) => { for (const k of Object.keys(o)) { if (typeof o[k] === 'function') o[k] = strip(o[k]); else if (o[k] && typeof o[k] === 'object') walk(o[k]); } };
  walk(window.bridge); window.openai.callTool = window.bridge.callTool; window.callTool = window.bridge.callTool;
})();`;

/** After the SDK: every failed bridge.callTool is tried once more, whatever its code. */
const RETRY_ALL = `;(() => {
  const once = window.bridge.callTool;
  window.bridge.callTool = (n, a) => once(n, a).catch(() => once(n, a));
})();`;

/** After the SDK: the shim global answers without reaching the host. */
const DETACHED_SHIM = ';window.openai = { callTool: () => Promise.resolve({ forecast: "sunny in nowhere", answered: "openai.callTool (shim global)" }) };';

/** A merge that keeps the valid entries when one is rejected, instead of falling back as a whole. */
function partialMerge(csp: CspLists) {
  const valid = Object.fromEntries(
    Object.entries(csp ?? {}).map(([list, values]) => [list, (values ?? []).filter((v) => buildCspPolicy({ connectDomains: [v] }).rejected.length === 0)]),
  );
  return buildCspPolicy(valid as CspLists);
}

/** The policy with `directive`'s sources replaced by `sources`. */
function withSources(policy: WidgetCspPolicy, directive: string, sources: readonly string[]): WidgetCspPolicy {
  const directives = policy.directives.map(([d, s]): readonly [string, readonly string[]] => [d, d === directive ? sources : s]);
  return { ...policy, directives, policy: renderPolicy(directives) };
}

/** resourceDomains merged into img-src only: script-src and style-src keep the default sources. */
function imagesOnly(csp: CspLists): WidgetCspPolicy {
  const merged = buildCspPolicy(csp);
  const defaults = buildCspPolicy({ ...csp, resourceDomains: [] });
  const sourcesOf = (p: WidgetCspPolicy, d: string) => p.directives.find(([name]) => name === d)?.[1] ?? [];
  return withSources(withSources(merged, 'script-src', sourcesOf(defaults, 'script-src')), 'style-src', sourcesOf(defaults, 'style-src'));
}

export const BRIDGE_MUTANTS: readonly Mutant[] = [
  // unknown_op is decided in the host page (checkDispatch), before the server: bridge-host-ignores-versions breaks it there.
  ...BRIDGE_ERROR_LIST.filter((r) => r.code !== BRIDGE_ERRORS.unknown_op.code).map((record): Mutant => {
    const instead = record.code === BRIDGE_ERRORS.internal.code ? BRIDGE_ERRORS.not_found.code : BRIDGE_ERRORS.internal.code;
    return {
      id: `bridge-host-answers-${record.code.toLowerCase().replace(/_/g, '-')}-as-${instead.replace(/_/g, '-')}`,
      description: `the reference host answers ${instead} where 7.1 says ${record.code}`,
      requirements: [record.id],
      platform: { widgets: host({ wrap: misnaming(record.code, instead) }) },
    };
  }),
  {
    id: 'bridge-host-live-private-ignored',
    description: 'the reference host records no host.live id as private: any signed-in user attaches to one another created private',
    requirements: [BRIDGE_ERRORS.permission.id],
    platform: {
      widgets: host({
        wrap: (h) => ({
          dispatch: (s, op, args) =>
            h.dispatch(s, op, op === 'host.live' && args !== null && typeof args === 'object' ? { ...(args as object), private: false } : args),
        }),
      }),
    },
  },
  {
    id: 'bridge-host-live-fails-open',
    description: 'the reference host ignores its cache store being down: host.live answers as if it were up instead of failing closed',
    requirements: [BRIDGE_ERRORS.service_unavailable.id],
    platform: { widgets: host({ wrap: (h) => ({ dispatch: (s, op, args) => h.dispatch({ ...s, cacheDown: false }, op, args) }) }) },
  },
  {
    id: 'widget-host-ignores-visibility',
    description: "the reference host runs the widget's call of a tool whose visibility lacks app",
    requirements: [B.toolVisibilityApp.id],
    platform: { widgets: host({ appVisibility: false }) },
  },
  {
    id: 'bridge-host-ignores-versions',
    description: 'the reference host dispatches every operation whatever its bridge version, detached or not',
    requirements: [BRIDGE_ERRORS.unknown_op.id],
    platform: {
      widgets: host({ operations: Object.fromEntries(Object.keys(BRIDGE_OPERATIONS).map((name) => [name, { since: 1 }])) }),
    },
  },
  {
    id: 'widget-sdk-drops-code',
    description: 'the widget SDK rejects a failed bridge call with a plain Error, without the .code of the host',
    requirements: [R.widgetSdkErrorHandling.id, ...BRIDGE_ERROR_LIST.map((r) => r.id)],
    platform: { widgets: sdk((source) => source + DROP_CODE) },
  },
  {
    id: 'widget-sdk-retries-too-much',
    description: 'the widget SDK retries service_unavailable and rate_limited up to 10 attempts',
    requirements: [R.widgetSdkErrorHandling.id, LIMITS.serviceUnavailableRetries.id, BRIDGE_ERRORS.service_unavailable.id],
    platform: { widgets: sdk((source) => `window.__widgetSdkOptions = { retry: { maxAttempts: 10 } };\n${source}`) },
  },
  {
    id: 'widget-sdk-retries-every-failure',
    description: 'the widget SDK retries every failed bridge.callTool once, codes to surface included',
    requirements: [R.widgetSdkErrorHandling.id],
    platform: { widgets: sdk((source) => source + RETRY_ALL) },
  },
  {
    id: 'widget-sdk-shim-off-transport',
    description: "the widget SDK's callTool shim global answers by itself instead of calling the host",
    requirements: [R.widgetBridgeSurfaces.id],
    platform: { widgets: sdk((source) => source + DETACHED_SHIM) },
  },
  {
    id: 'widget-sandbox-without-csp',
    description: 'the reference host renders widgets with no Content-Security-Policy at all',
    requirements: [R.widgetCspRender.id, R.widgetCspFallback.id],
    platform: { widgets: host({ cspPolicy: (csp) => ({ ...buildCspPolicy(csp), policy: "default-src * 'unsafe-inline'" }) }) },
  },
  {
    id: 'widget-csp-resource-domains-dropped',
    description: "the reference host merges the manifest's lists without resourceDomains: a script, stylesheet or image from a listed domain is blocked",
    requirements: [B.cspResourceDomains.id],
    platform: { widgets: host({ cspPolicy: (csp) => buildCspPolicy({ ...csp, resourceDomains: [] }) }) },
  },
  {
    id: 'widget-csp-resource-domains-images-only',
    description: 'the reference host puts resourceDomains in img-src only, not in script-src and style-src',
    requirements: [B.cspResourceDomains.id],
    platform: { widgets: host({ cspPolicy: imagesOnly }) },
  },
  {
    id: 'widget-csp-frame-domains-dropped',
    description: "the reference host merges the manifest's lists without frameDomains: a frame from a listed domain is blocked",
    requirements: [B.cspFrameDomains.id],
    platform: { widgets: host({ cspPolicy: (csp) => buildCspPolicy({ ...csp, frameDomains: [] }) }) },
  },
  {
    id: 'widget-csp-frame-domains-any',
    description: 'the reference host lets the widget frame any https page (frame-src https:), whatever frameDomains lists',
    requirements: [B.cspFrameDomains.id],
    platform: { widgets: host({ cspPolicy: (csp) => withSources(buildCspPolicy(csp), 'frame-src', ['https:']) }) },
  },
  {
    id: 'widget-csp-partial-fallback',
    description: 'a bundle with a rejected CSP token keeps its valid entries instead of falling back to the default policy',
    requirements: [R.widgetCspFallback.id],
    platform: { widgets: host({ cspPolicy: partialMerge }) },
  },
  {
    id: 'widget-host-opens-any-link',
    description: 'the reference host opens every bridge.openLink URL, whatever redirectDomains lists',
    requirements: [R.widgetOpenLinkRedirectDomains.id],
    platform: { widgets: host({ openLinks: 'any' }) },
  },
  {
    id: 'widget-host-drops-redirect-domains',
    description: "the reference host loses the manifest's redirectDomains: a link on a listed domain is refused",
    requirements: [R.widgetOpenLinkRedirectDomains.id],
    platform: { widgets: host({ cspPolicy: (csp) => ({ ...buildCspPolicy(csp), openLinkAllowlist: [] }) }) },
  },
  {
    id: 'widget-host-refuses-link-as-internal',
    description: 'the reference host refuses a link off the redirectDomains allowlist with internal (a handler fault) instead of a refusal',
    requirements: [R.widgetOpenLinkRedirectDomains.id],
    platform: { widgets: host({ openLinkRefusal: BRIDGE_ERRORS.internal.code }) },
  },
  {
    id: 'widget-iframe-without-allow',
    description: "the reference host drops the manifest's permissions from the widget iframe's allow attribute",
    requirements: [R.widgetPermissionsAllow.id],
    platform: { widgets: host({ allow: () => '' }) },
  },
];
