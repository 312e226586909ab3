import { posix } from 'node:path';
import { LIMITS } from '../../spec/limits.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../spec/widgets.js';
import { buildCspPolicy, defaultCspPolicy } from '../csp/policy.js';
import type { CspLists } from '../csp/policy.js';
import { parseManifest } from '../manifest/parse.js';
import type { WidgetManifest } from '../manifest/types.js';
import type { WidgetProblem } from '../problem.js';
import { wrapSingleFile } from '../publish/rules.js';
import { findManifestLink } from './manifest-link.js';

export interface BundleReport {
  /** True when `errors` is empty. */
  readonly valid: boolean;
  readonly errors: readonly WidgetProblem[];
  /** The parsed manifest with defaults applied, when widget.json passes. */
  readonly manifest?: WidgetManifest;
  /** The policy the bundle would render with; fallback when a list entry is rejected or no lists could be read. */
  readonly csp: { readonly policy: string; readonly fallback: boolean };
  /** The HTML entry's folder path, when the folder has it. */
  readonly entry?: string;
  /**
   * The path of the single HTML file the folder was, when it was one: the publish wraps it into a one-child folder
   * (its entry, index.html) with a manifest the platform writes (2.5), and the bundle is judged as so wrapped.
   */
  readonly wrappedFrom?: string;
}

const FUNCTION_SOURCE_MAX = LIMITS.functionSourceSize.value;

/**
 * Checks a widget bundle (2.5, 4.5, 7.1): widget.json parses and has the 2.5 shape; every CSP list entry
 * is a bare domain; the HTML entry exists and links widget.json with rel="widget-manifest"; every tool
 * has its source, at most 64 KB (CODE_TOO_LARGE); the icon and theme the manifest names exist.
 * `files` maps folder-relative '/' paths to bytes. Pure; every problem is reported, not just the first.
 *
 * A folder that is a single HTML file is judged as the publish would take it (2.5: "A single HTML file is
 * auto-wrapped into a one-child folder on publish"): the file becomes the entry beside the manifest the platform
 * writes, so neither a missing widget.json nor a missing link is the author's fault; a widget-manifest link the
 * file does carry must still lead to widget.json.
 */
export function checkBundle(folder: ReadonlyMap<string, Uint8Array>): BundleReport {
  const wrapped = wrapSingleFile(folder);
  const wrappedFrom = wrapped ? [...folder.keys()][0] : undefined;
  const files = wrapped ? new Map([...wrapped.files, [WIDGET_MANIFEST.fileName, new TextEncoder().encode(wrapped.manifestText)]]) : folder;
  const errors: WidgetProblem[] = [];
  const manifestBytes = files.get(WIDGET_MANIFEST.fileName);
  let manifest: WidgetManifest | undefined;
  let cspLists: CspLists | undefined;
  if (manifestBytes === undefined) {
    errors.push({
      code: WIDGET_PROBLEMS.manifestMissing.code,
      path: WIDGET_MANIFEST.fileName,
      message: `is not in the folder: add ${WIDGET_MANIFEST.fileName} at the folder root with at least "name" and "version" (spec 2.5)`,
    });
  } else {
    const text = new TextDecoder().decode(manifestBytes);
    const parsed = parseManifest(text);
    if (parsed.ok) {
      manifest = parsed.manifest;
      cspLists = manifest._meta.ui.csp;
    } else {
      errors.push(...parsed.errors);
      cspLists = rawCspLists(text);
    }
  }

  const policy = cspLists ? buildCspPolicy(cspLists) : undefined;
  if (policy) {
    // An entry the schema already refused (not a string) is reported once, by the schema.
    const reported = new Set(errors.map((e) => e.path));
    errors.push(...policy.rejected.filter((r) => !reported.has(r.path)).map(({ code, path, message }) => ({ code, path, message })));
  }

  const entry = manifest?._meta.ui.resourceUri ?? WIDGET_MANIFEST.defaultEntry;
  const entryBytes = files.get(entry);
  if (entryBytes === undefined) {
    errors.push({
      code: WIDGET_PROBLEMS.entryMissing.code,
      path: entry,
      message:
        entry === WIDGET_MANIFEST.defaultEntry
          ? `is not in the folder: add the HTML entry ${entry}, or name another with _meta.ui.resourceUri`
          : `is not in the folder, but /_meta/ui/resourceUri names it as the HTML entry: add it or fix resourceUri`,
    });
  } else {
    const problem = linkProblem(new TextDecoder().decode(entryBytes), entry, wrappedFrom);
    if (problem) errors.push(problem);
  }

  if (manifest) errors.push(...toolProblems(manifest, files), ...assetProblems(manifest, files));

  return {
    valid: errors.length === 0,
    errors,
    ...(manifest ? { manifest } : {}),
    csp: policy ? { policy: policy.policy, fallback: policy.fallback } : { policy: defaultCspPolicy(), fallback: true },
    ...(entryBytes === undefined ? {} : { entry }),
    ...(wrappedFrom === undefined ? {} : { wrappedFrom }),
  };
}

