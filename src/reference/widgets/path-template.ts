import type { PathMatcher } from '../routes.js';

/** A matcher for a path template such as /api/widgets/{postId}/mcp: each {name} is one non-empty segment, decoded. */
export function templateMatcher(template: string): PathMatcher {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[A-Za-z]+\})/)
    .map((part) => {
      const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const regex = new RegExp(`^${pattern}$`);
  return (pathname) => {
    const match = regex.exec(pathname);
    if (!match) return null;
    const params: Record<string, string> = {};
    try {
      for (const [i, name] of names.entries()) params[name] = decodeURIComponent(match[i + 1]!);
    } catch {
      return null;
    }
    return params;
  };
}
