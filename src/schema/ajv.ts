import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS; its plugin is the module itself at run time and `.default` in its types.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv2020) => Ajv2020;

/**
 * Standard base64 with padding (RFC 4648 section 4), checked in one pass over the characters: a `pattern`
 * with a repeated group overflows the regular-expression engine's stack on a body of a few MiB.
 */
function isPaddedBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let i = 0; i < text.length - padding; i++) {
    const code = text.charCodeAt(i);
    const ok = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 47 && code <= 57) || code === 43;
    if (!ok) return false;
  }
  return true;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** An absolute URI (a scheme, then whatever the WHATWG URL parser accepts), checked without a backtracking pattern. */
function isAbsoluteUri(text: string): boolean {
  return SCHEME.test(text) && URL.canParse(text);
}

/**
 * The project's one way to make a JSON Schema 2020-12 validator: strict, with the formats of ajv-formats and
 * the schemas' own `base64` format.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, ...options });
  addFormats(ajv);
  ajv.addFormat('base64', { type: 'string', validate: isPaddedBase64 });
  // ajv-formats' uri pattern backtracks into a stack overflow on a URL of a few MB; the WHATWG parser does not.
  ajv.addFormat('uri', { type: 'string', validate: isAbsoluteUri });
  return ajv;
}
