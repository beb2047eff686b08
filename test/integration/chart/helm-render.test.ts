/**
 * `helm lint --strict` and `helm template` of the chart with its defaults and
 * every value set in test/fixtures/chart-values/, with the helm that
 * ensureHelm() builds from source; then what the rendered manifests promise:
 * secure pods, probes, limits, the sidecar layout, the drain on shutdown,
 * least-privilege RBAC, NetworkPolicies, and the choices each value set makes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHelm } from '../../support/kube-apiserver.js';
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
  runHelm,
  TOOL_TIMEOUT_MS,
  valueSets,
  valuesArgs,
  type ValueSet,
} from './chart-support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reading rendered manifests */
type Any = any;

const NAMESPACE = 'gw-system';
const rendered = new Map<string, Manifest[]>();
const sets = valueSets();

beforeAll(async () => {
  await ensureHelm();
  for (const set of sets) rendered.set(set.name, await renderChart(set, NAMESPACE));
}, TOOL_TIMEOUT_MS);

afterAll(() => removeHelmHome());

function manifestsOf(name: string): Manifest[] {
  const m = rendered.get(name);
  if (!m) throw new Error(`no render for ${name}`);
  return m;
}

const podSpec = (workload: Manifest): Any => (workload as Any).spec.template.spec;
const byName = (list: Any[]): Record<string, Any> => Object.fromEntries(list.map((x) => [x.name, x]));
const workloads = (manifests: Manifest[]): Manifest[] => manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'StatefulSet');

