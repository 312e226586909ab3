import { escapePointer, typeWords, valueWords } from '../../schema/words.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { closestWord } from '../../schema/closest-word.js';
import { WIDGET_MANIFEST, WIDGET_PROBLEMS } from '../../spec/widgets.js';
import type { WidgetProblem } from '../problem.js';

/** MCP Apps members a widget.json author may bring along, and what to do instead. */
const MCP_APPS_MEMBERS: Readonly<Record<string, string>> = {
  '/_meta/ui/csp/baseUriDomains': "is an MCP Apps member widget.json does not take: base-uri stays 'self'; remove it",
  '/_meta/ui/domain': 'is an MCP Apps member widget.json does not take: the platform chooses the sandbox origin; remove it',
  '/_meta/ui/prefersBorder': 'is an MCP Apps member widget.json does not take; remove it',
  '/_meta/ui/visibility': 'belongs to each tool: move it to tools[i]._meta.ui.visibility',
  '/_meta/ui/tools': 'belongs at the top level: move it to "tools"',
};
const TOOL_MCP_APPS_MEMBERS: Readonly<Record<string, string>> = {
  resourceUri: 'is not needed in widget.json: every tool belongs to the widget whose entry is _meta.ui.resourceUri; remove it',
  csp: 'belongs to the widget, not a tool: move it to _meta.ui.csp at the top level',
  permissions: 'belongs to the widget, not a tool: move it to _meta.ui.permissions at the top level',
};

/** Plain-words problems, one per member at fault and thing wrong, in ajv's order. */
export function describeManifestErrors(errors: readonly ErrorObject[]): WidgetProblem[] {
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const problems: WidgetProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // The branches of an anyOf are reported once, by the anyOf itself.
    if (error.keyword !== 'anyOf' && anyOfAt.has(error.instancePath)) continue;
    const path = pointerOf(error);
    const message = messageOf(error, path);
    const key = `${path}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ code: WIDGET_PROBLEMS.manifestInvalid.code, path, message });
  }
  return problems;
}

function messageOf(error: ErrorObject, path: string): string {
  const params = error.params as Record<string, unknown>;
  const hint = (error.parentSchema as { 'x-hint'?: string } | undefined)?.['x-hint'];
  if (hint && ['pattern', 'const', 'minLength'].includes(error.keyword)) return `${shown(error.data)} ${hint}`;
  switch (error.keyword) {
    case 'required':
      return `is missing: ${requiredWords(path)}`;
    case 'additionalProperties':
      return unknownMember(String(params.additionalProperty), path, error.parentSchema);
    case 'type':
      return typeMessage(path, params.type, error.data);
    case 'enum':
      return `${shown(error.data)} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf':
      return /\/visibility\/\d+$/.test(path)
        ? `${shown(error.data)} is not a visibility: use ${WIDGET_MANIFEST.visibilities.map((v) => `"${v}"`).join(', ')}`
        : `${shown(error.data)} does not match any allowed form`;
    case 'uniqueItems':
      return `lists ${JSON.stringify((error.data as unknown[])[params.i as number])} twice (items ${String(params.j)} and ${String(params.i)}); list it once`;
    case 'minLength':
      return 'must not be empty';
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return `${shown(error.data)} does not have the required form`;
    default:
      return error.message ?? `fails the schema keyword ${error.keyword}`;
  }
}

function requiredWords(path: string): string {
  if (path === '/name') return 'a widget needs a "name" (a string)';
  if (path === '/version') return 'a widget needs a "version" string (spec section 9)';
  if (/^\/tools\/\d+\/name$/.test(path)) return 'every tool needs a "name"; its source defaults to tools/<name>.js';
  if (/\/billing\/currency$/.test(path)) return 'billing needs a "currency" (a string) beside amountNanocents';
  if (/\/billing\/amountNanocents$/.test(path)) return 'billing needs "amountNanocents", a whole number of nanocents';
  return 'this member is required';
}

function unknownMember(name: string, path: string, parentSchema: unknown): string {
  const known = MCP_APPS_MEMBERS[path] ?? (/^\/tools\/\d+\/_meta\/ui\/[^/]+$/.test(path) ? TOOL_MCP_APPS_MEMBERS[name] : undefined);
  if (known) return known;
  const allowed = Object.keys((parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const suggestion = closestWord(name, allowed);
  return suggestion
    ? `is not a member here (did you mean "${suggestion}"?)`
    : `is not a member here; this object takes only ${allowed.map((m) => `"${m}"`).join(', ')}`;
}

function typeMessage(path: string, type: unknown, data: unknown): string {
  if (path === '/_meta/ui/permissions' && isObject(data)) {
    return 'must be a list of permission names such as ["clipboard-write"] (MCP Apps writes an object; widget.json takes a list)';
  }
  if (/\/csp\/[a-zA-Z]+$/.test(path) && typeof data === 'string') return `must be a list of domains: write [${JSON.stringify(data)}]`;
  if (path === '') return `widget.json must hold a JSON object, not ${valueWords(data)}`;
  return `must be ${typeWords(type)}, not ${valueWords(data)}`;
}

function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const member = params.missingProperty ?? params.additionalProperty;
  return typeof member === 'string' ? `${error.instancePath}/${escapePointer(member)}` : error.instancePath;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
