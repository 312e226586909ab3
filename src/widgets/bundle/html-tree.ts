import type { DefaultTreeAdapterTypes } from 'parse5';

export type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

/**
 * Every element of a parsed document in document order; template contents are inert and not visited. Walked with
 * a stack of its own, not by recursion: a page of 5,000 nested elements is a page, not a stack overflow.
 */
export function* elements(root: Node): Generator<Element> {
  const pending: Node[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if ('tagName' in node) yield node;
    if ('childNodes' in node) for (let i = node.childNodes.length - 1; i >= 0; i--) pending.push(node.childNodes[i]!);
  }
}

export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

/** The rel tokens of an element, lowercased (rel is an ASCII case-insensitive, space-separated token list). */
export function relTokens(element: Element): string[] {
  return (attribute(element, 'rel') ?? '')
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .filter(Boolean);
}
