import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { z } from 'zod';
import { BRIDGE_ERRORS } from '../../spec/bridge-errors.js';
import { checkDispatch, type BridgeOperation } from '../bridge/operations.js';
import { openLinkDecision } from '../csp/open-link.js';
import { BRIDGE_JSONRPC_ERROR, HOST_METHODS, type BridgeErrorData } from '../host/operations.js';

/** What the host page route writes into the page (src/reference/widgets/host-routes.ts). */
export interface HostPageConfig {
  readonly widgetUrl: string;
  readonly bridgeUrl: string;
  readonly sandbox: string;
  readonly allow: string;
  readonly version: number;
  /** The operations this host has handlers for, with the version each came in (BRIDGE_OPERATIONS). */
  readonly operations: Readonly<Record<string, BridgeOperation>>;
  readonly detached: boolean;
  readonly redirectDomains: readonly string[];
  /** 'allowlist': only links on a redirectDomains domain open (2.5); 'any' opens every link (a fault the self-test uses). */
  readonly openLinks: 'allowlist' | 'any';
  /** The 7.1 code of a refused link (permission: READING-OPEN-LINK-GATE). */
  readonly openLinkRefusal: string;
  readonly session: { readonly user?: string; readonly content: 'post' | 'catalog'; readonly cache?: 'down' };
}

/** One call as the host saw it, for whoever watches the page (the suites count retries with it). */
export interface HostLogEntry {
  readonly op: string;
  readonly at: number;
  readonly code?: string;
}

declare global {
  interface Window {
    __hostLog: HostLogEntry[];
    __hostReady: Promise<void>;
  }
}

/**
 * The reference host page's script (4.6): renders the widget in a sandboxed iframe and answers its bridge calls
 * with ext-apps' AppBridge over the MCP Apps postMessage transport. tools/call, ui/open-link and one custom method
 * per host.* operation go to the platform's bridge endpoint; a failure is a JSON-RPC error whose data carries the
 * 7.1 code (and Retry-After). Operations this host's version lacks, and server-mediated ones when detached, are
 * unknown_op here, without the server (checkDispatch).
 */
const config = JSON.parse(document.getElementById('host-config')!.textContent ?? '{}') as HostPageConfig;
window.__hostLog = [];
const hostInfo = { version: config.version, operations: config.operations, detached: config.detached };

class WireError extends Error {
  readonly code = BRIDGE_JSONRPC_ERROR;
  constructor(
    message: string,
    readonly data: BridgeErrorData,
  ) {
    super(message);
  }
}

function fail(op: string, code: string, message: string, retryAfter?: number): never {
  window.__hostLog.push({ op, at: Date.now(), code });
  throw new WireError(message, { code, ...(retryAfter === undefined ? {} : { retryAfter }) });
}

async function forward(op: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const verdict = checkDispatch(op, hostInfo);
  if (!verdict.ok) fail(op, verdict.code, verdict.message);
  let answer: { result?: Record<string, unknown>; error?: { code?: string; message?: string; retryAfter?: number } };
  try {
    const response = await fetch(config.bridgeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op, args, session: config.session }),
    });
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    return fail(op, BRIDGE_ERRORS.internal.code, `the platform did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (answer.error) return fail(op, answer.error.code ?? BRIDGE_ERRORS.internal.code, answer.error.message ?? 'bridge call failed', answer.error.retryAfter);
  window.__hostLog.push({ op, at: Date.now() });
  return answer.result ?? {};
}

const bridge = new AppBridge(null, { name: 'agent-platform-reference-host', version: String(config.version) }, { openLinks: {}, serverTools: {} });
bridge.oncalltool = async (params) => {
  const { value } = await forward('callTool', { name: params.name, args: params.arguments ?? {} });
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...structured };
};
bridge.onopenlink = async ({ url }) => {
  const verdict = checkDispatch('openLink', hostInfo);
  if (!verdict.ok) fail('openLink', verdict.code, verdict.message);
  // redirectDomains (2.5): a listed https domain opens; anything else needs a confirmation this host has no UI for.
  if (config.openLinks !== 'any' && openLinkDecision(url, config.redirectDomains) !== 'direct')
    fail('openLink', config.openLinkRefusal, `${url} is not on the redirectDomains allowlist`);
  window.__hostLog.push({ op: 'openLink', at: Date.now() });
  window.open(url, '_blank', 'noopener');
  return {};
};
for (const method of HOST_METHODS) {
  bridge.setRequestHandler(method, { params: z.looseObject({}) }, (params) => forward(method, params as Record<string, unknown>));
}

const iframe = document.createElement('iframe');
iframe.id = 'widget';
iframe.title = 'widget';
iframe.setAttribute('sandbox', config.sandbox);
if (config.allow !== '') iframe.setAttribute('allow', config.allow);
document.body.append(iframe);
window.__hostReady = bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!)).then(() => {
  iframe.src = config.widgetUrl;
});
