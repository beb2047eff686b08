import { randomBytes } from 'node:crypto';
import type { RbacV1Subject } from '@kubernetes/client-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { removeHelmHome } from '../../integration/chart/chart-support.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, putSecret, waitForReady, type Kube } from '../../integration/operator/kube-helpers.js';
import { createTokenSeenOnce, launchChromium, openPage, refuseBadZoneThenLimitTokensToZero, reloadUntil, switchModelOn } from '../../support/console-browser.js';
import { answerStatus, auditEvents, bindRole, installConsoleRoles, startConsoleCluster, userSubject, type AuditEvent } from '../../support/console-cluster.js';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import type { OperatorProcess } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

/**
 * The owner console in a real browser in the cluster layout: a real
 * kube-apiserver (RBAC, audit log) with the chart's console-editor and
 * usage-viewer ClusterRoles bound in one namespace, the operator, Redis and
 * `gw serve` without a file, its own identity a cluster admin (were it the
 * one writing, every refusal below would pass). Each person signs in with
 * their own Kubernetes token and everything is done through the page,
 * controls found by role and accessible name as the issue names them.
 */
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const PINNED = 'provider_a:anthropic/claude-sonnet-4.5';
/** The editor is a ServiceAccount whose token comes from the TokenRequest API, as `kubectl create token` gets it. */
const EDITOR = 'system:serviceaccount:acme:edgar';

let server: KubeApiServer;
let redis: TestRedis;
let vendor: MockProvider;
let operator: OperatorProcess;
let gateway: GatewayProcess;
let kube: Kube;
let browser: Browser;
let editorToken: string;
const callerToken = generateToken();

/** The API server's own record of each request: who it authenticated, what, and its answer. */
const audit = (): AuditEvent[] => auditEvents(server);

/** The status the gateway answers `token` with for `model`, through the real SDK. */
const ask = (token: string, model: string): Promise<number> => answerStatus(gateway.url, token, model);

