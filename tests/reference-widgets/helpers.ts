import { Ajv2020 } from 'ajv/dist/2020.js';
import mcpAppsSchema from '@modelcontextprotocol/ext-apps/schema.json' with { type: 'json' };
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMemoryFetcher } from '../../src/fetch/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MCP_APPS_EXTENSION_ID } from '../../src/spec/publish.js';
import { MCP_APP_MIME_TYPE } from '../../src/spec/widgets.js';
import { createReferencePlatform, type ReferencePlatform } from '../../src/reference/platform.js';
import { createWidgetService, hashedUserDirectory, type WidgetService } from '../../src/reference/widgets/index.js';
import { counterIds } from '../../src/widgets/publish/index.js';

const AUTHORITY = 'platform.example';
export const ORIGIN = `https://${AUTHORITY}`;
const CLIENT_ADDRESS = '192.0.2.1';
const NOW = 1_800_000_000;

export interface WidgetPlatform {
  readonly platform: ReferencePlatform;
  readonly widgets: WidgetService;
  send(method: string, path: string, init?: { bearer?: string; body?: string; headers?: Record<string, string> }): Promise<Response>;
  /** A platform bearer for `subject`, and the user id the reference maps it to. */
  user(subject: string): Promise<{ bearer: string; userId: string }>;
}

/** The reference platform with its widget routes, deterministic ids and a fixed clock. */
export function widgetPlatform(): WidgetPlatform {
  const clock = { now: () => NOW };
  const widgets = createWidgetService({ clock, ids: counterIds() });
  const platform = createReferencePlatform({
    authority: AUTHORITY,
    clock,
    fetcher: createMemoryFetcher({}),
    widgets: false,
    routes: [...widgets.routes, widgets.agentRoute],
  });
  return {
    platform,
    widgets,
    send(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.bearer) headers[HEADERS.authorization] = `Bearer ${init.bearer}`;
      return platform.fetch(new Request(`${ORIGIN}${path}`, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) }), {
        clientAddress: CLIENT_ADDRESS,
      });
    },
    async user(subject) {
      const minted = await platform.tokens.mint(subject);
      const userId = hashedUserDirectory.userIdOf({ ok: true, kind: 'platform-token', subject, scopes: [] })!;
      return { bearer: minted.token, userId };
    },
  };
}

/** An MCP client (the SDK's, over Streamable HTTP) whose requests go to the platform's fetch handler. */
export async function mcpClient(platform: ReferencePlatform, url: string): Promise<Client> {
  const client = new Client(
    { name: 'conformance-tests', version: '1.0.0' },
    { capabilities: { extensions: { [MCP_APPS_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => platform.fetch(new Request(input, init), { clientAddress: CLIENT_ADDRESS }),
  });
  await client.connect(transport);
  return client;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(mcpAppsSchema);

/** A validator for one of MCP Apps' published definitions (McpUiResourceMeta, McpUiToolMeta, ...). */
export function mcpAppsDefinition(name: string) {
  const validate = ajv.getSchema(`${mcpAppsSchema.$id}#/$defs/${name}`);
  if (!validate) throw new Error(`MCP Apps' schema has no definition ${name}`);
  return validate;
}
