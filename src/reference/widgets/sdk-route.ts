import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { WIDGET_SDK } from '../../spec/widgets.js';
import type { PublicRoute } from '../routes.js';

/**
 * The reference widget SDK (section 9: version 2, at /widgets/sdk.v2.js): one transport behind the call surfaces
 * of 4.6 (bridge.callTool, the callTool shim global, an App class with connect()), posting to the host frame and
 * rejecting with an Error whose .code mirrors the bridge error (7.1). Enough for a widget to run in a host; the
 * platform's own SDK has more operations.
 */
const SDK_SOURCE = `(() => {
  const version = ${WIDGET_SDK.version};
  let next = 0;
  const pending = new Map();
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m !== 'object' || !pending.has(m.id)) return;
    const { resolve, reject } = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) reject(Object.assign(new Error(m.error.message || m.error.code), { code: m.error.code }));
    else resolve(m.result);
  });
  function call(op, args) {
    const id = 'b' + (next += 1);
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      window.parent.postMessage({ id, op, args, version }, '*');
    });
  }
  const bridge = { version, callTool: (name, args) => call('callTool', { name, args }), openLink: (url) => call('openLink', { url }) };
  class App { connect() { return Promise.resolve(bridge); } }
  window.bridge = bridge;
  window.callTool = bridge.callTool;
  window.App = App;
})();
`;

export function widgetSdkRoute(): PublicRoute {
  const body = new TextEncoder().encode(SDK_SOURCE);
  return {
    name: WIDGET_SDK.path,
    path: WIDGET_SDK.path,
    access: 'public',
    methods: {
      GET: () =>
        new Response(body.slice(), {
          status: 200,
          headers: { [HEADERS.contentType]: `${MEDIA_TYPES.javascript}; charset=utf-8`, [HEADERS.cacheControl]: 'public, max-age=300' },
        }),
    },
  };
}
