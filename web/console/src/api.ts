/**
 * Calls to the console API. The session is the HttpOnly cookie; the token
 * pasted at sign-in is sent once and never kept by the page. Writes carry the
 * console header (a cross-site form cannot), and the server checks Origin.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const BASE = new URL('api/', document.baseURI).pathname;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json', 'x-gw-console': '1' };
    init.body = JSON.stringify(body);
  } else if (method !== 'GET') {
    init.headers = { accept: 'application/json', 'x-gw-console': '1' };
  }
  let res: Response;
  try {
    res = await fetch(BASE + path, init);
  } catch {
    throw new ApiError(0, 'The gateway could not be reached. Check that it is running, then try again.');
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const message = (parsed as { error?: unknown } | null)?.error;
    throw new ApiError(res.status, typeof message === 'string' ? message : `The server answered with an error (${res.status}).`);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
    const qs = query.toString();
    return call<T>('GET', qs === '' ? path : `${path}?${qs}`);
  },
  post: <T>(path: string, body: unknown): Promise<T> => call<T>('POST', path, body),
  put: <T>(path: string, body: unknown): Promise<T> => call<T>('PUT', path, body),
  delete: <T>(path: string): Promise<T> => call<T>('DELETE', path),
  url: (path: string, params: Record<string, string | undefined>): string => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
    return `${BASE}${path}?${query.toString()}`;
  },
};
