import { WIDGET_MANIFEST } from '../../src/spec/widgets.js';
import type { WidgetFolder } from '../../src/widgets/publish/index.js';

const encoder = new TextEncoder();

export const FORECAST_INPUT_SCHEMA = Object.freeze({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });

/** A widget.json with two tools: `forecast` (app and model, exposed as HTTP endpoint and tool, billable) and `refresh` (defaults). */
export function weatherManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Weather Card',
    version: '1.0.0',
    description: 'Shows the weather for a city',
    _meta: {
      ui: {
        resourceUri: 'index.html',
        mimeType: 'text/html',
        csp: { connectDomains: ['api.weather.example'], redirectDomains: ['weather.example'] },
        permissions: ['clipboard-write'],
      },
      platform: { v: 1, iconRef: 'icon.svg' },
    },
    tools: [
      {
        name: 'forecast',
        description: 'Forecast for a city',
        inputSchema: FORECAST_INPUT_SCHEMA,
        _meta: { ui: { visibility: ['app', 'model'] }, platform: { expose: ['http', 'tool'], billing: { currency: 'usd', amountNanocents: 2500 } } },
      },
      { name: 'refresh', description: 'Reloads the card', inputSchema: { type: 'object' } },
    ],
    ...overrides,
  };
}

const ENTRY_HTML = `<!doctype html><html><head><title>Weather</title><link rel="${WIDGET_MANIFEST.linkRel}" href="${WIDGET_MANIFEST.fileName}"></head><body><div id="app"></div></body></html>`;

export const FORECAST_SOURCE = `module.exports = async function ({ city }) { return { city, forecast: 'sunny in ' + city }; };`;
const REFRESH_SOURCE = `module.exports = () => ({ refreshed: true });`;

/** The files of a publishable folder; `extra` replaces or adds files (text). */
export function weatherFiles(extra: Record<string, string | Uint8Array> = {}, manifest: Record<string, unknown> = weatherManifest()): Map<string, Uint8Array> {
  const text: Record<string, string | Uint8Array> = {
    [WIDGET_MANIFEST.fileName]: JSON.stringify(manifest),
    'index.html': ENTRY_HTML,
    'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'tools/forecast.js': FORECAST_SOURCE,
    'tools/refresh.js': REFRESH_SOURCE,
    ...extra,
  };
  return new Map(Object.entries(text).map(([path, value]) => [path, typeof value === 'string' ? encoder.encode(value) : value] as const));
}

export function weatherFolder(id: string, ownerId: string, options: { files?: Map<string, Uint8Array>; remixOf?: string } = {}): WidgetFolder {
  return { id, ownerId, files: options.files ?? weatherFiles(), ...(options.remixOf !== undefined ? { remixOf: options.remixOf } : {}) };
}
