import { parse } from 'parse5';
import { WIDGET_MANIFEST } from '../../spec/widgets.js';
import { attribute, elements, relTokens } from './html-tree.js';

export interface ManifestLink {
  /** Whether a link with rel widget-manifest resolves, from the entry's place in the folder, to widget.json. */
  readonly linked: boolean;
  /** The href of every widget-manifest link, in document order (empty when there is none). */
  readonly hrefs: readonly string[];
}

const BASE = 'file:///bundle/';

/** Reads the entry's <link rel="widget-manifest"> elements with a real HTML parser (2.5 folder layout). */
export function findManifestLink(html: string, entryPath: string): ManifestLink {
  const hrefs: string[] = [];
  let linked = false;
  for (const element of elements(parse(html))) {
    if (element.tagName !== 'link' || !relTokens(element).includes(WIDGET_MANIFEST.linkRel)) continue;
    const href = attribute(element, 'href') ?? '';
    hrefs.push(href);
    if (resolvesToManifest(href.trim(), entryPath)) linked = true;
  }
  return { linked, hrefs };
}

function resolvesToManifest(href: string, entryPath: string): boolean {
  // Only a relative reference: the folder is served under a prefix the author does not know.
  if (href === '' || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return false;
  try {
    const url = new URL(href, new URL(entryPath, BASE));
    return url.protocol === 'file:' && url.pathname === `/bundle/${WIDGET_MANIFEST.fileName}`;
  } catch {
    return false;
  }
}
