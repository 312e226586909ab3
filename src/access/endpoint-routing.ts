import { methodNotAllowedAnswer, type EndpointAnswer } from './endpoint-answers.js';
import type { HttpEndpointDeclaration } from './endpoint-declaration.js';
import { compileDeclaredPath, type DeclaredPathMatcher, type PathParams } from './endpoint-path.js';

export type EndpointSelection<E extends HttpEndpointDeclaration> =
  | { readonly kind: 'matched'; readonly endpoint: E; readonly params: PathParams }
  | { readonly kind: 'refused'; readonly answer: EndpointAnswer }
  | { readonly kind: 'none' };

/** The declared HTTP endpoints of an agent, compiled once; the first declaration whose path and method match answers. */
export class EndpointTable<E extends HttpEndpointDeclaration = HttpEndpointDeclaration> {
  private readonly entries: ReadonlyArray<{ readonly endpoint: E; readonly match: DeclaredPathMatcher }>;

  constructor(endpoints: readonly E[]) {
    this.entries = endpoints.map((endpoint) => ({ endpoint, match: compileDeclaredPath(endpoint.path) }));
  }

  /**
   * 4.1: the endpoint for this method and path; a path declared only for other methods is 405 (HEAD is
   * answered by a GET declaration); an undeclared path is `none` (the caller answers 404 or passes it on).
   */
  select(method: string, pathname: string): EndpointSelection<E> {
    const upper = method.toUpperCase();
    const allowed = new Set<string>();
    for (const { endpoint, match } of this.entries) {
      const params = match(pathname);
      if (!params) continue;
      const declared = endpoint.method.toUpperCase();
      if (declared === upper || (upper === 'HEAD' && declared === 'GET')) return { kind: 'matched', endpoint, params };
      allowed.add(declared);
      if (declared === 'GET') allowed.add('HEAD');
    }
    if (allowed.size === 0) return { kind: 'none' };
    return { kind: 'refused', answer: methodNotAllowedAnswer(pathname, upper, [...allowed]) };
  }
}