/**
 * The entry's link to widget.json (2.5 folder layout). A wrapped single file need not carry one (the platform writes
 * the manifest beside it), but one it carries that leads elsewhere is the same fault as in a folder.
 */
function linkProblem(html: string, entry: string, wrappedFrom: string | undefined): WidgetProblem | undefined {
  const link = findManifestLink(html, entry);
  if (link.linked || (wrappedFrom !== undefined && link.hrefs.length === 0)) return undefined;
  const href = posix.relative(posix.dirname(`/${entry}`), `/${WIDGET_MANIFEST.fileName}`);
  const element = `<link rel="${WIDGET_MANIFEST.linkRel}" href="${href}">`;
  const hrefs = link.hrefs.map((h) => JSON.stringify(h)).join(', ');
  return {
    code: WIDGET_PROBLEMS.entryNotLinked.code,
    path: entry,
    message:
      wrappedFrom !== undefined
        ? `(the single file ${wrappedFrom}, which the publish wraps as ${entry} beside the ${WIDGET_MANIFEST.fileName} it writes) links its manifest as ${hrefs}, which does not lead there: write ${element} or drop the link`
        : link.hrefs.length === 0
          ? `has no link to its manifest: add ${element} to <head>`
          : `links its manifest as ${hrefs}, which does not lead to ${WIDGET_MANIFEST.fileName} from ${entry}: write ${element}`,
  };
}

function toolProblems(manifest: WidgetManifest, files: ReadonlyMap<string, Uint8Array>): WidgetProblem[] {
  const problems: WidgetProblem[] = [];
  manifest.tools.forEach((tool, i) => {
    const file = tool._meta.platform.file;
    const source = files.get(file);
    if (source === undefined) {
      problems.push({
        code: WIDGET_PROBLEMS.toolSourceMissing.code,
        path: file,
        message: `is not in the folder, but tool "${tool.name}" (/tools/${i}) needs it as its source: add it or set /tools/${i}/_meta/platform/file`,
      });
    } else if (source.byteLength > FUNCTION_SOURCE_MAX) {
      problems.push({
        code: WIDGET_PROBLEMS.codeTooLarge.code,
        path: file,
        message: `is ${source.byteLength} bytes; the source of tool "${tool.name}" may be at most ${FUNCTION_SOURCE_MAX} bytes (64 KB): split or minify it`,
      });
    }
  });
  return problems;
}

function assetProblems(manifest: WidgetManifest, files: ReadonlyMap<string, Uint8Array>): WidgetProblem[] {
  const { iconRef, themeRef } = manifest._meta.platform;
  const named: Array<[string | undefined, string]> = [
    [iconRef, '/_meta/platform/iconRef'],
    [themeRef, '/_meta/platform/themeRef'],
  ];
  return named
    .filter((n): n is [string, string] => n[0] !== undefined && !files.has(n[0]))
    .map(([path, pointer]) => ({
      code: WIDGET_PROBLEMS.assetMissing.code,
      path,
      message: `is not in the folder, but ${pointer} names it: add it or fix ${pointer}`,
    }));
}

/** The CSP lists of a widget.json that fails its schema elsewhere, so their entries are still checked. */
function rawCspLists(text: string): CspLists | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  const csp = (data as { _meta?: { ui?: { csp?: unknown } } } | null)?._meta?.ui?.csp;
  if (typeof csp !== 'object' || csp === null) return undefined;
  const lists: Record<string, unknown[]> = {};
  for (const [name, value] of Object.entries(csp)) if (Array.isArray(value)) lists[name] = value;
  return lists;
}
