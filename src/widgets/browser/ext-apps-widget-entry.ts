import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';

declare global {
  interface Window {
    extApp: Promise<App>;
  }
}

/**
 * A widget written with ext-apps' own App class and nothing of the platform's SDK (suite 4.6 inlines it into a
 * published widget): it connects to its host over MCP Apps' postMessage transport, as any MCP App does.
 */
window.extApp = (async () => {
  const app = new App({ name: 'conformance-ext-apps-widget', version: '1.0.0' }, {});
  await app.connect(new PostMessageTransport(window.parent, window.parent));
  return app;
})();
