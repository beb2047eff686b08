/**
 * The chart against a real kube-apiserver (built from Go modules, see
 * test/support/kube-apiserver.ts): every manifest of every value set is
 * created with a server-side dry run and strict field validation, so the API
 * server's own decoding, defaulting, validation and admission judge it. The
 * CRDs are installed for real first: ours (crds/) and the real CRDs of the two
 * optional third-party kinds the chart renders (HTTPRoute, ServiceMonitor).
 *
 * Then the operator's RBAC is installed for real and checked two ways: access
 * reviews for what it must and must not do, and `gw operator` itself running
 * with a token of the chart's ServiceAccount, reconciling a GatewayToken.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startOperator, type OperatorProcess } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import {
  CHART,
  effectiveValues,
  find,
  FULLNAME,
  HELM_TIMEOUT_MS,
  type Manifest,
  removeHelmHome,
  renderChart,
  RELEASE,
  requireBuiltCli,
  ROOT,
  runHelm,
  TOOL_TIMEOUT_MS,
  valueSets,
} from './chart-support.js';
import { KubeClient, readYamlFile, thirdPartyCrds } from './kube-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reading API objects */
type Any = any;

let server: KubeApiServer;
let kube: KubeClient;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mg-chart-api-'));
  server = await startKubeApiServer();
  kube = new KubeClient(server);
  const ours = readdirSync(join(ROOT, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => readYamlFile(join(ROOT, 'crds', f)));
  await kube.installCrds([...ours, ...(await thirdPartyCrds(work))]);
}, TOOL_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
  removeHelmHome();
});

/** Namespaces a value set's manifests live in, besides the release namespace. */
function extraNamespaces(set: ReturnType<typeof valueSets>[number]): string[] {
  const values = effectiveValues(set) as Any;
  return [values.operator?.watchNamespace, values.dashboard?.namespace, values.serviceMonitor?.namespace].filter((n): n is string => typeof n === 'string' && n !== '');
}

describe('every rendered manifest passes a server-side dry run', () => {
  it.each(valueSets().map((s, i) => [s.name, s, i] as const))(
    '%s',
    async (_name, set, index) => {
      const namespace = `gw-dry-${index}`;
      for (const ns of [namespace, ...extraNamespaces(set)]) await kube.ensureNamespace(ns);
      const manifests = await renderChart(set, namespace);
      expect(manifests.length).toBeGreaterThan(10);
      const failures: string[] = [];
      for (const obj of manifests) {
        const res = await kube.create(obj, { dryRun: true, namespace });
        if (res.status !== 201 && res.status !== 200) failures.push(`${obj.kind} ${obj.metadata.name}: ${res.status} ${res.body?.message ?? JSON.stringify(res.body)}`);
        else expect(res.body.metadata?.name, `${obj.kind} echo`).toBe(obj.metadata.name);
      }
      expect(failures).toEqual([]);
      // Nothing was stored.
      const deployments = await kube.request('GET', `/apis/apps/v1/namespaces/${namespace}/deployments`);
      expect(deployments.body.items).toEqual([]);
    },
    10 * 60_000,
  );

  it(
    'refuses a manifest with a field the server does not know (the check can fail)',
    async () => {
      await kube.ensureNamespace('gw-dry-neg');
      const manifests = await renderChart(valueSets()[0]!, 'gw-dry-neg');
      const deployment = structuredClone(find(manifests, 'Deployment', `${FULLNAME}-gateway`)) as Any;
      deployment.spec.template.spec.containers[0].readinesProbe = deployment.spec.template.spec.containers[0].readinessProbe;
      const res = await kube.create(deployment, { dryRun: true });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/unknown field .*readinesProbe/);
    },
    HELM_TIMEOUT_MS,
  );

  it(
    'judges the third-party kinds by their real schemas (the CRDs are not stand-ins)',
    async () => {
      const set = valueSets().find((s) => s.name === 'gateway-api');
      if (!set) throw new Error('test/fixtures/chart-values/gateway-api.yaml is missing');
      await kube.ensureNamespace('gw-dry-neg');
      const manifests = await renderChart(set, 'gw-dry-neg');
      const route = structuredClone(find(manifests, 'HTTPRoute', `${FULLNAME}-gateway`)) as Any;
      route.spec.rules[0].timeouts.request = 'forever';
      const badRoute = await kube.create(route, { dryRun: true });
      expect(badRoute.status).toBe(422);
      expect(badRoute.body.message).toMatch(/timeouts\.request/);
      const monitor = structuredClone(find(manifests, 'ServiceMonitor', FULLNAME)) as Any;
      monitor.spec.endpoints[0].scrapeEvery = '30s';
      const badMonitor = await kube.create(monitor, { dryRun: true });
      expect(badMonitor.status).toBe(400);
      expect(badMonitor.body.message).toMatch(/unknown field .*scrapeEvery/);
    },
    HELM_TIMEOUT_MS,
  );

  it('admits the custom resources the docs show (docs/kubernetes.md)', async () => {
    await kube.ensureNamespace('acme');
    const text = readFileSync(join(ROOT, 'docs', 'kubernetes.md'), 'utf8');
    const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    const resources = blocks
      .flatMap((b) => parseAllDocuments(b).map((d) => d.toJS() as Manifest | null))
      .filter((d): d is Manifest => d !== null && typeof d === 'object' && typeof d.apiVersion === 'string' && d.apiVersion.startsWith('gw.io/'));
    expect(resources.map((r) => r.kind).sort()).toEqual(expect.arrayContaining(['GatewaySettings', 'GatewayToken', 'ProviderCredential']));
    for (const obj of resources) {
      const res = await kube.create(obj, { dryRun: true, namespace: 'acme' });
      expect(res.status, `${obj.kind} ${obj.metadata.name}: ${res.body?.message}`).toBe(201);
    }
  });
});

