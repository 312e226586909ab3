export { platformMcpRoute, mcpRefusal } from './mcp-route.js';
export { platformMcpServer, DELEGATE_TOOL, PLATFORM_MCP_SERVER_INFO } from './delegate-server.js';
