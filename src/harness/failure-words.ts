import type { Exchange } from './exchange.js';

/** vitest's words for a failed toBe / toEqual: "expected 404 to be 200 // Object.is equality". */
const RAW_ASSERTION = /^expected (.+?) to (be|deeply equal|equal|strictly equal) (.+?)(?: \/\/ Object\.is equality)?$/s;

/**
 * A failed check's message as a person reads it: vitest's raw assertion ("expected 404 to be 200 // Object.is
 * equality") said as what was expected and what came, and the request it was about (the check's last exchange:
 * method and URL, and the status answered) named first unless the message names it already.
 */
export function failureWords(message: string, exchanges: readonly Exchange[]): string {
  const [first = '', ...rest] = message.split('\n');
  const raw = RAW_ASSERTION.exec(first);
  const said = raw ? `expected ${raw[3]}, got ${raw[1]}` : first;
  const last = exchanges.at(-1);
  if (!last) return [said, ...rest].join('\n');
  const { method, url } = last.request;
  const path = pathOf(url);
  if (first.includes(url) || (path.length > 1 && first.includes(path))) return [said, ...rest].join('\n');
  const answered = last.response ? `answered ${last.response.status}` : `got no answer${last.note ? ` (${last.note})` : ''}`;
  return [`${method} ${url} ${answered}: ${said}`, ...rest].join('\n');
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
