import { ApiException, CoordinationV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { KubeSource } from '../config/operator-config.js';

/** The typed API clients the operator uses, all from one KubeConfig. */
export interface KubeClients {
  readonly config: KubeConfig;
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly coordination: CoordinationV1Api;
}

export function loadKubeConfig(source: KubeSource): KubeConfig {
  const kc = new KubeConfig();
  if (source.kind === 'file') kc.loadFromFile(source.path);
  else kc.loadFromCluster();
  return kc;
}

export function kubeClients(kc: KubeConfig): KubeClients {
  return {
    config: kc,
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    coordination: kc.makeApiClient(CoordinationV1Api),
  };
}

/** client-node sends JSON Patch by default; this picks a merge patch. */
export const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** The HTTP status of a failed API call, or null when the call never got an answer. */
export function apiStatus(error: unknown): number | null {
  return error instanceof ApiException ? error.code : null;
}

/**
 * One line for a failed API call, for logs and the CLI: the API server's own
 * Status message (for a 403 it names the verb, the resource and the
 * namespace that are missing), never client-node's dump of body and headers.
 */
export function kubeErrorLine(error: unknown): string {
  if (error instanceof ApiException) {
    const status = statusBody(error.body);
    const message = (status.message ?? (typeof error.body === 'string' ? error.body : '')).replace(/\s+/g, ' ').trim() || 'no message';
    if (error.code === 403)
      return `Kubernetes API refused (403 Forbidden): ${message}; the operator's RBAC lacks this permission (see the chart's operator-rbac.yaml or examples/k8s/operator-rbac.yaml)`;
    return `Kubernetes API error ${error.code}${status.reason ? ` ${status.reason}` : ''}: ${message}`;
  }
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

function statusBody(body: unknown): { message?: string; reason?: string } {
  try {
    const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: unknown; reason?: unknown } | null;
    if (!parsed || typeof parsed !== 'object') return {};
    return { ...(typeof parsed.message === 'string' ? { message: parsed.message } : {}), ...(typeof parsed.reason === 'string' ? { reason: parsed.reason } : {}) };
  } catch {
    return {};
  }
}

/** The API server's own message for a failed call (its Status body), for logs and the CLI. */
export function apiMessage(error: unknown): string {
  if (error instanceof ApiException) {
    const body: unknown = error.body;
    let text = typeof body === 'string' ? body : JSON.stringify(body);
    try {
      const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: string };
      if (parsed && typeof parsed.message === 'string') text = parsed.message;
    } catch {
      // not JSON: keep the raw text
    }
    return `${error.code}: ${text}`;
  }
  return error instanceof Error ? error.message : String(error);
}
