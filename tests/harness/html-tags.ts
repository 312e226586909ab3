const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * A small HTML tag-balance check: every non-void element closed in order, attributes quoted or bare names,
 * no raw `<` in text, script and style content taken as raw text. Returns the problems; empty when balanced.
 */
export function htmlProblems(html: string): string[] {
  const problems: string[] = [];
  const token = /<!DOCTYPE html>|<!--[\s\S]*?-->|<\/([a-z][a-z0-9]*)\s*>|<([a-z][a-z0-9]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?)*)\s*>|</gi;
  const stack: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = token.exec(html))) {
    const [whole, close, open, attributes] = m;
    if (whole === '<') {
      problems.push(`raw < at offset ${m.index}: ${JSON.stringify(html.slice(m.index, m.index + 40))}`);
      continue;
    }
    if (close) {
      const top = stack.pop();
      if (top !== close.toLowerCase()) problems.push(`</${close}> closes ${top ? `<${top}>` : 'nothing'} at offset ${m.index}`);
    } else if (open) {
      const name = open.toLowerCase();
      const seen = new Set<string>();
      for (const a of (attributes ?? '').matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="[^"]*")?/g)) {
        if (seen.has(a[1]!)) problems.push(`duplicate attribute ${a[1]} on <${name}> at offset ${m.index}`);
        seen.add(a[1]!);
      }
      if (name === 'script' || name === 'style') {
        const end = html.indexOf(`</${name}>`, token.lastIndex);
        if (end < 0) problems.push(`<${name}> never closed`);
        else token.lastIndex = end + name.length + 3;
      } else if (!VOID.has(name)) stack.push(name);
    }
  }
  if (stack.length) problems.push(`unclosed: ${stack.map((s) => `<${s}>`).join(' ')}`);
  return problems;
}

/** The outer HTML of each element whose start tag has this attribute (elements of that tag must not nest). */
export function elementsWith(html: string, tag: string, attribute: string, value?: string): string[] {
  const out: string[] = [];
  const start = new RegExp(`<${tag}\\b[^>]*\\s${attribute}="${value === undefined ? '[^"]*' : value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`, 'g');
  let m: RegExpExecArray | null;
  while ((m = start.exec(html))) {
    const end = html.indexOf(`</${tag}>`, m.index);
    out.push(html.slice(m.index, end + tag.length + 3));
  }
  return out;
}

/** The decoded value of an attribute on a start tag. */
export function attribute(element: string, name: string): string | undefined {
  const m = new RegExp(`^<[^>]*\\s${name}="([^"]*)"`).exec(element);
  return m ? decode(m[1]!) : undefined;
}

export function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}
