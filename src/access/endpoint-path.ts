/** Path parameters of a matched declared path, percent-decoded. */
export type PathParams = Readonly<Record<string, string>>;

/** Matches a request path against a declared path; null when it is not this path. */
export type DeclaredPathMatcher = (pathname: string) => PathParams | null;

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

function segments(path: string): string[] {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * 4.1: a declared path such as `/items/:id/notes/:note`. A parameter takes one whole, non-empty segment;
 * literal segments compare exactly; one trailing slash is ignored. Query strings never take part (the handler
 * reads them from the URL).
 */
export function compileDeclaredPath(declared: string): DeclaredPathMatcher {
  if (!declared.startsWith('/')) throw new TypeError(`a declared path starts with "/": ${JSON.stringify(declared)}`);
  const pattern = segments(declared).map((segment) => {
    const param = PARAM.exec(segment);
    if (segment.startsWith(':') && !param) throw new TypeError(`${JSON.stringify(segment)} in ${JSON.stringify(declared)} is not a parameter name such as :id`);
    return param ? { param: param[1]! } : { literal: segment };
  });
  const names = pattern.flatMap((p) => ('param' in p ? [p.param] : []));
  if (new Set(names).size !== names.length) throw new TypeError(`${JSON.stringify(declared)} names a parameter twice`);
  return (pathname) => {
    const given = segments(pathname);
    if (given.length !== pattern.length) return null;
    const params: Record<string, string> = {};
    for (const [i, part] of pattern.entries()) {
      const segment = given[i]!;
      if ('literal' in part) {
        if (segment !== part.literal) return null;
        continue;
      }
      const value = decode(segment);
      if (value === null || value === '') return null;
      params[part.param] = value;
    }
    return params;
  };
}