describe('helm against the API server', () => {
  it(
    'installs with --dry-run=server and prints the NOTES',
    async () => {
      await kube.ensureNamespace('gw-helm');
      const res = await runHelm(['install', RELEASE, CHART, '--namespace', 'gw-helm', '--dry-run=server', '--kubeconfig', server.kubeconfigPath]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('gw token create alice -n acme');
      expect(res.stdout).toContain('billing-bot-gwct');
      expect(res.stdout).toContain(`http://${FULLNAME}-gateway.gw-helm.svc`);
    },
    HELM_TIMEOUT_MS,
  );

  it(
    'keeps an existing encryption key, admin token and Redis password (lookup) instead of generating new ones',
    async () => {
      const namespace = 'gw-upgrade';
      await kube.ensureNamespace(namespace);
      const existing: Record<string, [string, string]> = {
        [`${FULLNAME}-encryption-key`]: ['key', randomBytes(32).toString('base64')],
        [`${FULLNAME}-admin-token`]: ['token', randomBytes(24).toString('hex')],
        [`${FULLNAME}-redis-password`]: ['password', randomBytes(16).toString('hex')],
      };
      for (const [name, [key, value]] of Object.entries(existing)) {
        await kube.ensure({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: { [key]: Buffer.from(value).toString('base64') } } as Manifest);
      }
      const manifests = await renderChart(valueSets()[0]!, namespace, ['--dry-run=server', '--kubeconfig', server.kubeconfigPath]);
      for (const [name, [key, value]] of Object.entries(existing)) {
        const secret = find(manifests, 'Secret', name) as Any;
        expect(Buffer.from(secret.data[key], 'base64').toString(), name).toBe(value);
      }
      // Without a cluster to look in, a fresh key: base64 of 32 bytes.
      const fresh = find(await renderChart(valueSets()[0]!, namespace), 'Secret', `${FULLNAME}-encryption-key`) as Any;
      expect(Buffer.from(Buffer.from(fresh.data.key, 'base64').toString(), 'base64')).toHaveLength(32);
    },
    2 * HELM_TIMEOUT_MS,
  );
});

/** A kubeconfig holding a token of the chart's operator ServiceAccount in `namespace`, issued by the API server itself. */
async function serviceAccountKubeconfig(namespace: string, file: string): Promise<string> {
  const tokenRequest = await kube.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${FULLNAME}-operator/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600 },
  });
  expect(tokenRequest.status, JSON.stringify(tokenRequest.body)).toBe(201);
  const path = join(work, file);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'test', cluster: { server: server.url, 'certificate-authority-data': readFileSync(server.caFile).toString('base64') } }],
      users: [{ name: 'operator', user: { token: tokenRequest.body.status.token as string } }],
      contexts: [{ name: 'operator', context: { cluster: 'test', user: 'operator' } }],
      'current-context': 'operator',
    }),
    { mode: 0o600 },
  );
  return path;
}