describe.each(sets.map((s) => [s.name, s] as const))('value set %s', (name, set) => {
  it(
    'passes helm lint --strict',
    async () => {
      const res = await runHelm(['lint', '--strict', CHART, '--namespace', NAMESPACE, ...valuesArgs(set)]);
      expect(res.stdout + res.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(res.code).toBe(0);
    },
    HELM_TIMEOUT_MS,
  );

  it('renders labelled objects in the namespaces the values name', () => {
    const values = effectiveValues(set) as Any;
    const allowed = new Set([NAMESPACE, values.operator.watchNamespace, values.dashboard.namespace, values.serviceMonitor.namespace].filter(Boolean));
    const clusterScoped = new Set(['ClusterRole', 'ClusterRoleBinding']);
    for (const m of manifestsOf(name)) {
      expect(m.metadata.labels?.['app.kubernetes.io/instance'], `${m.kind} ${m.metadata.name}`).toBe(RELEASE);
      expect(m.metadata.labels?.['app.kubernetes.io/name']).toBe('model-gateway');
      if (clusterScoped.has(m.kind)) expect(m.metadata.namespace).toBeUndefined();
      else expect(allowed.has(m.metadata.namespace as string), `${m.kind} ${m.metadata.name} in ${m.metadata.namespace}`).toBe(true);
    }
  });

  it('runs every container non-root, read-only, without privileges, with probes, requests and limits', () => {
    const all = workloads(manifestsOf(name));
    expect(all.length).toBeGreaterThan(0);
    for (const w of all) {
      const spec = podSpec(w);
      expect(spec.securityContext.runAsNonRoot, w.metadata.name).toBe(true);
      expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
      // Secret files mounted 0440 are readable through the pod's fsGroup only.
      if ((spec.volumes ?? []).some((v: Any) => v.secret?.defaultMode === 0o440)) {
        expect(spec.securityContext.fsGroup, w.metadata.name).toBe(spec.securityContext.runAsGroup);
      }
      for (const c of spec.containers as Any[]) {
        const where = `${w.metadata.name}/${c.name}`;
        expect(c.securityContext.allowPrivilegeEscalation, where).toBe(false);
        expect(c.securityContext.readOnlyRootFilesystem, where).toBe(true);
        expect(c.securityContext.capabilities.drop, where).toEqual(['ALL']);
        expect(c.securityContext.privileged, where).toBeUndefined();
        expect(c.resources.requests.cpu && c.resources.requests.memory, where).toBeTruthy();
        expect(c.resources.limits.memory, where).toBeTruthy();
        // Envoy has no liveness probe (a draining Envoy closes what a probe would reach),
        // and the shutdown container only waits for its preStop.
        if (c.name !== 'envoy' && c.name !== 'shutdown') {
          expect(c.readinessProbe, where).toBeDefined();
          expect(c.livenessProbe, where).toBeDefined();
        }
      }
    }
  });

  it('gives the gateway pod Envoy and the processor over a shared socket, probed and drained', () => {
    const values = effectiveValues(set) as Any;
    const deployment = find(manifestsOf(name), 'Deployment', `${FULLNAME}-gateway`);
    const spec = podSpec(deployment);
    const { envoy, processor, shutdown: shutdownContainer } = byName(spec.containers);
    expect(Object.keys(byName(spec.containers))).toEqual(['envoy', 'processor', 'shutdown']);
    expect(Object.keys(byName(spec.initContainers))).toEqual(['envoy-config']);
    expect(envoy.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'envoy-ready' });
    expect(envoy.livenessProbe).toBeUndefined();
    expect(envoy.ports.map((p: Any) => p.name)).toEqual(['http', 'envoy-ready']);
    expect(envoy.image).toBe(`envoyproxy/envoy:${values.gateway.envoy.image.tag}`);
    expect(processor.image).toMatch(new RegExp(`^${values.image.repository}:`));
    expect(byName(spec.volumes).socket.emptyDir).toBeDefined();
    expect(spec.automountServiceAccountToken).toBe(false);
    // Probes: Envoy's ready listener for readiness; the processor's /readyz and /healthz.
    expect(processor.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(processor.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    // Shutdown: the shutdown container's preStop drains Envoy (no probe can restart it); the
    // processor's preStop waits only while Envoy drains; Envoy's preStop keeps it up meanwhile.
    const shutdown = values.gateway.shutdown;
    expect(shutdownContainer.livenessProbe).toBeUndefined();
    expect(shutdownContainer.lifecycle.preStop.exec.command.slice(0, 2)).toEqual(['node', '/etc/gw/drain/drain-envoy.mjs']);
    expect(shutdownContainer.lifecycle.preStop.exec.command.slice(3)).toEqual([String(shutdown.endpointDrainSeconds), String(shutdown.maxStreamSeconds)]);
    expect(processor.lifecycle.preStop.exec.command.slice(0, 2)).toEqual(['node', '/etc/gw/drain/await-envoy-drain.mjs']);
    expect(envoy.lifecycle.preStop.sleep.seconds).toBeGreaterThanOrEqual(shutdown.endpointDrainSeconds + shutdown.maxStreamSeconds);
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(envoy.lifecycle.preStop.sleep.seconds + values.gateway.processor.shutdownGraceSeconds - 10);
    expect(envoy.args).toEqual(expect.arrayContaining(['--drain-time-s', String(shutdown.endpointDrainSeconds), '--drain-strategy', 'immediate']));
    // The encryption key reaches the processor and the operator from one Secret.
    const keySecret = byName(spec.volumes)['encryption-key'].secret.secretName;
    expect(keySecret).toBe(values.encryptionKey.existingSecret || `${FULLNAME}-encryption-key`);
    const operator = manifestsOf(name).find((m) => m.kind === 'Deployment' && m.metadata.name === `${FULLNAME}-operator`);
    if (operator) expect(byName(podSpec(operator).volumes)['encryption-key'].secret.secretName).toBe(keySecret);
  });

  it('points the processor and the operator at the same Redis', () => {
    const values = effectiveValues(set) as Any;
    const deployments = manifestsOf(name).filter((m) => m.kind === 'Deployment');
    const envs = deployments.map((d) => byName(podSpec(d).containers.find((c: Any) => c.name !== 'envoy').env));
    for (const env of envs) {
      if (values.redis.bundled.enabled) {
        expect(env.GW_REDIS_URL.value).toBe(`redis://:$(GW_REDIS_PASSWORD)@${FULLNAME}-redis.${NAMESPACE}.svc:6379/0`);
        expect(env.GW_REDIS_PASSWORD.valueFrom.secretKeyRef.name).toBe(`${FULLNAME}-redis-password`);
      } else {
        expect(env.GW_REDIS_URL.valueFrom.secretKeyRef).toEqual(
          values.redis.external.existingSecret ? { name: values.redis.external.existingSecret, key: values.redis.external.existingSecretKey } : { name: `${FULLNAME}-redis-url`, key: 'url' },
        );
      }
      expect(env.GW_ENCRYPTION_KEY_FILE.value).toBe('/etc/gw/encryption/key');
    }
    // Kubernetes expands $(VAR) only from variables defined before it.
    for (const d of deployments) {
      const names = (podSpec(d).containers.find((c: Any) => c.name !== 'envoy').env as Any[]).map((e) => e.name);
      if (names.includes('GW_REDIS_PASSWORD')) expect(names.indexOf('GW_REDIS_PASSWORD')).toBeLessThan(names.indexOf('GW_REDIS_URL'));
    }
  });
});

describe('defaults', () => {
  const m = (): Manifest[] => manifestsOf('defaults');

  it('generates the encryption key (base64 of 32 bytes) and keeps it on uninstall', () => {
    const secret = find(m(), 'Secret', `${FULLNAME}-encryption-key`) as Any;
    expect(Buffer.from(Buffer.from(secret.data.key, 'base64').toString(), 'base64')).toHaveLength(32);
    expect(secret.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    const admin = find(m(), 'Secret', `${FULLNAME}-admin-token`) as Any;
    expect(Buffer.from(admin.data.token, 'base64').toString().length).toBeGreaterThanOrEqual(16);
  });

  it('bundles a single Redis with a password, an append-only file and a volume claim', () => {
    const sts = find(m(), 'StatefulSet', `${FULLNAME}-redis`) as Any;
    expect(sts.spec.replicas).toBe(1);
    const redis = sts.spec.template.spec.containers[0];
    const args = redis.args as string[];
    expect(args[args.indexOf('--requirepass') + 1]).toBe('$(REDIS_PASSWORD)');
    expect(args[args.indexOf('--appendonly') + 1]).toBe('yes');
    expect(args[args.indexOf('--maxmemory-policy') + 1]).toBe('noeviction');
    expect(byName(redis.env).REDIS_PASSWORD.valueFrom.secretKeyRef).toEqual({ name: `${FULLNAME}-redis-password`, key: 'password' });
    expect(sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe('8Gi');
  });

  it('runs two operator replicas with leader election on a Lease', () => {
    const d = find(m(), 'Deployment', `${FULLNAME}-operator`) as Any;
    expect(d.spec.replicas).toBe(2);
    const args = d.spec.template.spec.containers[0].args as string[];
    expect(args[0]).toBe('operator');
    expect(args[args.indexOf('--lease-name') + 1]).toBe(`${FULLNAME}-operator`);
    expect(args[args.indexOf('--lease-namespace') + 1]).toBe(NAMESPACE);
    expect(args).not.toContain('--namespace');
    expect(byName(d.spec.template.spec.containers[0].env).GW_OPERATOR_IDENTITY.valueFrom.fieldRef.fieldPath).toBe('metadata.name');
  });

  it('grants the operator only the verbs it uses', () => {
    const role = find(m(), 'ClusterRole', `${NAMESPACE}-${FULLNAME}-operator`) as Any;
    expect(role.rules).toEqual([
      { apiGroups: ['gw.io'], resources: ['gatewaytokens', 'providercredentials', 'gatewaysettings'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: ['gw.io'], resources: ['gatewaytokens/status', 'providercredentials/status', 'gatewaysettings/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create'] },
    ]);
    const lease = find(m(), 'Role', `${FULLNAME}-operator-leader-election`) as Any;
    expect(lease.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [`${FULLNAME}-operator`], verbs: ['get', 'update'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list'] },
      { apiGroups: [''], resources: ['configmaps'], resourceNames: [...'0123456789abcdef'].map((d) => `gw-revocations-${d}`), verbs: ['get', 'update'] },
    ]);
    const binding = find(m(), 'ClusterRoleBinding', `${NAMESPACE}-${FULLNAME}-operator`) as Any;
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: `${FULLNAME}-operator`, namespace: NAMESPACE }]);
  });

  it('lets callers reach only Envoy, the scraper only metrics, and only gateway and operator pods reach Redis', () => {
    const gw = find(m(), 'NetworkPolicy', `${FULLNAME}-gateway`) as Any;
    expect(gw.spec.ingress).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }] },
      { ports: [{ port: 'metrics', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] },
    ]);
    const redis = find(m(), 'NetworkPolicy', `${FULLNAME}-redis`) as Any;
    expect(redis.spec.ingress[0].from[0].podSelector.matchExpressions).toEqual([{ key: 'app.kubernetes.io/component', operator: 'In', values: ['gateway', 'operator'] }]);
    expect(redis.spec.ingress[0].from[0].podSelector.matchLabels['app.kubernetes.io/instance']).toBe(RELEASE);
  });

  it('spreads the gateway pods, guards them with a PodDisruptionBudget, and leaves autoscaling off', () => {
    const spec = podSpec(find(m(), 'Deployment', `${FULLNAME}-gateway`));
    expect(spec.topologySpreadConstraints.map((c: Any) => c.topologyKey)).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
    for (const c of spec.topologySpreadConstraints) expect(c.labelSelector.matchLabels['app.kubernetes.io/component']).toBe('gateway');
    expect((find(m(), 'PodDisruptionBudget', `${FULLNAME}-gateway`) as Any).spec.maxUnavailable).toBe(1);
    expect(m().some((x) => x.kind === 'HorizontalPodAutoscaler' || x.kind === 'Ingress' || x.kind === 'HTTPRoute' || x.kind === 'ServiceMonitor')).toBe(false);
  });

  it('ships the Grafana dashboard for the sidecar', () => {
    const cm = find(m(), 'ConfigMap', `${FULLNAME}-dashboard`) as Any;
    expect(cm.metadata.labels.grafana_dashboard).toBe('1');
    expect(JSON.parse(cm.data['model-gateway.json']).uid).toBe('model-gateway');
  });

  it('exposes Envoy as the {base_url} Service and metrics on their own Services', () => {
    const svc = find(m(), 'Service', `${FULLNAME}-gateway`) as Any;
    expect(svc.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' }]);
    expect((find(m(), 'Service', `${FULLNAME}-gateway-metrics`) as Any).spec.ports.map((p: Any) => p.name)).toEqual(['metrics']);
    expect((find(m(), 'Service', `${FULLNAME}-operator-metrics`) as Any).spec.ports.map((p: Any) => p.port)).toEqual([9091]);
  });
});

