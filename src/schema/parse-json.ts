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

/** JSON.parse, with a syntax error turned into a JsonSyntaxError that says where. */
export function parseJson(text: string, source: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
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
