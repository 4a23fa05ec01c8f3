/**
 * Whether a path that no route of its method serves is served under another method: the published API answers
 * that with `405 {"code": 0, "message": "405: Method Not Allowed"}` rather than 404 (PROTOCOL.md §1).
 */
import type { RouteEntry } from '../route-table.js';

/** A route pattern (`/channels/:channelId`, `/activities/*`) as a regular expression over a request path. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

export class MethodMatcher {
  private compiled: Array<{ method: string; pattern: RegExp }> = [];
  private compiledCount = 0;

  constructor(private readonly routes: readonly RouteEntry[]) {}

  /** True when some route of another method matches `path` (no query string). */
  servedOtherwise(method: string, path: string): boolean {
    // Routes are all registered before the server listens; compiled once, on the first miss after that.
    if (this.compiledCount !== this.routes.length) {
      this.compiled = this.routes.map((route) => ({ method: route.method, pattern: patternOf(route.url) }));
      this.compiledCount = this.routes.length;
    }
    return this.compiled.some(
      (route) => route.method !== method && route.method !== 'HEAD' && route.pattern.test(path),
    );
  }
}
