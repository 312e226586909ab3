import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SignedRequestCase } from '../cases/types.js';
import { caseRequestBody } from '../cases/request-body.js';
import { Kit } from '../scenarios/kit.js';
import { HEADERS } from '../spec/headers.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import { MCP_APPS_EXTENSION_ID, REFERENCE_ONLY_ROUTES, WIDGET_ROUTES, widgetRoutePath } from '../spec/publish.js';
import { MCP_APP_MIME_TYPE } from '../spec/widgets.js';
import { WELL_KNOWN } from '../spec/wire.js';
import { recordRequest, recordResponse, type Exchange } from './exchange.js';
import type { Target, TargetResponse } from './target.js';

/** Who signs: the two agents of the scenario kit. */
export type WidgetCaller = 'alice' | 'bob';

export interface SentExchange {
  readonly response: TargetResponse;
  readonly exchange: Exchange;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const decoder = new TextDecoder();

export function jsonBody(response: TargetResponse): unknown {
  try {
    return JSON.parse(decoder.decode(response.body)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What the widget suites (4.4, 4.5) do on a target: sign requests as two agents (whose documents the target serves
 * for this session), upload and publish folders, read the catalog, and talk MCP to a widget's endpoint through the
 * target (so every MCP exchange is recorded like any other).
 */
export class WidgetSession {
  private serial = 0;
  private readonly exchanges: Exchange[] = [];

  constructor(
    readonly target: Target,
    readonly sessionId: string,
  ) {}

  /** A kit at the target's current time, with a session-unique case id so nonces never repeat. */
  private kit(): Kit {
    const env = this.target.environment;
    return new Kit(
      { now: env.now(), authority: env.authority, platformOrigin: env.platformOrigin, agentOrigin: env.agentOrigin(this.sessionId), nonce: env.nonce },
      `${this.sessionId}/${this.serial++}`,
    );
  }

  /** Puts both agents' key sets and cards where the target reads them. */
  async open(): Promise<void> {
    const kit = this.kit();
    const c: SignedRequestCase = {
      id: this.sessionId,
      description: 'widget suites: two agents that publish',
      platform: { authority: this.target.environment.authority },
      now: kit.now,
      documents: { ...kit.docs(kit.alice, [kit.A]), ...kit.docs(kit.bob, [kit.B]) },
      steps: [],
    };
    await this.target.prepare(c);
  }

  url(path: string): string {
    return `${this.target.environment.platformOrigin}${path}`;
  }

  /** Sends a request signed by `caller` (5.2); a JSON body when `body` is given. */
  async signed(caller: WidgetCaller, method: string, path: string, body?: unknown): Promise<SentExchange> {
    const kit = this.kit();
    const bodyText = body === undefined ? undefined : JSON.stringify(body);
    const request = kit.request({
      method,
      url: this.url(path),
      ...(caller === 'bob' ? { keySetUrl: kit.bob.keySetUrl, labels: [{ label: 'sig1', key: kit.B }] } : {}),
      ...(bodyText !== undefined ? { bodyText, headers: [[HEADERS.contentType, MEDIA_TYPES.json]] } : {}),
    });
    return this.send(request.method, request.url, request.headers, caseRequestBody(request));
  }

  async send(method: string, url: string, headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array | null): Promise<SentExchange> {
    const response = await this.target.send({ method, url, headers, body });
    const exchange = { request: recordRequest({ method, url, headers, body }), response: recordResponse(response) };
    this.exchanges.push(exchange);
    return { response, exchange };
  }

  /** Every exchange so far, oldest first (a failed check shows them). */
  recorded(): readonly Exchange[] {
    return [...this.exchanges];
  }

  /**
   * POST to the reference-only folder upload; not part of the spec (a real deployment answers 404). `remixOf` names
   * the catalog record the folder remixes, as the platform records a remix.
   */
  uploadFolder(caller: WidgetCaller, files: Readonly<Record<string, string>>, remixOf?: string): Promise<SentExchange> {
    return this.signed(caller, 'POST', REFERENCE_ONLY_ROUTES.folders, { files, ...(remixOf === undefined ? {} : { remixOf }) });
  }

  publish(caller: WidgetCaller, folderId: string): Promise<SentExchange> {
    return this.signed(caller, 'POST', widgetRoutePath(WIDGET_ROUTES.publish, folderId));
  }

  catalog(): Promise<SentExchange> {
    return this.send('GET', this.url(WELL_KNOWN.mcpWidgets), [], null);
  }

  mcpUrl(postId: string): string {
    return this.url(widgetRoutePath(WIDGET_ROUTES.mcp, postId));
  }

  /**
   * The MCP SDK's client over Streamable HTTP, its requests sent through the target; announcing MCP Apps support unless
   * `apps` is false (a client that renders no apps, as a model's host).
   */
  async mcpClient(postId: string, apps = true): Promise<Client> {
    const client = new Client(
      { name: 'agent-platform-conformance', version: '1.0.0' },
      { capabilities: apps ? { extensions: { [MCP_APPS_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } : {} },
    );
    const transport = new StreamableHTTPClientTransport(new URL(this.mcpUrl(postId)), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
        const { response } = await this.send(request.method, request.url, [...request.headers], body);
        const headers = new Headers(Object.entries(response.headers));
        return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, { status: response.status, headers });
      },
    });
    await client.connect(transport);
    return client;
  }
}
