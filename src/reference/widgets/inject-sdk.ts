import { defaultTreeAdapter, html, parse, serialize, type DefaultTreeAdapterTypes } from 'parse5';
import { WIDGET_SDK } from '../../spec/widgets.js';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

function findElement(node: ParentNode, tagName: string): Element | undefined {
  for (const child of defaultTreeAdapter.getChildNodes(node)) {
    if (!defaultTreeAdapter.isElementNode(child)) continue;
    if (child.tagName === tagName) return child;
    const found = findElement(child, tagName);
    if (found) return found;
  }
  return undefined;
}

function loadsSdk(node: ParentNode, base: string): boolean {
  for (const child of defaultTreeAdapter.getChildNodes(node)) {
    if (!defaultTreeAdapter.isElementNode(child)) continue;
    if (child.tagName === 'script') {
      const src = child.attrs.find((a) => a.name === 'src')?.value;
      if (src !== undefined && URL.canParse(src, base) && new URL(src, base).pathname === WIDGET_SDK.path) return true;
    }
    if (loadsSdk(child, base)) return true;
  }
  return false;
}

/**
 * The HTML entry as the folder resolver serves it (2.5): the widget SDK (`/widgets/sdk.v2.js` on the platform's
 * origin, absolute because the widget renders on a sandbox origin) loaded first in <head>, unless the page already
 * loads it. Parsed and written back with parse5, so any HTML the author wrote gets a well-formed document.
 */
export function injectWidgetSdk(entryHtml: string, platformOrigin: string): string {
  const document = parse(entryHtml);
  const sdkUrl = new URL(WIDGET_SDK.path, platformOrigin).href;
  if (loadsSdk(document, platformOrigin)) return serialize(document);
  const head = findElement(document, 'head')!;
  const script = defaultTreeAdapter.createElement('script', html.NS.HTML, [{ name: 'src', value: sdkUrl }]);
  const first = defaultTreeAdapter.getFirstChild(head);
  if (first) defaultTreeAdapter.insertBefore(head, script, first);
  else defaultTreeAdapter.appendChild(head, script);
  return serialize(document);
}
