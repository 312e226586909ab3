import mcpAppsSchema from '@modelcontextprotocol/ext-apps/schema.json' with { type: 'json' };
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { MCP_APPS_SCHEMA_ID, WIDGET_MANIFEST_SCHEMA, WIDGET_MANIFEST_SCHEMA_ID } from './schema.js';

export interface ManifestValidators {
  readonly ajv: Ajv2020;
  readonly manifest: ValidateFunction;
  /** MCP Apps' own definitions, for what the platform emits (see mcp-apps.ts). */
  readonly mcpAppsResourceMeta: ValidateFunction;
  readonly mcpAppsToolMeta: ValidateFunction;
}

let compiled: ManifestValidators | undefined;

/** The widget.json schema and the MCP Apps schema it refers into, compiled once. */
export function manifestValidators(): ManifestValidators {
  if (compiled) return compiled;
  // verbose: errors carry their parent schema, whose x-hint and properties the plain-words messages read.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
  ajv.addSchema(mcpAppsSchema).addSchema(WIDGET_MANIFEST_SCHEMA);
  compiled = {
    ajv,
    manifest: ajv.getSchema(WIDGET_MANIFEST_SCHEMA_ID)!,
    mcpAppsResourceMeta: ajv.getSchema(`${MCP_APPS_SCHEMA_ID}#/$defs/McpUiResourceMeta`)!,
    mcpAppsToolMeta: ajv.getSchema(`${MCP_APPS_SCHEMA_ID}#/$defs/McpUiToolMeta`)!,
  };
  return compiled;
}