/** The operator's own arguments from the chart's Deployment, but for the admin listener the test picks. */
function chartOperatorArgs(manifests: Manifest[]): string[] {
  const deployment = find(manifests, 'Deployment', `${FULLNAME}-operator`) as Any;
  const chartArgs = deployment.spec.template.spec.containers[0].args as string[];
  expect(chartArgs[0]).toBe('operator');
  const args: string[] = [];
  for (let i = 1; i < chartArgs.length; i += 2) {
    if (chartArgs[i] === '--admin-host' || chartArgs[i] === '--admin-port') continue;
    args.push(chartArgs[i] as string, chartArgs[i + 1] as string);
  }
  return args;
}

const RBAC_KINDS = new Set(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, output: () => string[], timeoutMs = 60_000): Promise<T> {
  for (const until = Date.now() + timeoutMs; ;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms\n${output().slice(-40).join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('operator RBAC', () => {
  const namespace = 'gw-rbac';
  const company = 'acme-rbac';
  const serviceAccount = `${FULLNAME}-operator`;
  const user = `system:serviceaccount:${namespace}:${serviceAccount}`;
  const groups = ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'];
  let manifests: Manifest[];
  let redis: TestRedis | undefined;
  let operator: OperatorProcess | undefined;

  beforeAll(async () => {
    requireBuiltCli();
    for (const ns of [namespace, company]) await kube.ensureNamespace(ns);
    manifests = await renderChart(valueSets()[0]!, namespace);
    for (const obj of manifests.filter((m) => RBAC_KINDS.has(m.kind))) await kube.ensure(obj, namespace);
  }, HELM_TIMEOUT_MS);

  afterAll(async () => {
    await operator?.stop('SIGKILL');
    await redis?.destroy();
  });

  const can = (verb: string, resource: string, extra: Record<string, string> = {}): Promise<boolean> => kube.allowed(user, groups, { verb, resource, ...extra });

  it('grants what the operator does', async () => {
    for (const resource of ['gatewaytokens', 'providercredentials', 'gatewaysettings']) {
      for (const verb of ['list', 'watch', 'patch']) expect(await can(verb, resource, { group: 'gw.io', namespace: company }), `${verb} ${resource}`).toBe(true);
      expect(await can('patch', resource, { group: 'gw.io', namespace: company, subresource: 'status' }), `patch ${resource}/status`).toBe(true);
    }
    for (const verb of ['get', 'list', 'watch', 'create', 'delete']) expect(await can(verb, 'secrets', { namespace: company }), `${verb} secrets`).toBe(true);
    expect(await can('create', 'events', { namespace: company })).toBe(true);
    expect(await can('create', 'leases', { group: 'coordination.k8s.io', namespace })).toBe(true);
    for (const verb of ['get', 'update']) expect(await can(verb, 'leases', { group: 'coordination.k8s.io', namespace, name: `${FULLNAME}-operator` }), `${verb} lease`).toBe(true);
  });

  it('grants nothing else', async () => {
    const denied: [string, string, Record<string, string>][] = [
      ['delete', 'gatewaytokens', { group: 'gw.io', namespace: company }],
      ['create', 'gatewaytokens', { group: 'gw.io', namespace: company }],
      ['update', 'gatewaytokens', { group: 'gw.io', namespace: company, subresource: 'status' }],
      ['update', 'secrets', { namespace: company }],
      ['patch', 'secrets', { namespace: company }],
      ['list', 'configmaps', { namespace: company }],
      ['get', 'pods', { namespace }],
      ['delete', 'events', { namespace: company }],
      ['update', 'leases', { group: 'coordination.k8s.io', namespace, name: 'someone-elses-lease' }],
      ['create', 'leases', { group: 'coordination.k8s.io', namespace: company }],
      ['delete', 'leases', { group: 'coordination.k8s.io', namespace, name: `${FULLNAME}-operator` }],
      ['list', 'customresourcedefinitions', { group: 'apiextensions.k8s.io' }],
    ];
    for (const [verb, resource, extra] of denied) expect(await can(verb, resource, extra), `${verb} ${resource} ${JSON.stringify(extra)}`).toBe(false);
    // The gateway pods' ServiceAccount may do nothing at all.
    const gatewayUser = `system:serviceaccount:${namespace}:${FULLNAME}-gateway`;
    expect(await kube.allowed(gatewayUser, groups, { verb: 'list', resource: 'secrets', namespace })).toBe(false);
    expect(await kube.allowed(gatewayUser, groups, { verb: 'list', resource: 'gatewaytokens', group: 'gw.io', namespace: company })).toBe(false);
  });

  it(
    "is enough for gw operator to reconcile a GatewayToken under the chart's ServiceAccount",
    async () => {
      const kubeconfig = await serviceAccountKubeconfig(namespace, 'operator-kubeconfig');
      const args = chartOperatorArgs(manifests);
      expect(args).toEqual(expect.arrayContaining(['--lease-name', `${FULLNAME}-operator`, '--lease-namespace', namespace]));

      redis = await startRedis();
      operator = await startOperator({ kubeconfig, redisUrl: redis.url, encryptionKey: randomBytes(32).toString('base64'), identity: 'chart-rbac-test', args });
      const deadline = Date.now() + 60_000;
      while ((await operator.readyz()).role !== 'leader') {
        if (Date.now() > deadline) throw new Error(`the operator did not become the leader:\n${operator.output.slice(-40).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }

      // A token without a hash: the operator adds its finalizer, generates the token into a Secret, reports Ready.
      const created = await kube.create({ apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'bot', namespace: company }, spec: { displayName: 'RBAC test bot' } } as Manifest);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const tokenPath = `/apis/gw.io/v1alpha1/namespaces/${company}/gatewaytokens/bot`;
      let token: Any;
      for (const until = Date.now() + 60_000; ;) {
        token = (await kube.request('GET', tokenPath)).body;
        const ready = (token.status?.conditions ?? []).find((c: Any) => c.type === 'Ready');
        if (ready?.status === 'True') break;
        if (Date.now() > until) throw new Error(`GatewayToken bot never became Ready: ${JSON.stringify(token.status)}\n${operator.output.slice(-40).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(token.metadata.finalizers).toContain('gw.io/cleanup');
      const secret = await kube.request('GET', `/api/v1/namespaces/${company}/secrets/bot-gwct`);
      expect(secret.status).toBe(200);
      expect(Buffer.from(secret.body.data.token, 'base64').toString()).toMatch(/^gwct_/);
      const events = await kube.request('GET', `/api/v1/namespaces/${company}/events?fieldSelector=involvedObject.name%3Dbot`);
      expect(events.body.items.map((e: Any) => e.reason)).toContain('TokenGenerated');

      // Deleting it: the operator takes it out of Redis and releases the finalizer.
      const deleted = await kube.request('DELETE', tokenPath);
      expect([200, 202]).toContain(deleted.status);
      for (const until = Date.now() + 60_000; ;) {
        if ((await kube.request('GET', tokenPath)).status === 404) break;
        if (Date.now() > until) throw new Error(`GatewayToken bot was never released:\n${operator.output.slice(-40).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }

      // Credentials: a labelled Secret is read; an unlabelled one is refused naming the label, and read once labelled.
      const put = (name: string, labelled: boolean): Promise<{ status: number; body: Any }> =>
        kube.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace: company, ...(labelled ? { labels: { 'gw.io/secret': 'true' } } : {}) },
          stringData: { key: `sk-${name}` },
        } as Manifest);
      expect((await put('labelled-key', true)).status).toBe(201);
      expect((await put('plain-key', false)).status).toBe(201);
      for (const [name, secret] of [
        ['labelled', 'labelled-key'],
        ['plain', 'plain-key'],
      ]) {
        const res = await kube.create({
          apiVersion: 'gw.io/v1alpha1',
          kind: 'ProviderCredential',
          metadata: { name, namespace: company },
          spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: secret, key: 'key' } },
        } as Manifest);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const readyOf = (name: string) => async (): Promise<Any> => {
        const body = (await kube.request('GET', `/apis/gw.io/v1alpha1/namespaces/${company}/providercredentials/${name}`)).body;
        return (body.status?.conditions ?? []).find((c: Any) => c.type === 'Ready');
      };
      await waitFor(
        'credential labelled Ready',
        async () => ((await readyOf('labelled')())?.status === 'True' ? true : undefined),
        () => operator?.output ?? [],
      );
      const refused = await waitFor(
        'credential plain refused',
        async () => {
          const ready = await readyOf('plain')();
          return ready?.status === 'False' ? ready : undefined;
        },
        () => operator?.output ?? [],
      );
      expect(refused.reason).toBe('SecretNotLabelled');
      expect(refused.message).toContain('gw.io/secret=true');
      const labelled = await kube.request('PATCH', `/api/v1/namespaces/${company}/secrets/plain-key`, { metadata: { labels: { 'gw.io/secret': 'true' } } }, 'application/merge-patch+json');
      expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
      await waitFor(
        'credential plain Ready once labelled',
        async () => ((await readyOf('plain')())?.status === 'True' ? true : undefined),
        () => operator?.output ?? [],
      );

      expect(operator.output.filter((line) => /forbidden/i.test(line))).toEqual([]);
    },
    3 * 60_000,
  );

  it('is the same RBAC as examples/k8s/operator-rbac.yaml', () => {
    const example = parseAllDocuments(readFileSync(join(ROOT, 'examples', 'k8s', 'operator-rbac.yaml'), 'utf8')).map((d) => d.toJSON() as Any);
    // The Lease is named after the release in the chart, gw-operator (the default --lease-name) in the example.
    const rules = (doc: Any, leaseName: string): string =>
      JSON.stringify((doc.rules as Any[]).map((r) => ({ ...r, ...(r.resourceNames ? { resourceNames: r.resourceNames.map((n: string) => (n === leaseName ? '<lease>' : n)) } : {}) })));
    const chartRole = find(manifests, 'ClusterRole', `${namespace}-${FULLNAME}-operator`) as Any;
    const chartElection = find(manifests, 'Role', `${FULLNAME}-operator-leader-election`) as Any;
    const exampleRole = example.find((d) => d.kind === 'ClusterRole');
    const exampleElection = example.find((d) => d.kind === 'Role');
    expect(rules(exampleRole, 'gw-operator')).toBe(rules(chartRole, `${FULLNAME}-operator`));
    expect(rules(exampleElection, 'gw-operator')).toBe(rules(chartElection, `${FULLNAME}-operator`));
  });

  it(
    "namespaced mode (operator.watchNamespace): works with the chart's Role alone, and can read no other namespace's Secrets",
    async () => {
      // Only this operator may write status in the watched namespace: the cluster-wide one goes.
      await operator?.stop('SIGKILL');
      operator = undefined;
      const set = valueSets().find((v) => v.name === 'bundled-redis');
      expect(set).toBeDefined();
      const nsRelease = 'gw-rbac-ns';
      const watched = (effectiveValues(set!) as Any).operator.watchNamespace as string;
      for (const ns of [nsRelease, watched]) await kube.ensureNamespace(ns);
      const rendered = await renderChart(set!, nsRelease);
      const rbac = rendered.filter((m) => RBAC_KINDS.has(m.kind));
      expect(rbac.map((m) => m.kind)).not.toContain('ClusterRole');
      for (const obj of rbac) await kube.ensure(obj, nsRelease);
      const nsUser = `system:serviceaccount:${nsRelease}:${FULLNAME}-operator`;
      const nsGroups = ['system:serviceaccounts', `system:serviceaccounts:${nsRelease}`, 'system:authenticated'];
      expect(await kube.allowed(nsUser, nsGroups, { verb: 'list', resource: 'secrets', namespace: watched })).toBe(true);
      expect(await kube.allowed(nsUser, nsGroups, { verb: 'list', resource: 'secrets', namespace: company })).toBe(false);
      expect(await kube.allowed(nsUser, nsGroups, { verb: 'get', resource: 'secrets', namespace: company })).toBe(false);

      const args = chartOperatorArgs(rendered);
      expect(args).toEqual(expect.arrayContaining(['--namespace', watched]));
      redis ??= await startRedis();
      const nsOperator = await startOperator({
        kubeconfig: await serviceAccountKubeconfig(nsRelease, 'operator-ns-kubeconfig'),
        redisUrl: redis.url,
        encryptionKey: randomBytes(32).toString('base64'),
        identity: 'chart-rbac-ns',
        args,
      });
      try {
        await waitFor(
          'the namespaced operator leads',
          async () => ((await nsOperator.readyz()).role === 'leader' ? true : undefined),
          () => nsOperator.output,
        );
        const created = await kube.create({ apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'ns-bot', namespace: watched }, spec: {} } as Manifest);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const secret = await kube.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'ns-key', namespace: watched, labels: { 'gw.io/secret': 'true' } },
          stringData: { key: 'sk-ns' },
        } as Manifest);
        expect(secret.status).toBe(201);
        const cred = await kube.create({
          apiVersion: 'gw.io/v1alpha1',
          kind: 'ProviderCredential',
          metadata: { name: 'ns-cred', namespace: watched },
          spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'ns-key', key: 'key' } },
        } as Manifest);
        expect(cred.status, JSON.stringify(cred.body)).toBe(201);
        for (const path of [`gatewaytokens/ns-bot`, `providercredentials/ns-cred`]) {
          await waitFor(
            `${path} Ready`,
            async () => {
              const body = (await kube.request('GET', `/apis/gw.io/v1alpha1/namespaces/${watched}/${path}`)).body;
              return (body.status?.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
            },
            () => nsOperator.output,
          );
        }
        expect(nsOperator.output.filter((line) => /forbidden/i.test(line))).toEqual([]);
      } finally {
        await nsOperator.stop('SIGKILL');
      }
    },
    3 * 60_000,
  );

  it(
    "says in one line which permission is missing when the chart's RBAC lacks one",
    async () => {
      const lessNs = 'gw-rbac-less';
      await kube.ensureNamespace(lessNs);
      const rendered = await renderChart(valueSets()[0]!, lessNs);
      for (const obj of rendered.filter((m) => RBAC_KINDS.has(m.kind)) as Any[]) {
        // The chart's RBAC, minus one verb: list on Secrets.
        if (obj.kind === 'ClusterRole') obj.rules = obj.rules.map((r: Any) => (r.resources.includes('secrets') ? { ...r, verbs: r.verbs.filter((v: string) => v !== 'list') } : r));
        await kube.ensure(obj, lessNs);
      }
      const kubeconfig = await serviceAccountKubeconfig(lessNs, 'operator-less-kubeconfig');
      redis ??= await startRedis();
      const less = await startOperator({
        kubeconfig,
        redisUrl: redis.url,
        encryptionKey: randomBytes(32).toString('base64'),
        identity: 'chart-rbac-less',
        args: chartOperatorArgs(rendered),
        waitReady: false,
      });
      try {
        const line = await waitFor(
          'a line naming the missing permission',
          async () => less.output.find((l) => l.includes('cannot list resource \\"secrets\\"') || l.includes('cannot list resource "secrets"')),
          () => less.output,
          30_000,
        );
        expect(line).toContain("the operator's RBAC lacks this permission");
        expect(line).toContain(`system:serviceaccount:${lessNs}:${FULLNAME}-operator`);
        expect(line).not.toMatch(/headers|"body"/i);
        // Without it the operator never claims to be ready.
        expect((await less.readyz()).status).toBe(503);
      } finally {
        await less.stop('SIGKILL');
      }
    },
    2 * 60_000,
  );
});
