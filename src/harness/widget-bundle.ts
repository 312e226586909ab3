import { WIDGET_MANIFEST } from '../spec/widgets.js';

/** The element id the suites' widget entry carries, so a check can tell its HTML from any other. */
export const SUITE_WIDGET_MARKER = 'conformance-widget-root';

export type SuiteTool = 'forecast' | 'refresh';

/** Variations of the suites' bundle: a tool's `_meta.platform` (expose, billing), the entry's CSP lists. */
export interface SuiteWidgetOptions {
  readonly tools?: Partial<Record<SuiteTool, Readonly<Record<string, unknown>>>>;
  readonly csp?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The widget bundle the 4.4 and 4.5 suites publish: an HTML entry linking widget.json, and two tools, `forecast`
 * (visibility app and model) and `refresh` (visibility left to its default, app). Files by folder path, as text.
 * The tool sources follow the reference runtime's contract (module.exports is the function).
 */
export function suiteWidgetFiles(name: string, options: SuiteWidgetOptions = {}): Record<string, string> {
  const platformOf = (tool: SuiteTool) => (options.tools?.[tool] ? { platform: options.tools[tool] } : {});
  const manifest = {
    name,
    version: '1.0.0',
    description: 'A widget the conformance suites publish',
    _meta: {
      ui: { resourceUri: WIDGET_MANIFEST.defaultEntry, mimeType: WIDGET_MANIFEST.mimeType, ...(options.csp ? { csp: options.csp } : {}) },
      platform: { v: WIDGET_MANIFEST.schemaVersion },
    },
    tools: [
      {
        name: 'forecast',
        description: 'Forecast for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        _meta: { ui: { visibility: ['app', 'model'] }, ...platformOf('forecast') },
      },
      {
        name: 'refresh',
        description: 'Reloads the widget',
        inputSchema: { type: 'object' },
        ...(options.tools?.refresh ? { _meta: platformOf('refresh') } : {}),
      },
    ],
  };
  return {
    [WIDGET_MANIFEST.fileName]: JSON.stringify(manifest, null, 2),
    [WIDGET_MANIFEST.defaultEntry]: `<!doctype html><html><head><title>${name}</title><link rel="${WIDGET_MANIFEST.linkRel}" href="${WIDGET_MANIFEST.fileName}"></head><body><div id="${SUITE_WIDGET_MARKER}"></div></body></html>`,
    [WIDGET_MANIFEST.defaultToolFile('forecast')]: `module.exports = async ({ city }) => ({ city, forecast: 'sunny in ' + city });\n`,
    [WIDGET_MANIFEST.defaultToolFile('refresh')]: `module.exports = () => ({ refreshed: true });\n`,
  };
}
