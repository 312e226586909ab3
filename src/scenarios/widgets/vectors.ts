import { isDeepStrictEqual } from 'node:util';
import { checkDispatch } from '../../widgets/bridge/operations.js';
import { nextStep } from '../../widgets/bridge/retry-policy.js';
import { checkBundle } from '../../widgets/bundle/check.js';
import { checkBareDomain } from '../../widgets/csp/bare-domain.js';
import { buildCspPolicy } from '../../widgets/csp/policy.js';
import { parseManifest } from '../../widgets/manifest/parse.js';
import { DISPATCH_SCENARIOS, RETRY_SCENARIOS } from './bridge.js';
import { BUNDLE_SCENARIOS, bundleFileBytes } from './bundles.js';
import { DOMAIN_SCENARIOS } from './domains.js';
import { MANIFEST_SCENARIOS } from './manifests.js';
import { POLICY_SCENARIOS } from './policies.js';

/** Bump when the generator changes what it writes for the same scenarios. */
const WIDGET_GENERATOR_VERSION = '1';
const WIDGET_VECTORS_SCHEMA = 'widgets.schema.json';

/** The retry policy options the bridge-retry cases assume (the defaults of nextStep). */
const RETRY_POLICY_DEFAULTS = { backoffBaseMs: 500, backoffMaxMs: 8000, maxAttempts: 5 } as const;

const WIDGET_FLAGS: Readonly<Record<string, string>> = {
  Valid: 'Accepted: a bare domain, a valid manifest or bundle, a dispatched operation.',
  Grammar: 'The bare-domain grammar: labels, length, characters, local and single-label names.',
  Wildcard: 'A wildcard, which 2.5 rejects in every form.',
  Keyword: 'A CSP keyword, nonce or hash, which only the host may set.',
  Scheme: 'A scheme, scheme source (data:, blob:) or origin instead of a bare domain.',
  PortOrPath: 'A port, path, query, fragment or user name beside the domain.',
  IpLiteral: 'An IP literal in one of its spellings (dotted, shorthand, integer, octal, hex, IPv6, bracketed, IPv4-mapped).',
  Merge: 'How the four lists merge with the default policy.',
  Fallback: 'A rejected entry: the whole bundle falls back to the restrictive default policy.',
  Defaults: 'The defaults 2.5 gives, applied.',
  Shape: 'A member of widget.json with the wrong type, value or name.',
  Syntax: 'widget.json does not parse as JSON.',
  McpAppsField: 'An MCP Apps (SEP-1865) form that widget.json writes differently or not at all.',
  Link: 'The HTML entry and its rel="widget-manifest" link.',
  Tools: 'Each declared tool has its source file.',
  Limit: 'The 64 KB function source limit (section 8), on and over the boundary.',
  SingleFile: 'A single HTML file wrapped into a one-child folder.',
  Assets: 'Files the manifest names (icon, theme).',
  Retry: 'The 7.1 handling says retry.',
  Surface: 'The 7.1 handling says surface (possibly with sign-in or release-slot).',
  UnknownOp: 'No handler for the operation: unknown_op (sections 7.1 and 9).',
};