describe('value set specifics', () => {
  it('bundled-redis: a Role in the one watched namespace, its StorageClass, the prefix, Envoy stats scraped', () => {
    const m = manifestsOf('bundled-redis');
    expect(m.some((x) => x.kind === 'ClusterRole')).toBe(false);
    expect(find(m, 'Role', `${FULLNAME}-operator`).metadata.namespace).toBe('acme');
    expect(find(m, 'RoleBinding', `${FULLNAME}-operator`).metadata.namespace).toBe('acme');
    const operatorArgs = podSpec(find(m, 'Deployment', `${FULLNAME}-operator`)).containers[0].args as string[];
    expect(operatorArgs[operatorArgs.indexOf('--namespace') + 1]).toBe('acme');
    expect((find(m, 'StatefulSet', `${FULLNAME}-redis`) as Any).spec.volumeClaimTemplates[0].spec.storageClassName).toBe('fast-ssd');
    const processorArgs = byName(podSpec(find(m, 'Deployment', `${FULLNAME}-gateway`)).containers).processor.args as string[];
    expect(processorArgs[processorArgs.indexOf('--prefix') + 1]).toBe('/api');
    const monitor = find(m, 'ServiceMonitor', FULLNAME) as Any;
    expect(monitor.spec.endpoints.map((e: Any) => [e.port, e.path])).toEqual([
      ['metrics', '/metrics'],
      ['envoy-stats', '/stats/prometheus'],
    ]);
    expect(monitor.metadata.labels.release).toBe('kube-prometheus-stack');
    expect(find(m, 'ConfigMap', `${FULLNAME}-dashboard`).metadata.namespace).toBe('monitoring');
  });

  it('external-redis-cluster-tls: the URL and CA from your Secrets, your key and token, no bundled Redis', () => {
    const m = manifestsOf('external-redis-cluster-tls');
    // Every Secret is yours: the chart renders none, and no Redis of its own.
    expect(m.filter((x) => x.kind === 'StatefulSet' || x.kind === 'Secret')).toEqual([]);
    const spec = podSpec(find(m, 'Deployment', `${FULLNAME}-gateway`));
    const env = byName(byName(spec.containers).processor.env);
    expect(env.GW_REDIS_URL.valueFrom.secretKeyRef).toEqual({ name: 'redis-cluster-url', key: 'url' });
    expect(env.GW_REDIS_TLS_CA_FILE.value).toBe('/etc/gw/redis-ca/ca.crt');
    expect(byName(spec.volumes)['redis-ca'].secret).toEqual({ secretName: 'redis-ca', defaultMode: 0o444, items: [{ key: 'ca.pem', path: 'ca.crt' }] });
    expect(byName(spec.volumes)['admin-token'].secret.secretName).toBe('gw-admin-token');
    expect(byName(spec.containers).shutdown.lifecycle.preStop.exec.command[2]).toBe('http://[::1]:9911');
    expect(byName(byName(spec.containers).processor.env).GW_LEASE_TTL_MS.value).toBe('60000');
    const svc = find(m, 'Service', `${FULLNAME}-gateway`) as Any;
    expect(svc.spec).toMatchObject({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', loadBalancerSourceRanges: ['10.0.0.0/8'] });
  });

  it('hpa-ingress: an HPA instead of fixed replicas, the Ingress, minAvailable, the URL stored in a Secret', () => {
    const m = manifestsOf('hpa-ingress');
    const hpa = find(m, 'HorizontalPodAutoscaler', `${FULLNAME}-gateway`) as Any;
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 30, scaleTargetRef: { kind: 'Deployment', name: `${FULLNAME}-gateway` } });
    expect(hpa.spec.metrics.map((x: Any) => [x.resource.name, x.resource.target.averageUtilization])).toEqual([
      ['cpu', 60],
      ['memory', 75],
    ]);
    expect((find(m, 'Deployment', `${FULLNAME}-gateway`) as Any).spec.replicas).toBeUndefined();
    const ingress = find(m, 'Ingress', `${FULLNAME}-gateway`) as Any;
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: `${FULLNAME}-gateway`, port: { name: 'http' } } });
    expect(ingress.spec.tls[0].secretName).toBe('gw-example-com-tls');
    expect((find(m, 'PodDisruptionBudget', `${FULLNAME}-gateway`) as Any).spec).toMatchObject({ minAvailable: 2 });
    expect((find(m, 'PodDisruptionBudget', `${FULLNAME}-gateway`) as Any).spec.maxUnavailable).toBeUndefined();
    const url = find(m, 'Secret', `${FULLNAME}-redis-url`) as Any;
    expect(Buffer.from(url.data.url, 'base64').toString()).toBe('redis://redis.shared.svc.cluster.local:6379/2');
  });

  it('gateway-api: an HTTPRoute to the Envoy Service, no operator, no NetworkPolicies, no admin API', () => {
    const m = manifestsOf('gateway-api');
    const route = find(m, 'HTTPRoute', `${FULLNAME}-gateway`) as Any;
    expect(route.spec.parentRefs).toEqual([{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }]);
    expect(route.spec.rules[0].backendRefs).toEqual([{ name: `${FULLNAME}-gateway`, port: 80 }]);
    expect(route.spec.rules[0].timeouts).toEqual({ request: '0s' });
    expect(m.some((x) => x.kind === 'NetworkPolicy' || x.metadata.name.includes('operator'))).toBe(false);
    const processor = byName(podSpec(find(m, 'Deployment', `${FULLNAME}-gateway`)).containers).processor;
    expect(processor.env.map((e: Any) => e.name)).not.toContain('GW_ADMIN_TOKEN_FILE');
    expect(byName((find(m, 'StatefulSet', `${FULLNAME}-redis`) as Any).spec.template.spec.volumes).data.emptyDir).toEqual({});
  });
});