/** The operator carries each change to Redis and the gateway a moment later. */
function answers(token: string, model: string, status: number): Promise<true> {
  return eventually(`the gateway to answer ${status} for ${model}`, async () => (await ask(token, model)) === status || undefined, 30_000, 200);
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${gateway.adminUrl}/console/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

beforeAll(async () => {
  [server, redis, vendor, browser] = await Promise.all([
    startKubeApiServer({ users: [{ name: 'viola' }] }),
    startRedis(),
    // No model list: the Models page offers the catalogue's models, as in the one-machine browser test.
    startMockProvider({ serveModels: false }),
    launchChromium(),
  ]);
  kube = kubeFor(server);
  await installCrds(kube);
  const roles = await installConsoleRoles(kube);
  for (const ns of ['acme', 'globex']) {
    await createNamespace(kube, ns);
    await create(kube, gwObject('GatewaySettings', ns, 'settings', { tokenDomain: `${ns}.example` }));
  }
  await kube.core.createNamespacedServiceAccount({ namespace: 'acme', body: { metadata: { name: 'edgar' } } });
  const request = await kube.core.createNamespacedServiceAccountToken({ name: 'edgar', namespace: 'acme', body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  editorToken = request.status?.token as string;
  const bindings: [string, string, RbacV1Subject][] = [
    ['viola', roles.viewer, userSubject('viola')],
    ['edgar', roles.editor, { kind: 'ServiceAccount', name: 'edgar', namespace: 'acme' }],
    // The editor may see globex too: only the viewer's page must not offer it.
    ['edgar-globex', roles.viewer, { kind: 'ServiceAccount', name: 'edgar', namespace: 'acme' }],
  ];
  for (const [name, role, subject] of bindings) await bindRole(kube, name === 'edgar-globex' ? 'globex' : 'acme', name, role, subject);
  for (const [name, provider] of [
    ['vendor', 'vendor'],
    ['router', 'provider_a'],
  ] as const) {
    await putSecret(kube, 'acme', `${name}-key`, { key: `sk-ant-api03-browser-kube-${name}-0000` });
    await create(kube, gwObject('ProviderCredential', 'acme', name, { provider, kind: 'apiKey', secretRef: { name: `${name}-key`, key: 'key' }, baseUrl: vendor.url }));
  }
  await create(kube, gwObject('GatewayToken', 'acme', 'caller', { tokenHash: hashToken(callerToken) }));
  ({ operator, gateway } = await startConsoleCluster({
    server,
    redis,
    kube,
    encryptionKey: ENCRYPTION_KEY,
    identity: 'console-browser-kube',
    ready: [{ kind: 'GatewayToken', namespace: 'acme', name: 'caller' }],
  }));
  // A call before anyone signs in, so acme has a record for the viewer to find.
  await answers(callerToken, 'claude-haiku-4-5', 200);
}, 45 * 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await operator?.stop();
  await vendor?.close();
  await redis?.stop();
  await server?.stop();
  removeHelmHome();
});

describe('owner console in Chromium, in a cluster', () => {
  it('an editor signs in with their own Kubernetes token; create seen once, the call in Logs and Usage, a model on, 402, revoke 401, sign out, each write theirs', { timeout: 180_000 }, async () => {
    const page = await browser.newPage();
    await signIn(page, editorToken);
    await page.getByText(`Signed in as ${EDITOR}`).waitFor();
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie + location.href')).not.toContain(editorToken);
    // Two companies are theirs to see: the selector offers both.
    expect(await page.getByLabel('Company').locator('option').allTextContents()).toEqual(['acme', 'globex']);
    await page.getByLabel('Company').selectOption('acme');

    await openPage(page, 'Tokens');
    const token = await createTokenSeenOnce(page, 'ci-bot', 'ci-bot@acme.example');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.content()).not.toContain(token);

    // At the API server: only the hash, created by that person (audit log), through the console (managedFields).
    const object = await get(kube, 'GatewayToken', 'acme', 'ci-bot');
    expect((object?.spec as { tokenHash?: string }).tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(object)).not.toContain(token);
    expect(JSON.stringify((object?.metadata as { managedFields?: unknown }).managedFields)).toContain('gw-console');
    const creates = audit().filter((e) => e.verb === 'create' && e.objectRef?.resource === 'gatewaytokens' && e.objectRef.name === 'ci-bot');
    expect(creates.map((e) => [e.user.username, e.responseStatus?.code])).toEqual([[EDITOR, 201]]);

    // The operator makes it work at the gateway.
    await waitForReady(kube, 'GatewayToken', 'acme', 'ci-bot', { status: 'True' }, 30_000);
    await answers(token, 'claude-haiku-4-5', 200);

    await openPage(page, 'Logs');
    await page.getByLabel('Address').fill('ci-bot@acme.example');
    await page.getByRole('button', { name: 'Filter' }).click();
    await reloadUntil(page, 'ci-bot@acme.example');
    await page
      .getByRole('button', { name: /^Open request / })
      .first()
      .click();
    const record = page.getByRole('dialog');
    await record.getByText('request_id').waitFor();
    expect(await record.textContent()).toContain('complete');
    await record.getByRole('button', { name: 'Close' }).click();

    await openPage(page, 'Usage');
    await reloadUntil(page, 'ci-bot@acme.example');

    expect(await ask(token, PINNED)).toBe(403);
    // The operator's own writes (its finalizer) came earlier, under the test's admin identity it runs with.
    const auditBefore = audit().length;
    await openPage(page, 'Models');
    await switchModelOn(page, 'anthropic/claude-sonnet-4.5');
    await answers(token, PINNED, 200);

    await refuseBadZoneThenLimitTokensToZero(page);
    await answers(token, 'claude-haiku-4-5', 402);
    // The model switch and the spend limit: two patches of acme's GatewaySettings, both the editor's own.
    const patches = audit()
      .slice(auditBefore)
      .filter((e) => e.verb === 'patch' && e.objectRef?.resource === 'gatewaysettings' && e.objectRef.namespace === 'acme' && !e.objectRef.subresource);
    expect(patches.map((e) => [e.user.username, e.responseStatus?.code])).toEqual([
      [EDITOR, 200],
      [EDITOR, 200],
    ]);

    await openPage(page, 'Tokens');
    // The row is the API server's object: live once the operator has taken it, with the time it was created.
    const row = page.getByRole('row').filter({ hasText: 'ci-bot@acme.example' });
    await row.getByRole('cell', { name: 'live', exact: true }).waitFor();
    expect(await row.getByRole('cell', { name: '—', exact: true }).count()).toBe(0);
    const beforeRevoke = audit().length;
    await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await get(kube, 'GatewayToken', 'acme', 'ci-bot'))?.spec).toMatchObject({ revoked: true });
    expect(
      audit()
        .slice(beforeRevoke)
        .filter((e) => e.verb === 'patch' && e.objectRef?.resource === 'gatewaytokens' && e.objectRef.name === 'ci-bot' && !e.objectRef.subresource)
        .map((e) => e.user.username),
    ).toEqual([EDITOR]);
    await answers(token, 'claude-haiku-4-5', 401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').waitFor();
    expect((await page.request.get(`${gateway.adminUrl}/console/api/me`)).status()).toBe(401);
    await page.close();
  });

  it("a viewer bound to one namespace sees that company's Usage and Logs, no write controls, and the server refuses a write forged from the page", { timeout: 120_000 }, async () => {
    const page = await browser.newPage();
    await signIn(page, server.userTokens.viola as string);
    await page.getByText('Signed in as viola').waitFor();
    // One company: no selector, and globex is not offered anywhere.
    expect(await page.getByLabel('Company').count()).toBe(0);
    expect(await page.getByText('Company: acme').count()).toBe(1);
    expect(await page.content()).not.toContain('globex');

    await openPage(page, 'Usage');
    await reloadUntil(page, 'caller@acme.example');
    await openPage(page, 'Logs');
    await reloadUntil(page, 'caller@acme.example');

    await openPage(page, 'Tokens');
    await page.getByRole('cell', { name: 'caller@acme.example' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    await openPage(page, 'Models');
    const switches = page.getByRole('switch');
    expect(await switches.count()).toBeGreaterThan(0);
    for (const s of await switches.all()) expect(await s.isDisabled()).toBe(true);
    await openPage(page, 'Settings');
    for (const s of await page.getByRole('switch').all()) expect(await s.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save spend limits' }).count()).toBe(0);

    // Writes forged in the page's own context: the session cookie, the page's Origin and the console header all go along.
    const version = String((await get(kube, 'GatewaySettings', 'acme', 'settings'))?.metadata.generation);
    const forged = (await page.evaluate(`(async () => {
      const send = async (method, path, body) => {
        const res = await fetch('/console/api/' + path, { method, headers: { 'content-type': 'application/json', 'x-gw-console': '1' }, body: JSON.stringify(body) });
        return { status: res.status, error: (await res.json()).error };
      };
      return [
        await send('POST', 'tokens', { company: 'acme', name: 'forged' }),
        await send('POST', 'tokens/revoke', { company: 'acme', name: 'caller' }),
        await send('PUT', 'settings', { company: 'acme', version: '${version}', secretScanning: true }),
        await send('PUT', 'models', { company: 'acme', version: '${version}', provider: 'provider_a', id: 'anthropic/claude-sonnet-4.5', on: true }),
        await send('POST', 'tokens', { company: 'globex', name: 'forged' }),
      ];
    })()`)) as { status: number; error: string }[];
    expect(forged.map((f) => f.status)).toEqual([403, 403, 403, 403, 403]);
    expect(forged[0]?.error).toContain('User "viola" cannot create resource "gatewaytokens"');
    expect(await get(kube, 'GatewayToken', 'acme', 'forged')).toBeNull();
    expect(await get(kube, 'GatewayToken', 'globex', 'forged')).toBeNull();
    expect((await get(kube, 'GatewayToken', 'acme', 'caller'))?.spec).not.toMatchObject({ revoked: true });
    expect(audit().filter((e) => e.user.username === 'viola' && (e.responseStatus?.code ?? 0) < 300)).toEqual([]);

    // Another company by its address: refused by the server, in words.
    await page.goto(`${gateway.adminUrl}/console/?page=usage&company=globex`);
    await page.getByText('Loading…').waitFor({ state: 'detached' });
    expect(await page.getByText('caller@acme.example').count()).toBe(0);
    await page.getByRole('alert').filter({ hasText: 'globex' }).waitFor();
    await page.close();
  });
});
