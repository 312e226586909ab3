import { App as McpApp, PostMessageTransport } from '@modelcontextprotocol/ext-apps';
import { z } from 'zod';
import { WIDGET_SDK } from '../../spec/widgets.js';
import { callWithRetry } from '../bridge/call-with-retry.js';
import type { RetryPolicyOptions } from '../bridge/retry-policy.js';
import { bridgeErrorOfWire } from './wire-errors.js';

/**
 * The widget SDK served at /widgets/sdk.v2.js (2.5, 4.6, 9), bundled for the browser (scripts/build-browser.ts).
 * Three call surfaces, one transport: `bridge.callTool(name, args)`, the ChatGPT-style shim `openai.callTool(name,
 * args)` (also the bare global `callTool`), and `new App().connect()`, all sending JSON-RPC over MCP Apps'
 * postMessage transport (ext-apps' own App class) to the host frame. A failure rejects with an Error whose `.code`
 * is the host's 7.1 code, after the handling column of 7.1 (src/widgets/bridge/retry-policy.ts). The App connects
 * on first use, so a widget that brings its own ext-apps App is left the channel.
 */
declare global {
  interface Window {
    bridge: unknown;
    host: unknown;
    openai: unknown;
    callTool: unknown;
    App: unknown;
    /** Retry tuning a host may set before the SDK loads (never the codes, only delays and attempts). */
    __widgetSdkOptions?: { retry?: RetryPolicyOptions };
  }
}

const options = window.__widgetSdkOptions ?? {};
const anyResult = z.looseObject({});
let connected: Promise<McpApp> | undefined;

function app(): Promise<McpApp> {
  connected ??= (async () => {
    const a = new McpApp({ name: 'platform-widget-sdk', version: String(WIDGET_SDK.version) }, {});
    await a.connect(new PostMessageTransport(window.parent, window.parent));
    return a;
  })();
  return connected;
}

async function once(op: string, params: Record<string, unknown>): Promise<unknown> {
  const a = await app();
  try {
    if (op === 'callTool') {
      const result = await a.callServerTool({ name: String(params.name), arguments: (params.args ?? {}) as Record<string, unknown> });
      return result.structuredContent ?? result;
    }
    if (op === 'openLink') return await a.request({ method: 'ui/open-link', params: { url: String(params.url) } }, anyResult);
    return await a.request({ method: op, params }, anyResult);
  } catch (error) {
    throw bridgeErrorOfWire(error);
  }
}

function call(op: string, params: Record<string, unknown>): Promise<unknown> {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const offerSignIn = () => window.dispatchEvent(new CustomEvent('widget-sign-in-requested'));
  return callWithRetry(() => once(op, params), { sleep, offerSignIn }, options.retry);
}

const action =
  (op: string, name: string) =>
  (args: Record<string, unknown> = {}) =>
    call(op, { ...args, action: name });
const callTool = (name: string, args: Record<string, unknown> = {}) => call('callTool', { name, args });

const host = {
  kv: { get: action('host.kv', 'get'), set: action('host.kv', 'set'), delete: action('host.kv', 'delete') },
  fn: { publish: action('host.fn', 'publish'), call: action('host.fn', 'call') },
  shell: { run: action('host.shell', 'run') },
  python: { run: action('host.python', 'run') },
  live: { create: action('host.live', 'create'), attach: action('host.live', 'attach'), release: action('host.live', 'release') },
  collab: { join: action('host.collab', 'join') },
  /** Any operation by its name, as a v1 app built against another host would call it. */
  call: (op: string, args: Record<string, unknown> = {}) => call(op, args),
};
const bridge = { version: WIDGET_SDK.version, callTool, openLink: (url: string) => call('openLink', { url }), host };

class App {
  readonly bridge = bridge;
  readonly host = host;
  async connect(): Promise<App> {
    await app();
    return this;
  }
  callTool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
    return callTool(name, args);
  }
}

window.bridge = bridge;
window.host = host;
window.openai = { callTool };
window.callTool = callTool;
window.App = App;
