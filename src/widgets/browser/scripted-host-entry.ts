import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { z } from 'zod';
import { BRIDGE_JSONRPC_ERROR, HOST_METHODS, type BridgeErrorData } from '../host/operations.js';

/** What the scripted host answers an operation: a bridge error, or a result. */
type Scripted = { readonly error: BridgeErrorData } | { readonly result: Record<string, unknown> };

declare global {
  interface Window {
    /** Answers by operation, used in order; the last one repeats. Set by the conformance run before the widget calls. */
    __script: Record<string, Scripted[]>;
    /** Set once the widget's SDK completed MCP Apps' handshake (ui/initialize): it speaks the wire this host plays. */
    __hostInitialized: boolean;
  }
}

/**
 * The host a conformance run plays around a deployment's widget SDK (suites 4.6 and 7.1, live too): ext-apps'
 * AppBridge answering every bridge call as the run scripted it, and logging each attempt, so the SDK's side of 7.1
 * (the .code it rejects with, the retries it makes) is observed whatever host the deployment has. The widget's URL
 * is the page's `#widget=` fragment.
 */
window.__script = {};
window.__hostLog = [];
window.__hostInitialized = false;

class WireError extends Error {
  readonly code = BRIDGE_JSONRPC_ERROR;
  constructor(
    message: string,
    readonly data: BridgeErrorData,
  ) {
    super(message);
  }
}

function answer(op: string): Record<string, unknown> {
  const queue = window.__script[op] ?? [{ error: { code: 'not_found' } }];
  const next = queue.length > 1 ? queue.shift()! : queue[0]!;
  if ('error' in next) {
    window.__hostLog.push({ op, at: Date.now(), code: next.error.code });
    throw new WireError(`scripted ${next.error.code}`, next.error);
  }
  window.__hostLog.push({ op, at: Date.now() });
  return next.result;
}

const bridge = new AppBridge(null, { name: 'conformance-scripted-host', version: '2' }, { openLinks: {}, serverTools: {} });
bridge.oncalltool = async () => {
  const value = answer('callTool');
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
};
bridge.onopenlink = async () => answer('openLink');
bridge.oninitialized = () => {
  window.__hostInitialized = true;
};
for (const method of HOST_METHODS) bridge.setRequestHandler(method, { params: z.looseObject({}) }, () => answer(method));

const iframe = document.createElement('iframe');
iframe.setAttribute('sandbox', 'allow-scripts');
document.body.append(iframe);
window.__hostReady = bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!)).then(() => {
  iframe.src = decodeURIComponent(location.hash.replace(/^#widget=/, ''));
});
