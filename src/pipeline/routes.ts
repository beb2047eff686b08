export type RouteName = 'messages' | 'count_tokens' | 'models' | 'base';

export interface RouteMatch {
  readonly route: RouteName | null;
  /** The query string including its `?`, or ''. */
  readonly query: string;
}

/**
 * Routes answer at the root ({alt_base_url}) and under the configured prefix
 * ({base_url}); the query string (`?beta=true` from Claude Code) never
 * changes the route.
 */
export function matchRoute(method: string, rawPath: string, prefix: string): RouteMatch {
  const q = rawPath.indexOf('?');
  const path = q === -1 ? rawPath : rawPath.slice(0, q);
  const query = q === -1 ? '' : rawPath.slice(q);
  let rest = path;
  if (prefix !== '' && (path === prefix || path.startsWith(prefix + '/'))) rest = path.slice(prefix.length) || '/';
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  let route: RouteName | null = null;
  if (method === 'POST' && rest === '/v1/messages') route = 'messages';
  else if (method === 'POST' && rest === '/v1/messages/count_tokens') route = 'count_tokens';
  else if (method === 'GET' && rest === '/v1/models') route = 'models';
  else if (method === 'HEAD' && rest === '/') route = 'base';
  return { route, query };
}
