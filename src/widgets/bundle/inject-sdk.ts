import { defaultTreeAdapter, html as htmlNames, parse, serialize } from 'parse5';
import { WIDGET_SDK } from '../../spec/widgets.js';
import { attribute, elements } from './html-tree.js';

/** Resolves relative script addresses when no platform origin is given (the folder resolver's own paths). */
const RESOLVER_BASE = 'https://resolver.invalid';

/**
 * What the folder resolver serves for the HTML entry (2.5): the entry with the widget SDK's script element
 * injected first in <head>, so the widget's own scripts find the bridge. With `platformOrigin` the SDK is named
 * by its absolute URL on the platform (a widget rendered on a sandbox origin, such as an MCP host, loads it from
 * there); without, by its path. Parsed and re-serialised with parse5; an entry that already loads the SDK from
 * that origin is served as parse5 serialises it, without a second copy. Pure.
 */
export function injectSdkScript(html: string, platformOrigin?: string): string {
  const document = parse(html);
  const base = platformOrigin ?? RESOLVER_BASE;
  const sdk = new URL(WIDGET_SDK.path, base);
  const all = [...elements(document)];
  const loadsSdk = all.some((e) => {
    const src = e.tagName === 'script' ? attribute(e, 'src') : undefined;
    if (src === undefined || !URL.canParse(src, base)) return false;
    const url = new URL(src, base);
    return url.origin === sdk.origin && url.pathname === sdk.pathname;
  });
  if (loadsSdk) return serialize(document);
  const head = all.find((e) => e.tagName === 'head')!;
  const script = defaultTreeAdapter.createElement('script', htmlNames.NS.HTML, [
    { name: 'src', value: platformOrigin === undefined ? WIDGET_SDK.path : sdk.href },
  ]);
  const first = defaultTreeAdapter.getFirstChild(head);
  if (first) defaultTreeAdapter.insertBefore(head, script, first);
  else defaultTreeAdapter.appendChild(head, script);
  return serialize(document);
}
