import { ApiException } from '@kubernetes/client-node';

/** The status code and message of a rejected API call. */
export async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body = typeof err.body === 'string' ? err.body : JSON.stringify(err.body);
    let message = body;
    try {
      message = (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      // keep the raw body
    }
    return { code: err.code, message };
  }
  throw new Error('expected the request to be rejected');
}
