import { locateJsonError } from './json-error-locator.js';

/** A JSON text that does not parse; the message gives the source, line and column. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly source: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`${source}: not valid JSON at line ${line}, column ${column}: ${problem}`);
  }
}

/** No input this project reads nests deeper; a deeper text is refused before any parser recurses into it. */
const MAX_JSON_DEPTH = 256;

/** Where a text first nests deeper than MAX_JSON_DEPTH, skipping strings; one pass, no recursion. */
function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/** JSON.parse, with a syntax error turned into a JsonSyntaxError that says where. */
export function parseJson(text: string, source: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const deep = tooDeepAt(body);
  if (deep !== undefined) {
    const { line, column } = lineAndColumn(body, deep);
    throw new JsonSyntaxError(source, line, column, `arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels here`);
  }
  try {
    return JSON.parse(body);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const { position, problem } = locateJsonError(body);
    const { line, column } = lineAndColumn(body, position);
    throw new JsonSyntaxError(source, line, column, problem);
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}
