import type { DefaultTreeAdapterTypes } from 'parse5';

export type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

/** Every element of a parsed document in document order; template contents are inert and not visited. */
export function* elements(node: Node): Generator<Element> {
  if ('tagName' in node) yield node;
  if ('childNodes' in node) for (const child of node.childNodes) yield* elements(child);
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
