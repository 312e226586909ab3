import type { PathMatcher } from '../routes.js';

/**
 * A matcher for a path template such as /api/widgets/{postId}/mcp: each {name} is one non-empty segment, decoded.
 * `rest` names a last {name} that takes the rest of the path instead (any segments, left encoded for the route to
 * judge, so an encoded slash stays inside its segment).
 */
export function templateMatcher(template: string, rest?: string): PathMatcher {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[A-Za-z]+\})/)
    .map((part) => {
      const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return name === rest ? '(.*)' : '([^/]+)';
    })
    .join('');
  const regex = new RegExp(`^${pattern}$`);
  return (pathname) => {
    const match = regex.exec(pathname);
    if (!match) return null;
    const params: Record<string, string> = {};
    try {
      for (const [i, name] of names.entries()) params[name] = name === rest ? match[i + 1]! : decodeURIComponent(match[i + 1]!);
    } catch {
      return null;
    }
    return params;
  };
}
