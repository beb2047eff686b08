/**
 * A small raw client for the test API server: JSON in, status and JSON out.
 * The chart's manifests go to the server as rendered (no typed client that
 * would drop fields it does not know), with server-side dry run and strict
 * field validation, so the API server itself judges every field.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import type { KubeApiServer } from '../../support/kube-apiserver.js';
import type { Manifest } from './chart-support.js';

const execFileAsync = promisify(execFile);

export interface KubeResponse {
  readonly status: number;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- API objects
}

export class KubeClient {
  private readonly ca: Buffer;
  private readonly discovery = new Map<string, Promise<{ name: string; kind: string; namespaced: boolean }[]>>();

  constructor(
    private readonly server: KubeApiServer,
    private readonly token: string = server.token,
  ) {
    this.ca = readFileSync(server.caFile);
  }

  /** The same server as another user (a service account's token). */
  as(token: string): KubeClient {
    return new KubeClient(this.server, token);
  }

  request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<KubeResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.server.url),
        {
          method,
          ca: this.ca,
          headers: {
            authorization: `Bearer ${this.token}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
          },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON: keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** The REST resource (plural, scope) of a kind, from the server's discovery documents. */
  async resourceFor(apiVersion: string, kind: string, refresh = false): Promise<{ name: string; namespaced: boolean }> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    if (refresh) this.discovery.delete(path);
    let list = this.discovery.get(path);
    if (!list) {
      list = this.request('GET', path).then((res) => {
        if (res.status !== 200) throw new Error(`discovery of ${apiVersion} failed: ${res.status} ${JSON.stringify(res.body)}`);
        return (res.body.resources as { name: string; kind: string; namespaced: boolean }[]).filter((r) => !r.name.includes('/'));
      });
      this.discovery.set(path, list);
      list.catch(() => this.discovery.delete(path));
    }
    const found = (await list).find((r) => r.kind === kind);
    if (!found) throw new Error(`the API server serves no ${kind} in ${apiVersion}`);
    return found;
  }

  async collectionPath(obj: Manifest, namespace?: string): Promise<string> {
    const resource = await this.resourceFor(obj.apiVersion, obj.kind);
    const group = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
    const ns = obj.metadata.namespace ?? namespace;
    if (resource.namespaced && !ns) throw new Error(`${obj.kind} ${obj.metadata.name} has no namespace`);
    return resource.namespaced ? `${group}/namespaces/${ns}/${resource.name}` : `${group}/${resource.name}`;
  }

  /** POST the object; `dryRun` asks the server to validate and admit it without storing it. */
  async create(obj: Manifest, options: { dryRun?: boolean; namespace?: string } = {}): Promise<KubeResponse> {
    const query = new URLSearchParams({ fieldValidation: 'Strict', fieldManager: 'gw-chart-test' });
    if (options.dryRun) query.set('dryRun', 'All');
    return this.request('POST', `${await this.collectionPath(obj, options.namespace)}?${query}`, obj);
  }

  /** Create for real; an object that already exists is fine. */
  async ensure(obj: Manifest, namespace?: string): Promise<void> {
    const res = await this.create(obj, { namespace });
    if (res.status !== 201 && res.status !== 200 && res.status !== 409) {
      throw new Error(`creating ${obj.kind} ${obj.metadata.name}: ${res.status} ${res.body?.message ?? JSON.stringify(res.body)}`);
    }
  }

  async ensureNamespace(name: string): Promise<void> {
    await this.ensure({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }

  /** Creates CRDs for real and waits until each is Established and served. */
  async installCrds(crds: Manifest[]): Promise<void> {
    for (const crd of crds) await this.ensure(crd);
    for (const crd of crds) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await this.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
        const conditions = (res.body?.status?.conditions ?? []) as { type: string; status: string }[];
        if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
        if (Date.now() > deadline) throw new Error(`CRD ${crd.metadata.name} was not Established within 60 s: ${JSON.stringify(conditions)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Does this user may do this? (SubjectAccessReview, asked as the admin.) */
  async allowed(user: string, groups: string[], attributes: Record<string, string>): Promise<boolean> {
    const res = await this.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user, groups, resourceAttributes: attributes },
    });
    if (res.status !== 201) throw new Error(`SubjectAccessReview failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.status.allowed === true;
  }
}

export function readYamlFile(path: string): Manifest {
  return parse(readFileSync(path, 'utf8')) as Manifest;
}

/**
 * The real CRDs of the two optional third-party kinds the chart renders
 * (Gateway API HTTPRoute, prometheus-operator ServiceMonitor), taken from the
 * projects' Go modules through the Go module proxy (cached in GOMODCACHE).
 */
export const THIRD_PARTY_CRDS = [
  { module: 'sigs.k8s.io/gateway-api', version: 'v1.4.0', file: 'config/crd/standard/gateway.networking.k8s.io_httproutes.yaml' },
  { module: 'github.com/prometheus-operator/prometheus-operator', version: 'v0.85.0', file: 'example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml' },
] as const;

export async function thirdPartyCrds(workDir: string): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const { module, version, file } of THIRD_PARTY_CRDS) {
    let dir: string;
    try {
      const { stdout } = await execFileAsync('go', ['mod', 'download', '-json', `${module}@${version}`], {
        cwd: workDir,
        env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '', GOWORK: 'off' },
        maxBuffer: 4 * 1024 * 1024,
      });
      const info = JSON.parse(stdout) as { Dir?: string; Error?: string };
      if (!info.Dir) throw new Error(info.Error ?? 'no Dir in go mod download output');
      dir = info.Dir;
    } catch (error) {
      throw new Error(`could not fetch ${module}@${version} for its CRD (go mod download through the Go module proxy): ${(error as Error).message}`);
    }
    out.push(readYamlFile(join(dir, file)));
  }
  return out;
}
