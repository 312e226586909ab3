import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { MCP_APP_MIME_TYPE } from '../../spec/widgets.js';
import { MCP_APPS_EXTENSION_ID, MCP_RESOURCE_NOT_FOUND } from '../../spec/publish.js';
import { manifestView, type CatalogRecord, type FunctionSourceRecord, type PostRecord, type ToolView } from '../../widgets/publish/index.js';
import { injectSdkScript } from '../../widgets/bundle/index.js';
import { resourceMeta, toolMeta, widgetResourceUri } from './mcp-app-meta.js';
import type { ToolRunner } from './tool-runner.js';

/** One published widget as its MCP endpoint exposes it. */
export interface ExposedWidget {
  readonly post: PostRecord;
  readonly catalog: CatalogRecord;
  readonly sources: readonly FunctionSourceRecord[];
  /** The platform's origin, where the injected widget SDK loads from. */
  readonly platformOrigin: string;
  /** Called once a tool answered, so the call is written (a charge or an attribution row, 2.5). */
  readonly answered?: (tool: ToolView) => Promise<void>;
  /** Whether the ui:// resource repeats the manifest's _meta.platform (true by default; READING-MCP-APP-PLATFORM-META). */
  readonly platformMeta?: boolean;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new WeakMap<object, ValidateFunction | Error>();

function validatorFor(schema: Readonly<Record<string, unknown>>): ValidateFunction | Error {
  let validator = validators.get(schema);
  if (!validator) {
    try {
      validator = ajv.compile(schema);
    } catch (error) {
      validator = error instanceof Error ? error : new Error(String(error));
    }
    validators.set(schema, validator);
  }
  return validator;
}

function failure(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: { code, message } } };
}

function success(value: unknown): CallToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...structured };
}

/**
 * The MCP server of one published widget (4.4), as an MCP App (SEP-1865): one `ui://` resource, the HTML entry with
 * the widget SDK injected (mimeType text/html;profile=mcp-app), and one tool per manifest tool, each linked to that
 * resource and carrying its visibility.
 *
 * Visibility: MCP Apps puts the filtering on the host ("hosts MUST NOT list tools that lack model to the agent";
 * "hosts MUST reject an app's tools/call for a tool that lacks app"), and a server cannot tell whether a call comes
 * from the model or from a view. So the server lists every tool with its visibility written out (never leaving a
 * host to assume the MCP Apps default [model, app], which would hand 2.5's app-only tools to the model), and the
 * host keeps app-only tools from the model while still proxying the view's calls to them.
 *
 * tools/call runs the tool's published source with the ToolRunner; arguments are checked against the tool's
 * inputSchema first. Failures are tool results with isError and a 7.1 code: invalid_args, FN_NOT_FOUND (the source
 * was refused at publish, e.g. CODE_TOO_LARGE), timeout, internal.
 */
export function widgetMcpServer(widget: ExposedWidget, runner: ToolRunner): Server {
  const { post, catalog, sources, platformOrigin } = widget;
  const manifest = catalog.snapshot.manifest;
  const view = manifestView(manifest);
  const uri = widgetResourceUri(post.id, catalog.snapshot.entryPath);
  const meta = resourceMeta(manifest, platformOrigin, widget.platformMeta ?? true);
  const server = new Server(
    { name: catalog.agentSlug, version: catalog.version },
    { capabilities: { resources: {}, tools: {}, extensions: { [MCP_APPS_EXTENSION_ID]: {} } } },
  );

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri, name: view.name, description: view.description, mimeType: MCP_APP_MIME_TYPE, _meta: meta }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => {
    if (params.uri !== uri || catalog.snapshot.entryHtml === null) {
      throw new McpError(
        MCP_RESOURCE_NOT_FOUND,
        catalog.snapshot.entryHtml === null ? `The widget's HTML entry ${catalog.snapshot.entryPath} was not in its folder at publish.` : 'Resource not found',
        { uri: params.uri },
      );
    }
    return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: injectSdkScript(catalog.snapshot.entryHtml, platformOrigin), _meta: meta }] };
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: view.tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { type: 'object' as const, ...tool.inputSchema },
      _meta: toolMeta(manifest.tools[i]!, uri),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const tool = view.tools.find((t) => t.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const refused = catalog.snapshot.refusedFunctions.find((r) => r.tool === tool.name);
    const source = sources.find((s) => s.tool === tool.name);
    if (!source) {
      const why = refused ? ` (refused at publish with ${refused.code}: ${refused.message})` : '';
      return failure(BRIDGE_ERRORS.FN_NOT_FOUND.code, `${tool.name} has no published function${why}.`);
    }
    const args = params.arguments ?? {};
    const validate = validatorFor(tool.inputSchema);
    if (validate instanceof Error) return failure(BRIDGE_ERRORS.internal.code, `The inputSchema of ${tool.name} does not compile: ${validate.message}`);
    if (!validate(args)) {
      const detail = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
      return failure(BRIDGE_ERRORS.invalid_args.code, `The arguments of ${tool.name} do not match its inputSchema: ${detail}`);
    }
    const result = await runner.run(source, args);
    if (!result.ok) return failure(result.code, result.message);
    await widget.answered?.(tool);
    return success(result.value);
  });

  return server;
}
