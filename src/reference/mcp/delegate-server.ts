import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../../purchase/wire/json.js';
import { delegateToolResult, type Delegate } from '../paid/delegate.js';
import { DELEGATE_OPERATION } from '../../spec/inband.js';

/**
 * The platform's MCP tool that runs the delegate operation (4.7). The spec names the operation and its status
 * member, not the tool: `delegate` and its one argument `call` (the delegated call, a JSON object) are the
 * reference's own names.
 */
export const DELEGATE_TOOL = DELEGATE_OPERATION;

/** The reference platform's MCP server name and version (MCP initialize's serverInfo). */
const PLATFORM_MCP_SERVER_INFO = Object.freeze({ name: 'reference-platform', version: '1.0.0' });

/**
 * The platform's MCP server for one verified caller: tools/list names the delegate tool; tools/call runs the
 * delegate for `payer` (null: a bearer naming no agent, who has no balance). A caller whose balance does not cover
 * the call gets `{status: "balance_required"}` and the call does not run (createDelegate).
 */
export function platformMcpServer(delegate: Delegate, payer: string | null): Server {
  const server = new Server(PLATFORM_MCP_SERVER_INFO, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: DELEGATE_TOOL.name,
        description:
          "Runs a delegated call funded from the caller's balance; status balance_required when the balance does not cover it (the call did not run).",
        inputSchema: { type: 'object' as const, properties: { [DELEGATE_TOOL.callArgument]: { type: 'object' } }, required: [DELEGATE_TOOL.callArgument] },
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    if (params.name !== DELEGATE_TOOL.name) throw new McpError(ErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const call = params.arguments?.[DELEGATE_TOOL.callArgument];
    if (!isJsonObject(call)) throw new McpError(ErrorCode.InvalidParams, `${DELEGATE_TOOL.name} takes arguments.${DELEGATE_TOOL.callArgument}, a JSON object`);
    const result = delegateToolResult(await delegate(payer, call));
    return { content: [...result.content], structuredContent: { ...result.structuredContent } };
  });

  return server;
}
