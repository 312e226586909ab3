import { JsonSyntaxError, parseJson } from '../../schema/parse-json.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../spec/widgets.js';
import type { WidgetExpose, WidgetVisibility } from '../../spec/widgets.js';
import type { WidgetProblem } from '../problem.js';
import { describeManifestErrors } from './describe-errors.js';
import type { WidgetBilling, WidgetManifest, WidgetTool } from './types.js';
import { manifestValidators } from './validator.js';

export type ManifestResult = { readonly ok: true; readonly manifest: WidgetManifest } | { readonly ok: false; readonly errors: readonly WidgetProblem[] };

/**
 * Parses widget.json text (4.5 step 1) against the schema of 2.5 and applies the defaults: entry index.html,
 * mimeType text/html, empty CSP lists and permissions, _meta.platform.v 1, and per tool visibility [app],
 * file tools/<name>.js, runtime node20, expose []. Paths lose a leading './'. Never throws.
 */
export function parseManifest(text: string): ManifestResult {
  let data: unknown;
  try {
    data = parseJson(text, WIDGET_MANIFEST.fileName);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return fail([
      {
        code: WIDGET_PROBLEMS.manifestNotJson.code,
        path: WIDGET_MANIFEST.fileName,
        message: `is not valid JSON at line ${error.line}, column ${error.column}: ${error.problem}`,
      },
    ]);
  }
  return parseManifestValue(data);
}

/** The same checks on an already parsed value. */
export function parseManifestValue(data: unknown): ManifestResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail([
      {
        code: WIDGET_PROBLEMS.manifestInvalid.code,
        path: WIDGET_MANIFEST.fileName,
        message: `must hold a JSON object, not ${data === null ? 'null' : Array.isArray(data) ? 'a list' : `a ${typeof data}`}`,
      },
    ]);
  }
  const { manifest: validate } = manifestValidators();
  const errors = validate(data) ? [] : describeManifestErrors(validate.errors ?? []);
  const raw = data as RawManifest;
  if (errors.length === 0) errors.push(...toolProblems(raw.tools ?? []));
  return errors.length > 0 ? fail(errors) : { ok: true, manifest: normalize(raw) };
}

function fail(errors: WidgetProblem[]): ManifestResult {
  return { ok: false, errors };
}

/** What the schema cannot say: tool names are unique, and inputSchema is itself a valid JSON Schema. */
function toolProblems(tools: readonly RawTool[]): WidgetProblem[] {
  const problems: WidgetProblem[] = [];
  const firstIndex = new Map<string, number>();
  const { ajv } = manifestValidators();
  tools.forEach((tool, i) => {
    const first = firstIndex.get(tool.name);
    if (first === undefined) firstIndex.set(tool.name, i);
    else
      problems.push({
        code: WIDGET_PROBLEMS.manifestInvalid.code,
        path: `/tools/${i}/name`,
        message: `"${tool.name}" is already the name of /tools/${first}; tool names must be unique`,
      });
    if (tool.inputSchema !== undefined && !ajv.validateSchema(tool.inputSchema)) {
      for (const e of ajv.errors ?? []) {
        problems.push({
          code: WIDGET_PROBLEMS.manifestInvalid.code,
          path: `/tools/${i}/inputSchema${e.instancePath}`,
          message: `is not valid JSON Schema: ${e.message ?? e.keyword}`,
        });
      }
    }
  });
  return problems;
}

interface RawTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  _meta?: {
    ui?: { visibility?: WidgetVisibility[] };
    platform?: { file?: string; runtime?: string; expose?: WidgetExpose[]; billing?: WidgetBilling };
  };
}

interface RawManifest {
  name: string;
  version: string;
  description?: string;
  _meta?: {
    ui?: {
      resourceUri?: string;
      mimeType?: string;
      csp?: Partial<Record<'connectDomains' | 'resourceDomains' | 'frameDomains' | 'redirectDomains', string[]>>;
      permissions?: string[];
    };
    platform?: { v?: number; iconRef?: string; themeRef?: string; remixOf?: string };
  };
  tools?: RawTool[];
}

function normalize(raw: RawManifest): WidgetManifest {
  const ui = raw._meta?.ui ?? {};
  const platform = raw._meta?.platform ?? {};
  const csp = ui.csp ?? {};
  return {
    name: raw.name,
    version: raw.version,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    _meta: {
      ui: {
        resourceUri: folderPath(ui.resourceUri ?? WIDGET_MANIFEST.defaultEntry),
        mimeType: ui.mimeType ?? WIDGET_MANIFEST.mimeType,
        csp: {
          connectDomains: [...(csp.connectDomains ?? [])],
          resourceDomains: [...(csp.resourceDomains ?? [])],
          frameDomains: [...(csp.frameDomains ?? [])],
          redirectDomains: [...(csp.redirectDomains ?? [])],
        },
        permissions: [...(ui.permissions ?? [])],
      },
      platform: {
        v: platform.v ?? WIDGET_MANIFEST.schemaVersion,
        ...(platform.iconRef === undefined ? {} : { iconRef: folderPath(platform.iconRef) }),
        ...(platform.themeRef === undefined ? {} : { themeRef: folderPath(platform.themeRef) }),
        ...(platform.remixOf === undefined ? {} : { remixOf: platform.remixOf }),
      },
    },
    tools: (raw.tools ?? []).map(normalizeTool),
  };
}

function normalizeTool(raw: RawTool): WidgetTool {
  const platform = raw._meta?.platform ?? {};
  return {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    ...(raw.inputSchema === undefined ? {} : { inputSchema: raw.inputSchema }),
    _meta: {
      ui: { visibility: [...(raw._meta?.ui?.visibility ?? WIDGET_MANIFEST.defaultVisibility)] },
      platform: {
        file: folderPath(platform.file ?? WIDGET_MANIFEST.defaultToolFile(raw.name)),
        runtime: platform.runtime ?? WIDGET_MANIFEST.defaultRuntime,
        expose: [...(platform.expose ?? [])],
        ...(platform.billing === undefined ? {} : { billing: { currency: platform.billing.currency, amountNanocents: platform.billing.amountNanocents } }),
      },
    },
  };
}

/** A manifest path as a key of the bundle's file map. */
export function folderPath(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}
