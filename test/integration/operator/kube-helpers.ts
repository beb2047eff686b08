import { readdirSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  type KubernetesObject,
  PatchStrategy,
  setHeaderOptions,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { parse, parseAllDocuments } from 'yaml';
import type { KubeApiServer } from '../../support/kube-apiserver.js';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const GROUP = 'gw.io';
export const VERSION = 'v1alpha1';
export const PLURAL = { GatewayToken: 'gatewaytokens', ProviderCredential: 'providercredentials', GatewaySettings: 'gatewaysettings' } as const;
export type Kind = keyof typeof PLURAL;

export interface Kube {
  readonly server: KubeApiServer;
  readonly kc: KubeConfig;
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly ext: ApiextensionsV1Api;
}

export function kubeFor(server: KubeApiServer): Kube {
  const kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfigPath);
  return { server, kc, core: kc.makeApiClient(CoreV1Api), custom: kc.makeApiClient(CustomObjectsApi), ext: kc.makeApiClient(ApiextensionsV1Api) };
}

export const MERGE = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Poll until `check` returns a value other than undefined/false (throwing counts as not yet). */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last})` : ''}`);
    await sleep(intervalMs);
  }
}

export { rejection } from '../../support/kube-rejection.js';

export function crdDocuments(): V1CustomResourceDefinition[] {
  const dir = join(ROOT, 'crds');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as V1CustomResourceDefinition);
}

/**
 * A request with the raw JSON body, as kubectl sends it. client-node's typed
 * serializer knows schema fields by its own names (`_enum`, `_default`,
 * `xKubernetesValidations`) and silently drops `enum`, `default` and
 * `x-kubernetes-validations` from a CRD read from YAML.
 */
export function raw(kube: Kube, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${kube.server.url}${path}`, {
      method,
      ca: readFileSync(kube.server.caFile),
      headers: { authorization: `Bearer ${kube.server.token}`, 'content-type': contentType, accept: 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Create the project's CRDs (as `kubectl apply -f crds/` does) and wait until each is Established and served. */
export async function installCrds(kube: Kube): Promise<V1CustomResourceDefinition[]> {
  const out: V1CustomResourceDefinition[] = [];
  for (const crd of crdDocuments()) {
    const res = await raw(kube, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (res.status !== 201) throw new Error(`creating CRD ${crd.metadata?.name} failed: ${res.status} ${res.body}`);
  }
  for (const crd of crdDocuments()) {
    const name = crd.metadata?.name as string;
    out.push(
      await eventually(`CRD ${name} Established`, async () => {
        const got = await kube.ext.readCustomResourceDefinition({ name });
        return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? got : undefined;
      }),
    );
    // The resource endpoint can lag the Established condition for a moment.
    await eventually(`${crd.spec.names.plural} served`, async () => {
      await kube.custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: crd.spec.names.plural });
      return true;
    });
  }
  return out;
}

export async function createNamespace(kube: Kube, name: string): Promise<void> {
  await kube.core.createNamespace({ body: { metadata: { name } } });
}

export interface Obj {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    generation?: number;
    finalizers?: string[];
    deletionTimestamp?: string;
    resourceVersion?: string;
    ownerReferences?: Array<{ kind: string; uid: string; controller?: boolean }>;
  };
  spec: Record<string, unknown>;
  status?: {
    observedGeneration?: number;
    address?: string;
    secretName?: string;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string; observedGeneration?: number; lastTransitionTime?: string }>;
  };
}

export function gwObject(kind: Kind, namespace: string, name: string, spec: Record<string, unknown>): Obj {
  return { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name, namespace }, spec };
}

export async function create(kube: Kube, obj: Obj): Promise<Obj> {
  const namespace = obj.metadata.namespace as string;
  return (await kube.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL[obj.kind as Kind], body: obj, fieldValidation: 'Strict' })) as Obj;
}

export async function get(kube: Kube, kind: Kind, namespace: string, name: string): Promise<Obj | null> {
  try {
    return (await kube.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL[kind], name })) as Obj;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return null;
    throw error;
  }
}

export async function patchSpec(kube: Kube, kind: Kind, namespace: string, name: string, spec: Record<string, unknown>): Promise<Obj> {
  return (await kube.custom.patchNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL[kind], name, body: { spec } }, MERGE)) as Obj;
}

export async function remove(kube: Kube, kind: Kind, namespace: string, name: string): Promise<void> {
  await kube.custom.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL[kind], name });
}

export function ready(obj: Obj | null): { status: string; reason?: string; message?: string; observedGeneration?: number } | undefined {
  return obj?.status?.conditions?.find((c) => c.type === 'Ready');
}

/** Wait for the operator to report a Ready condition matching `want` on the current generation. */
export async function waitForReady(kube: Kube, kind: Kind, namespace: string, name: string, want: { status: 'True' | 'False'; reason?: string }, timeoutMs = 20_000): Promise<Obj> {
  return eventually(
    `${kind} ${namespace}/${name} Ready=${want.status}${want.reason ? ` (${want.reason})` : ''}`,
    async () => {
      const obj = await get(kube, kind, namespace, name);
      const condition = ready(obj);
      if (!obj || !condition) return undefined;
      if (condition.status !== want.status || (want.reason !== undefined && condition.reason !== want.reason)) return undefined;
      return obj.status?.observedGeneration === obj.metadata.generation ? obj : undefined;
    },
    timeoutMs,
  );
}

export async function putSecret(kube: Kube, namespace: string, name: string, data: Record<string, string>): Promise<void> {
  const body = { metadata: { name, namespace, labels: { 'gw.io/secret': 'true' } }, stringData: data };
  try {
    await kube.core.createNamespacedSecret({ namespace, body });
  } catch (error) {
    if (!(error instanceof ApiException && error.code === 409)) throw error;
    await kube.core.replaceNamespacedSecret({ namespace, name, body });
  }
}

/** Every document of a YAML file (kubectl apply -f's input). */
export function manifests(file: string): Array<Record<string, unknown>> {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown> | null)
    .filter((d): d is Record<string, unknown> => d !== null);
}

/** Server-side apply of one document, the way `kubectl apply --server-side` sends it (any kind). */
export async function apply(kube: Kube, doc: object): Promise<void> {
  const objects = KubernetesObjectApi.makeApiClient(kube.kc);
  await objects.patch(doc as unknown as KubernetesObject, undefined, undefined, 'test', true, PatchStrategy.ServerSideApply);
}
