import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHelm, startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';

const execFileAsync = promisify(execFile);

// Only matters when the tool cache is empty (see apiserver.test.ts).
const START_TIMEOUT_MS = 45 * 60_000;

let helm: string;
let work: string;
let server: KubeApiServer;

/** Runs helm with its state dirs inside the temp dir; never throws. */
async function runHelm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(helm, args, {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: work,
        HELM_CACHE_HOME: join(work, 'helm-cache'),
        HELM_CONFIG_HOME: join(work, 'helm-config'),
        HELM_DATA_HOME: join(work, 'helm-data'),
      },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function writeChart(name: string, templates: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, 'templates'), { recursive: true });
  await writeFile(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\ndescription: test chart\ntype: application\nversion: 0.1.0\nappVersion: "1.0"\n`);
  await writeFile(join(dir, 'values.yaml'), 'greeting: hello\n');
  for (const [file, text] of Object.entries(templates)) await writeFile(join(dir, 'templates', file), text);
  return dir;
}

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
  labels:
    app.kubernetes.io/name: {{ .Chart.Name }}
data:
  greeting: {{ .Values.greeting | quote }}
`;

const rbac = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ .Release.Name }}-reader
rules:
  - apiGroups: [""]
    resources: ["configmaps"]
    verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ .Release.Name }}-reader
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ .Release.Name }}-reader
subjects:
  - kind: ServiceAccount
    name: {{ .Release.Name }}
    namespace: {{ .Release.Namespace }}
`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mg-helm-'));
  helm = await ensureHelm();
  server = await startKubeApiServer();
}, START_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('helm (built from source)', () => {
  it('reports its version', async () => {
    const res = await runHelm(['version', '--short']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/^v3\.\d+\.\d+/);
  });

  it('lints a good chart and rejects a broken one', async () => {
    const good = await writeChart('good', { 'configmap.yaml': configMap, 'rbac.yaml': rbac });
    const ok = await runHelm(['lint', '--strict', good]);
    expect(ok.stdout + ok.stderr).toContain('0 chart(s) failed');
    expect(ok.code).toBe(0);

    const broken = await writeChart('broken', { 'configmap.yaml': 'data:\n  x: {{ .Values.greeting \n' });
    const bad = await runHelm(['lint', broken]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toMatch(/1 chart\(s\) failed/);
  });

  it('validates a chart against the real API server with a server-side dry run', async () => {
    const good = await writeChart('dryrun', { 'configmap.yaml': configMap, 'rbac.yaml': rbac });
    const ok = await runHelm(['install', 'demo', good, '--dry-run=server', '--namespace', 'default', '--kubeconfig', server.kubeconfigPath]);
    expect(ok.stderr).not.toMatch(/error/i);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('name: demo-settings');

    // A kind the server does not know passes lint but fails against the server.
    const unknown = await writeChart('unknown', {
      'widget.yaml': 'apiVersion: example.test/v1\nkind: Gadget\nmetadata:\n  name: g\nspec: {}\n',
    });
    const bad = await runHelm(['install', 'demo', unknown, '--dry-run=server', '--namespace', 'default', '--kubeconfig', server.kubeconfigPath]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/no matches for kind "Gadget"/);
  });
});
