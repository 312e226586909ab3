import { CSP_LIST_DIRECTIVES, CSP_LISTS, DEFAULT_WIDGET_CSP, WIDGET_PROBLEMS } from '../../spec/widgets.js';
import type { CspListName } from '../../spec/widgets.js';
import type { WidgetProblem } from '../problem.js';
import { checkBareDomain } from './bare-domain.js';
import type { DomainRejection } from './bare-domain.js';

/** The four lists of _meta.ui.csp; absent lists are empty. */
export type CspLists = { readonly [L in CspListName]?: readonly unknown[] };

export interface RejectedDomain extends WidgetProblem {
  readonly list: CspListName;
  readonly index: number;
  readonly value: unknown;
  readonly reason: DomainRejection;
}

export type CspDirectives = ReadonlyArray<readonly [directive: string, sources: readonly string[]]>;

export interface WidgetCspPolicy {
  /** The Content-Security-Policy value the sandbox renders the widget with. */
  readonly policy: string;
  /** True when a rejected entry made the whole bundle fall back to the default policy (2.5). */
  readonly fallback: boolean;
  readonly directives: CspDirectives;
  /** redirectDomains: the bare domains bridge.openLink may open without the gate; empty on fallback. */
  readonly openLinkAllowlist: readonly string[];
  /** Every rejected entry, with its JSON pointer under `pointerBase`. */
  readonly rejected: readonly RejectedDomain[];
}

/** Where the lists sit in widget.json, for the pointers of rejected entries. */
export const CSP_POINTER = '/_meta/ui/csp';

/**
 * Merges the four lists with the default policy at render time (2.5): a directive keeps its default
 * sources, minus 'none', plus https:// origins of the declared domains (wss:// too for connect-src, as
 * WebSockets need their own scheme); schemeless sources never match in a sandboxed, opaque-origin frame.
 * One rejected entry anywhere and the whole bundle gets the default policy and no openLink allowlist.
 */
export function buildCspPolicy(csp: CspLists | undefined, pointerBase: string = CSP_POINTER): WidgetCspPolicy {
  const rejected: RejectedDomain[] = [];
  for (const list of CSP_LISTS) {
    (csp?.[list] ?? []).forEach((value, index) => {
      const verdict = checkBareDomain(value);
      if (!verdict.ok) {
        rejected.push({
          code: WIDGET_PROBLEMS.cspDomainRejected.code,
          path: `${pointerBase}/${list}/${index}`,
          message: `${verdict.message}; the whole bundle falls back to the default policy until it is fixed`,
          list,
          index,
          value,
          reason: verdict.reason,
        });
      }
    });
  }
  if (rejected.length > 0) return render(defaultDirectives(), true, [], rejected);

  const domains = (list: CspListName): string[] => unique((csp?.[list] ?? []) as string[]);
  const extra = new Map<string, string[]>();
  for (const list of CSP_LISTS) {
    const origins = domains(list).flatMap((d) => (list === 'connectDomains' ? [`https://${d}`, `wss://${d}`] : [`https://${d}`]));
    for (const directive of CSP_LIST_DIRECTIVES[list]) extra.set(directive, [...(extra.get(directive) ?? []), ...origins]);
  }
  const directives = DEFAULT_WIDGET_CSP.map(([directive, sources]): readonly [string, readonly string[]] => {
    const added = unique(extra.get(directive) ?? []);
    if (added.length === 0) return [directive, sources];
    return [directive, [...sources.filter((s) => s !== "'none'"), ...added]];
  });
  return render(directives, false, domains('redirectDomains'), []);
}

/** The restrictive default policy as one header value. */
export function defaultCspPolicy(): string {
  return renderPolicy(defaultDirectives());
}

export function renderPolicy(directives: CspDirectives): string {
  return directives.map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join('; ');
}

function defaultDirectives(): CspDirectives {
  return DEFAULT_WIDGET_CSP;
}

function render(directives: CspDirectives, fallback: boolean, openLinkAllowlist: readonly string[], rejected: readonly RejectedDomain[]): WidgetCspPolicy {
  return { policy: renderPolicy(directives), fallback, directives, openLinkAllowlist, rejected };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
