import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../src/pipeline/routes.js';

describe('matchRoute', () => {
  it.each([
    ['POST', '/v1/messages', 'messages'],
    ['POST', '/v1/messages/count_tokens', 'count_tokens'],
    ['GET', '/v1/models', 'models'],
    ['HEAD', '/', 'base'],
  ] as const)('%s %s at the root is %s, with or without a prefix configured', (method, path, route) => {
    expect(matchRoute(method, path, '')).toEqual({ route, query: '' });
    expect(matchRoute(method, path, '/api')).toEqual({ route, query: '' });
  });

  it.each([
    ['POST', '/api/v1/messages', 'messages'],
    ['POST', '/api/v1/messages/count_tokens', 'count_tokens'],
    ['GET', '/api/v1/models', 'models'],
    ['HEAD', '/api', 'base'],
    ['HEAD', '/api/', 'base'],
    ['POST', '/gw/anthropic/v1/messages', null],
  ] as const)('%s %s under the prefix /api is %s', (method, path, route) => {
    expect(matchRoute(method, path, '/api').route).toBe(route);
  });

  it('serves a multi-segment prefix', () => {
    expect(matchRoute('POST', '/gw/anthropic/v1/messages', '/gw/anthropic').route).toBe('messages');
    expect(matchRoute('HEAD', '/gw/anthropic', '/gw/anthropic').route).toBe('base');
  });

  it('keeps the query string, which never changes the route', () => {
    expect(matchRoute('POST', '/v1/messages?beta=true', '')).toEqual({ route: 'messages', query: '?beta=true' });
    expect(matchRoute('POST', '/api/v1/messages/count_tokens?beta=true&x=1', '/api')).toEqual({ route: 'count_tokens', query: '?beta=true&x=1' });
    expect(matchRoute('GET', '/v1/models?limit=1000', '')).toEqual({ route: 'models', query: '?limit=1000' });
    expect(matchRoute('HEAD', '/api?x', '/api')).toEqual({ route: 'base', query: '?x' });
    expect(matchRoute('POST', '/v1/messages?', '')).toEqual({ route: 'messages', query: '?' });
    expect(matchRoute('POST', '/v1/other?to=/v1/messages', '')).toEqual({ route: null, query: '?to=/v1/messages' });
  });

  it('accepts one trailing slash', () => {
    expect(matchRoute('POST', '/v1/messages/', '').route).toBe('messages');
    expect(matchRoute('POST', '/api/v1/messages/?beta=true', '/api').route).toBe('messages');
    expect(matchRoute('GET', '/v1/models/', '').route).toBe('models');
    expect(matchRoute('POST', '/v1/messages//', '').route).toBeNull();
  });

  it.each([
    ['GET', '/v1/messages'],
    ['PUT', '/v1/messages'],
    ['post', '/v1/messages'],
    ['POST', '/v1/models'],
    ['OPTIONS', '/v1/messages'],
    ['GET', '/'],
    ['POST', '/'],
    ['HEAD', '/v1/messages'],
    ['HEAD', '/other'],
    ['POST', '/V1/messages'],
    ['POST', '/v1/messages/batches'],
    ['POST', '/v2/messages'],
    ['POST', '/apix/v1/messages'],
    ['POST', '/api/api/v1/messages'],
    ['GET', '/v1/models/claude-sonnet-4-5'],
  ])('%s %s is no route', (method, path) => {
    expect(matchRoute(method, path, '/api').route).toBeNull();
  });

  it('does not strip a prefix that only starts the first segment', () => {
    expect(matchRoute('HEAD', '/apix', '/api').route).toBeNull();
  });
});
