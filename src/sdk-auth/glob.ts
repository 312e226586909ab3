/**
 * Python's fnmatch.fnmatch on POSIX, which the SDK's allow and deny lists use (docs/platform-sdk.md e; the spec says
 * only "glob patterns"): `*` matches any run of characters including `.` and `/` (so `**` is the same as `*`),
 * `?` one character, `[seq]` and `[!seq]` a character in or not in seq; the whole string must match; case counts.
 */
export function globMatches(pattern: string, text: string): boolean {
  return globToRegExp(pattern).test(text);
}

const compiled = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '[\\s\\S]*';
    else if (c === '?') source += '[\\s\\S]';
    else if (c === '[') {
      const set = characterSet(pattern, i);
      if (set) {
        source += set.source;
        i = set.end;
      } else source += '\\[';
    } else source += escapeRegExp(c);
  }
  const re = new RegExp(`^${source}$`, 'u');
  compiled.set(pattern, re);
  return re;
}

/** A `[...]` set starting at `start`; a `]` right after `[` or `[!` is a member. null when unclosed (then `[` is literal). */
function characterSet(pattern: string, start: number): { source: string; end: number } | null {
  let j = start + 1;
  if (pattern[j] === '!') j++;
  if (pattern[j] === ']') j++;
  while (j < pattern.length && pattern[j] !== ']') j++;
  if (j >= pattern.length) return null;
  let body = pattern.slice(start + 1, j);
  const negate = body.startsWith('!');
  if (negate) body = body.slice(1);
  if (body === '') return { source: negate ? '[\\s\\S]' : '(?!)', end: j };
  // Keep ranges (a-z); escape everything else that means something inside a JS class.
  const escaped = body.replace(/[\\\][^]/g, (m) => `\\${m}`);
  return { source: `[${negate ? '^' : ''}${escaped}]`, end: j };
}

function escapeRegExp(c: string): string {
  // The syntax characters of a `u` regular expression (where escaping anything else is an error).
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
