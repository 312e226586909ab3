/**
 * A minimal XML well-formedness check (no XML parser ships with Node): one root element, balanced and
 * properly nested tags, quoted and unique attributes, no raw `<` or stray `&` in text or attribute values, and
 * only characters XML allows. Returns the problems found; an empty list means well formed.
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const illegal = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.exec(xml);
  if (illegal) problems.push(`character U+${illegal[0].codePointAt(0)!.toString(16).padStart(4, '0')} is not allowed in XML`);
  const badText = (text: string, where: string) => {
    if (text.includes('<')) problems.push(`raw < in ${where}`);
    const amp = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(text);
    if (amp) problems.push(`stray & in ${where}: ${JSON.stringify(text.slice(amp.index, amp.index + 12))}`);
  };
  const NAME = '[A-Za-z_:][A-Za-z0-9_:.-]*';
  const token = new RegExp(
    `<\\?xml[^?]*\\?>|<!--[\\s\\S]*?-->|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|</(${NAME})\\s*>|<(${NAME})((?:\\s+[^\\s=/>]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>|<`,
    'g',
  );
  const stack: string[] = [];
  let roots = 0;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = token.exec(xml))) {
    const text = xml.slice(last, m.index);
    if (stack.length === 0 && text.trim() !== '') problems.push(`text outside the root element: ${JSON.stringify(text.trim().slice(0, 20))}`);
    else badText(text, `text before offset ${m.index}`);
    last = token.lastIndex;
    const [whole, close, open, attributes, selfClosing] = m;
    if (whole === '<') {
      problems.push(`malformed tag at offset ${m.index}: ${JSON.stringify(xml.slice(m.index, m.index + 30))}`);
      continue;
    }
    if (whole.startsWith('<?xml') && m.index !== 0) problems.push('XML declaration not at the start');
    if (close) {
      const top = stack.pop();
      if (top !== close) problems.push(`</${close}> closes ${top ? `<${top}>` : 'nothing'}`);
    } else if (open) {
      if (stack.length === 0 && ++roots > 1) problems.push(`second root element <${open}>`);
      const names = new Set<string>();
      for (const a of (attributes ?? '').matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        if (!new RegExp(`^${NAME}$`).test(a[1]!)) problems.push(`bad attribute name ${a[1]} on <${open}>`);
        if (names.has(a[1]!)) problems.push(`duplicate attribute ${a[1]} on <${open}>`);
        names.add(a[1]!);
        badText(a[2] ?? a[3] ?? '', `attribute ${a[1]} of <${open}>`);
      }
      if (!selfClosing) stack.push(open);
    }
  }
  const tail = xml.slice(last);
  if (tail.trim() !== '') problems.push(`text after the root element: ${JSON.stringify(tail.trim().slice(0, 20))}`);
  if (stack.length) problems.push(`unclosed: ${stack.map((s) => `<${s}>`).join(' ')}`);
  if (roots === 0) problems.push('no root element');
  return problems;
}

/** The attributes of every start tag with this name, decoded. */
export function elements(xml: string, name: string): Array<Record<string, string>> {
  const decode = (v: string) => v.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
  return [...xml.matchAll(new RegExp(`<${name}((?:\\s+[^\\s=/>]+\\s*=\\s*"[^"]*")*)\\s*/?>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([^\s=]+)\s*=\s*"([^"]*)"/g)].map((a) => [a[1]!, decode(a[2]!)])),
  );
}
