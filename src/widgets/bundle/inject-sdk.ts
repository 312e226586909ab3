import { defaultTreeAdapter, html as htmlNames, parse, serialize } from 'parse5';
import { WIDGET_SDK } from '../../spec/widgets.js';
import { attribute, elements } from './html-tree.js';

/**
 * What the folder resolver serves for the HTML entry (2.5): the entry with the widget SDK's script
 * element (/widgets/sdk.v2.js) injected into <head>, before the head's first script, so the widget's
 * own scripts find the bridge. Parsed and re-serialised with parse5; an entry that already loads the
 * SDK is served as parse5 serialises it, without a second copy. Pure.
 */
export function injectSdkScript(html: string): string {
  const document = parse(html);
  const all = [...elements(document)];
  if (all.some((e) => e.tagName === 'script' && attribute(e, 'src') === WIDGET_SDK.path)) return serialize(document);
  const head = all.find((e) => e.tagName === 'head')!;
  const script = defaultTreeAdapter.createElement('script', htmlNames.NS.HTML, [{ name: 'src', value: WIDGET_SDK.path }]);
  const firstScript = head.childNodes.find((n) => 'tagName' in n && n.tagName === 'script');
  if (firstScript) defaultTreeAdapter.insertBefore(head, script, firstScript);
  else defaultTreeAdapter.appendChild(head, script);
  return serialize(document);
}