/** Builds vectors/widgets.json; refuses to write a case whose stated expectation the cores disagree with. */
export async function widgetVectors(): Promise<WidgetVectors> {
  const testGroups: WidgetVectorGroup[] = [
    {
      type: 'bare-domain',
      comment: "CSP list entries (2.5): a bare domain or not. `reason` is this implementation's classification, informative only.",
      cases: DOMAIN_SCENARIOS.map((s) => {
        const v = checkBareDomain(s.domain);
        agree(s.id, v.ok ? null : v.reason, s.reject);
        return {
          id: s.id,
          ...(s.comment ? { comment: s.comment } : {}),
          domain: s.domain,
          result: s.reject ? 'invalid' : 'valid',
          ...(s.reject ? { reason: s.reject } : {}),
          flags: s.flags,
        };
      }),
    },
    {
      type: 'csp-policy',
      comment: 'The four lists of _meta.ui.csp merged with the default policy, or the fallback when an entry is rejected.',
      cases: POLICY_SCENARIOS.map((s) => {
        const p = buildCspPolicy(s.csp);
        agree(s.id, [p.policy, p.fallback, p.openLinkAllowlist, p.rejected.map((r) => r.path)], [s.policy, s.fallback, s.openLinkAllowlist, s.rejected]);
        return {
          id: s.id,
          comment: s.comment,
          csp: s.csp,
          policy: s.policy,
          fallback: s.fallback,
          openLinkAllowlist: s.openLinkAllowlist,
          rejected: s.rejected,
          flags: s.flags,
        };
      }),
    },
    {
      type: 'manifest',
      comment: 'widget.json text in; valid with every default applied, or the problems by code and JSON pointer.',
      cases: MANIFEST_SCENARIOS.map((s) => {
        const r = parseManifest(s.manifest);
        agree(s.id, r.ok ? [[], plain(r.manifest)] : [r.errors.map(({ code, path }) => ({ code, path })), undefined], [s.errors, s.normalized]);
        return {
          id: s.id,
          comment: s.comment,
          manifest: s.manifest,
          result: s.errors.length === 0 ? 'valid' : 'invalid',
          errors: s.errors,
          ...(s.normalized ? { normalized: s.normalized } : {}),
          flags: s.flags,
        };
      }),
    },
    {
      type: 'bundle',
      comment: 'A folder (paths to text, or to `size` bytes of `fill`) in; the check-widget verdict, problems and CSP policy out.',
      cases: BUNDLE_SCENARIOS.map((s) => {
        const r = checkBundle(new Map(Object.entries(s.files).map(([path, f]) => [path, bundleFileBytes(f)])));
        agree(s.id, [r.errors.map(({ code, path }) => ({ code, path })), r.csp, r.entry ?? null], [s.errors, s.csp, s.entry]);
        return {
          id: s.id,
          comment: s.comment,
          files: s.files,
          result: s.errors.length === 0 ? 'valid' : 'invalid',
          errors: s.errors,
          csp: s.csp,
          entry: s.entry,
          flags: s.flags,
        };
      }),
    },
    {
      type: 'bridge-retry',
      comment: 'The 7.1 handling column as a retry policy: the code of a failed call and the attempt that failed in; the next step out.',
      policy: RETRY_POLICY_DEFAULTS,
      cases: RETRY_SCENARIOS.map((s) => {
        agree(s.id, nextStep(s.code, s.attempt, s.retryAfterSeconds, RETRY_POLICY_DEFAULTS), s.step);
        return { ...s };
      }),
    },
    {
      type: 'bridge-dispatch',
      comment:
        "Whether a host has a handler for an operation (7.1 unknown_op, section 9). The operation table is illustrative: the spec does not give each operation's version.",
      cases: DISPATCH_SCENARIOS.map((s) => {
        const v = checkDispatch(s.operation, s.host);
        agree(s.id, v.ok ? null : v.code, s.error);
        return {
          id: s.id,
          comment: s.comment,
          host: s.host,
          operation: s.operation,
          result: s.error === null ? 'valid' : 'invalid',
          error: s.error,
          flags: s.flags,
        };
      }),
    },
  ];
  return {
    algorithm: 'Widget bundles (2.5, 4.4-4.6): manifest schema, CSP bare domains and policy, bundle checks; host bridge errors (7.1, 9)',
    schema: WIDGET_VECTORS_SCHEMA,
    generatorVersion: WIDGET_GENERATOR_VERSION,
    numberOfTests: testGroups.reduce((n, g) => n + g.cases.length, 0),
    notes: WIDGET_FLAGS,
    testGroups,
  };
}

interface WidgetVectorGroup {
  readonly type: 'bare-domain' | 'csp-policy' | 'manifest' | 'bundle' | 'bridge-retry' | 'bridge-dispatch';
  readonly comment: string;
  readonly policy?: typeof RETRY_POLICY_DEFAULTS;
  readonly cases: ReadonlyArray<Readonly<Record<string, unknown>> & { readonly id: string; readonly flags: readonly string[] }>;
}

export interface WidgetVectors {
  readonly algorithm: string;
  readonly schema: string;
  readonly generatorVersion: string;
  readonly numberOfTests: number;
  readonly notes: Readonly<Record<string, string>>;
  readonly testGroups: readonly WidgetVectorGroup[];
}

function agree(id: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(plain(actual), plain(expected))) {
    throw new Error(`widget vector "${id}": the cores give ${JSON.stringify(actual)}, the scenario states ${JSON.stringify(expected)}`);
  }
}

/** JSON's view of a value (drops undefined members, freezes nothing). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