describe('values the chart refuses', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown key', ['--set', 'gateway.replica=3'], /additional properties 'replica' not allowed/],
    ['a bad Envoy log level', ['--set', 'gateway.envoy.logLevel=loud'], /logLevel/],
    ['no Redis at all', ['--set', 'redis.bundled.enabled=false'], /turn on redis\.bundled\.enabled, or give redis\.external/],
    ['bundled and external Redis together', ['--set', 'redis.external.url=redis://r:6379'], /exclusive/],
    ['an external URL that is not Redis', ['--set', 'redis.bundled.enabled=false', '--set', 'redis.external.url=http://r:6379'], /rediss\?:\/\/|redis:\/\/ or rediss:\/\//],
    ['a grace period shorter than the drain', ['--set', 'gateway.terminationGracePeriodSeconds=300'], /terminationGracePeriodSeconds \(300\) must exceed/],
    ['an Envoy admin address off loopback', ['--set', 'gateway.envoy.settings.adminAddress=0.0.0.0'], /adminAddress/],
    ["an idle timeout below the SDKs' 10 minutes", ['--set', 'gateway.envoy.settings.streamIdleTimeoutSeconds=300'], /streamIdleTimeoutSeconds/],
    ['an HTTPRoute without a Gateway', ['--set', 'httpRoute.enabled=true'], /httpRoute\.parentRefs/],
    ['a provider that is not http(s)', ['--set-json', 'gateway.envoy.settings.providers=["ftp://files.example.com"]'], /providers/],
  ];

  it.each(cases)(
    '%s',
    async (_what, flags, message) => {
      const res = await runHelm(['template', RELEASE, CHART, '--namespace', NAMESPACE, ...flags]);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(message);
    },
    HELM_TIMEOUT_MS,
  );
});

describe('usage store value set', () => {
  it('usage-postgres: the exporter, a bundled PostgreSQL, the viewer role, Kubernetes access for the processor only, the alerts', { timeout: HELM_TIMEOUT_MS }, async () => {
    const m = manifestsOf('usage-postgres');
    const exporter = podSpec(find(m, 'Deployment', `${FULLNAME}-usage-exporter`));
    expect(exporter.containers[0].args.slice(0, 1)).toEqual(['export-usage']);
    const env = byName(exporter.containers[0].env);
    expect(env.GW_POSTGRES_URL.value).toBe(`postgres://gw@${FULLNAME}-postgres.${NAMESPACE}.svc:5432/gw`);
    expect(env.PGPASSWORD.valueFrom.secretKeyRef.name).toBe(`${FULLNAME}-postgres-password`);
    expect(env.GW_USAGE_RETENTION_DAYS.value).toBe('400');
    expect(find(m, 'StatefulSet', `${FULLNAME}-postgres`)).toBeDefined();
    const gateway = podSpec(find(m, 'Deployment', `${FULLNAME}-gateway`));
    const { envoy, processor } = byName(gateway.containers);
    expect(byName(processor.env).GW_ADMIN_AUTH.value).toBe('kubernetes');
    expect(byName(processor.env).GW_POSTGRES_URL.value).toBe(env.GW_POSTGRES_URL.value);
    expect(byName(processor.volumeMounts)['kube-api-access'].mountPath).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
    expect(byName(envoy.volumeMounts ?? [])['kube-api-access']).toBeUndefined();
    expect((find(m, 'ClusterRole', `${FULLNAME}-usage-viewer`) as Any).rules).toEqual([{ apiGroups: ['gw.io'], resources: ['usage', 'logs'], verbs: ['get'] }]);
    expect((find(m, 'ClusterRoleBinding', `${FULLNAME}-gateway-auth-delegator`) as Any).roleRef.name).toBe('system:auth-delegator');
    expect((find(m, 'ClusterRoleBinding', `${FULLNAME}-usage-viewer-all`) as Any).subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'finance' }]);
    const set = sets.find((x) => x.name === 'usage-postgres') as ValueSet;
    const withAlerts = await renderChart(set, NAMESPACE, ['--set', 'usageStore.alerts.enabled=true']);
    expect((find(withAlerts, 'PrometheusRule', `${FULLNAME}-usage-export`) as Any).spec.groups[0].rules.map((r: Any) => r.alert)).toEqual([
      'GatewayUsageExportBacklog',
      'GatewayUsageRecordsDropped',
      'GatewayUsageExportDeadLetters',
    ]);
  });

  it('defaults: no PostgreSQL, no exporter, no usage roles (make run and the plain chart need no database)', () => {
    const m = manifestsOf('defaults');
    expect(m.some((x) => x.kind === 'PrometheusRule')).toBe(false);
    expect(m.some((x) => x.metadata.name.includes('usage-exporter') || x.metadata.name.includes('postgres') || x.metadata.name.includes('usage-viewer'))).toBe(false);
  });

  it('console.ingress: off by default; on, /console alone on its host to the admin port, TLS, class, annotations, and the controller let through', { timeout: 2 * HELM_TIMEOUT_MS }, async () => {
    for (const name of sets.map((s) => s.name)) {
      expect(manifestsOf(name).some((x) => x.metadata.name === `${FULLNAME}-gateway-console`)).toBe(false);
    }
    const set = sets.find((x) => x.name === 'usage-postgres') as ValueSet;
    const on = [
      '--set',
      'console.ingress.enabled=true',
      '--set',
      'console.ingress.className=nginx',
      '--set',
      'console.ingress.host=console.gw.example',
      '--set',
      'console.ingress.tls[0].secretName=console-tls',
      '--set',
      'console.ingress.tls[0].hosts[0]=console.gw.example',
      '--set-string',
      'console.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/ssl-redirect=true',
      '--set',
      'console.ingress.from[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-nginx',
    ];
    const lint = await runHelm(['lint', '--strict', CHART, '--namespace', NAMESPACE, ...valuesArgs(set), ...on]);
    expect(lint.stdout + lint.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
    const m = await renderChart(set, NAMESPACE, on);
    const ingress = find(m, 'Ingress', `${FULLNAME}-gateway-console`) as Any;
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'console-tls', hosts: ['console.gw.example'] }],
      rules: [{ host: 'console.gw.example', http: { paths: [{ path: '/console', pathType: 'Prefix', backend: { service: { name: `${FULLNAME}-gateway-console`, port: { name: 'console' } } } }] } }],
    });
    expect(ingress.metadata.annotations).toEqual({ 'nginx.ingress.kubernetes.io/ssl-redirect': 'true' });
    const service = find(m, 'Service', `${FULLNAME}-gateway-console`) as Any;
    expect(service.spec.ports).toEqual([{ name: 'console', port: 9090, targetPort: 'metrics', protocol: 'TCP', appProtocol: 'http' }]);
    expect(service.spec.selector).toEqual((find(m, 'Service', `${FULLNAME}-gateway`) as Any).spec.selector);
    // The port the Service targets is the processor's admin listener, where the console is served.
    const processor = podSpec(find(m, 'Deployment', `${FULLNAME}-gateway`)).containers.find((c: Any) => c.name === 'processor');
    expect(processor.ports.find((p: Any) => p.name === 'metrics').containerPort).toBe(9090);
    const policy = find(m, 'NetworkPolicy', `${FULLNAME}-gateway`) as Any;
    expect(policy.spec.ingress).toContainEqual({ ports: [{ port: 'metrics', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }] });
    const off = await renderChart(set, NAMESPACE);
    expect((find(off, 'NetworkPolicy', `${FULLNAME}-gateway`) as Any).spec.ingress).toHaveLength(2);
  });
});
