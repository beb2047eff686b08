import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { Document, isMap, isSeq } from 'yaml';
import { generateToken, hashToken } from '../../auth/token.js';
import { CONSOLE_MESSAGES as M, USAGE_QUERY_MESSAGES as Q } from '../../errors/messages.js';
import { listedModels } from '../../models/catalogue.js';
import { normalizeModelId } from '../../models/normalize.js';
import { PROVIDERS, type ProviderName } from '../../models/providers.js';
import { settingsProblems } from '../../reconcile/settings-problems.js';
import type { GatewaySettingsSpec } from '../../resources/types.js';
import type { GatewayState } from '../../state/state.js';
import { reportCsv } from '../../usage/csv.js';
import { dayStartIn } from '../../governance/spend-windows.js';
import { encodeCursor, readLogsQuery, readReportQuery, searchParamsSource, type QueryLimits, type QuerySource } from '../../usage/query-params.js';
import { cursorOf, type UsageReader } from '../../usage/report.js';
import { foldedReport } from '../../usage/top-groups.js';
import type { AdminAccess } from '../admin-access.js';
import { CONSOLE_PATH, cookie, cookieOf, fromOwnPage, json, parsedBody, readJson, readJsonOnce, Refusal, SECURITY_HEADERS, send, stringField, TYPES } from './console-http.js';
import type { ClusterTokenWriter } from './kube-writer.js';
import { ClusterRefusal, type ClusterSettings } from './cluster-answers.js';
import { changedFields, mergePatch, switchedModels } from './settings-change.js';
import { ConfigError, EditRefused, FileConflict, findDocument, ResourceFile } from './resource-file.js';
import { DEFAULT_SESSION_LIMITS, newSessionId, remainingMs, sessionKey, type ConsoleSession, type SessionLimits, type SessionStore } from './sessions.js';

export interface ConsoleOptions {
  readonly access: AdminAccess;
  readonly state: Pick<GatewayState, 'listCompanies' | 'getCompany' | 'credentialHealth'>;
  readonly usage: UsageReader;
  readonly sessions: SessionStore;
  /** Where the built assets are (dist/console). */
  readonly assets: string;
  /**
   * The `gw serve -f` file and who may change it from the console (the admin
   * tokens, never a Kubernetes read grant); null in a cluster, where the
   * console does not write.
   */
  readonly file: { readonly file: ResourceFile; readonly writers: AdminAccess } | null;
  /** In a cluster (no file, Kubernetes access): token changes sent to the API server with the person's own token. */
  readonly cluster?: ClusterTokenWriter | null;
  readonly limits?: SessionLimits;
  readonly now?: () => number;
  readonly log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
}

/** The company's GatewaySettings changed in the cluster since the page read it: nothing was written. */
class SettingsConflict extends Error {
  constructor(readonly changed: readonly string[]) {
    super('the GatewaySettings changed since this page loaded');
  }
}
const TOKEN_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The owner console at /console/ of the admin listener: static assets and
 * sign-in are open; everything else needs a session, and each call is
 * decided with the signed-in person's own credential by the same access the
 * Usage and Logs API uses.
 */
/** The console's pages: 50 log rows a page (at most 200), Usage by day unless another period is chosen. */
const CONSOLE_QUERY_LIMITS: QueryLimits = Object.freeze({ maxLimit: 200, defaultLimit: 50, defaultPeriod: 'day' });

/** Groups a Usage page lists one by one unless asked for another number (`top`); the rest are summed (top-groups.ts). */
export const CONSOLE_TOP_GROUPS = 10;
const MAX_TOP_GROUPS = 1000;

function topOf(url: URL): number {
  const raw = url.searchParams.get('top');
  if (raw === null || raw === '') return CONSOLE_TOP_GROUPS;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1 || n > MAX_TOP_GROUPS) throw new Refusal(400, M.badRequest(Q.badLimit('"top"', MAX_TOP_GROUPS)));
  return n;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A query of the console's URL (its range is `from` / `to`), through the reader the CLI and the API use; a problem is a
 * 400 in words. The page's From and To are date fields: a date alone is that day's start in the company's time zone
 * (as the page says), not UTC midnight, so a month picked there is that month's days and no part of its neighbours'.
 */
function readQuery<T>(url: URL, timeZone: string, read: (source: QuerySource, problems: string[]) => T): T {
  const problems: string[] = [];
  const base = searchParamsSource(url.searchParams, { since: 'from', until: 'to' });
  const local = (v: string | undefined): string | undefined => {
    if (v === undefined || !DATE_ONLY.test(v) || Number.isNaN(Date.parse(v))) return v;
    try {
      return new Date(dayStartIn(v, timeZone)).toISOString();
    } catch {
      return v; // a zone this runtime does not know: the reader's own rule (UTC midnight)
    }
  };
  const source: QuerySource = { label: (f) => base.label(f), value: (f) => (f === 'since' || f === 'until' ? local(base.value(f)) : base.value(f)) };
  const query = read(source, problems);
  if (problems.length > 0) throw new Refusal(400, M.badRequest(problems.join('; ')));
  return query;
}

export class ConsoleServer {
  private readonly limits: SessionLimits;
  private readonly now: () => number;

  constructor(private readonly options: ConsoleOptions) {
    this.limits = options.limits ?? DEFAULT_SESSION_LIMITS;
    this.now = options.now ?? Date.now;
  }

  handles(path: string): boolean {
    return path === '/console' || path.startsWith(CONSOLE_PATH);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://console');
    try {
      if (url.pathname.startsWith('/console/api/')) return await this.api(req, res, url);
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, M.notFound);
      return await this.asset(res, url.pathname);
    } catch (error) {
      if (error instanceof Refusal) return json(res, error.status, { error: error.message });
      if (error instanceof FileConflict) return json(res, 409, { error: M.conflict(error.changed), changed: error.changed });
      if (error instanceof SettingsConflict) return json(res, 409, { error: M.settingsConflict(error.changed), changed: error.changed });
      if (error instanceof ConfigError) return json(res, 422, { error: M.invalid(error.problems) });
      if (error instanceof EditRefused) return json(res, 409, { error: error.message });
      if (error instanceof ClusterRefusal) return json(res, error.status, { error: M.clusterRefused(error.message) });
      this.options.log.error({ path: url.pathname, err: error instanceof Error ? error.message : String(error) }, 'console request failed');
      if (res.headersSent) res.destroy();
      else json(res, 500, { error: M.internal });
    }
  }

  private async asset(res: ServerResponse, path: string): Promise<void> {
    if (path === '/console') return send(res, 308, '', 'text/plain', { location: CONSOLE_PATH });
    const relative = path === CONSOLE_PATH ? 'index.html' : path.slice(CONSOLE_PATH.length);
    const file = normalize(join(this.options.assets, relative));
    if (!file.startsWith(this.options.assets + sep) || !(extname(file) in TYPES)) throw new Refusal(404, M.notFound);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      throw new Refusal(404, M.notFound);
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': TYPES[extname(file)] as string, 'content-length': String(body.length), 'cache-control': 'no-cache' });
    res.end(body);
  }

  private async session(req: IncomingMessage): Promise<{ id: string; session: ConsoleSession }> {
    const id = cookieOf(req);
    if (id === null) throw new Refusal(401, M.signedOut);
    const key = sessionKey(id);
    const session = await this.options.sessions.get(key);
    const now = this.now();
    if (session === null || remainingMs(session, this.limits, now) <= 0) throw new Refusal(401, M.signedOut);
    const touched = { ...session, seen: now };
    await this.options.sessions.put(key, touched, remainingMs(touched, this.limits, now));
    return { id, session: touched };
  }

  /** The person's own credential decides, on every call; a credential no longer accepted ends the session. */
  private async authorize(id: string, session: ConsoleSession, company: string | null, resource: 'usage' | 'logs' = 'usage'): Promise<void> {
    const decision = await this.options.access.decide(`Bearer ${session.bearer}`, resource, company);
    if (decision.ok) return;
    if (decision.status === 401) {
      await this.options.sessions.delete(sessionKey(id));
      throw new Refusal(401, M.signedOut);
    }
    throw new Refusal(403, company === null ? M.noCompany : M.notYourCompany(company));
  }

  private async companiesOf(session: ConsoleSession): Promise<string[]> {
    const out: string[] = [];
    for (const company of (await this.options.state.listCompanies()).sort()) {
      if ((await this.options.access.decide(`Bearer ${session.bearer}`, 'usage', company)).ok) out.push(company);
    }
    return out;
  }

  private async api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = `${req.method ?? 'GET'} ${url.pathname.slice('/console/api'.length)}`;
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (write && !fromOwnPage(req)) throw new Refusal(403, M.badOrigin);
    if (route === 'POST /session') return this.signIn(req, res);
    const { id, session } = await this.session(req);
    if (route === 'DELETE /session') {
      await this.options.sessions.delete(sessionKey(id));
      this.options.log.info({ who: session.who }, 'console sign-out');
      return json(res, 200, { signedOut: true }, { 'set-cookie': cookie(req, '', 0) });
    }
    if (route === 'GET /me') {
      return json(res, 200, { who: session.who, companies: await this.companiesOf(session), writes: await this.mayWrite(session) });
    }
    const company = write ? stringField(await readJsonOnce(req), 'company') : url.searchParams.get('company');
    if (company === null || company === '') throw new Refusal(400, M.noCompany);
    const resource = route === 'GET /logs' ? 'logs' : 'usage';
    await this.authorize(id, session, company, resource);
    const clusterWrite = this.options.file === null && this.options.cluster && ['POST /tokens', 'POST /tokens/revoke', 'PUT /settings', 'PUT /models'].includes(route);
    if (write && !clusterWrite) {
      if (this.options.file === null) throw new Refusal(501, M.noFile);
      if (!(await this.options.file.writers.decide(`Bearer ${session.bearer}`, 'usage', company)).ok) throw new Refusal(403, M.mayNotChange(company));
    }
    switch (route) {
      case 'GET /usage':
        return this.usage(res, url, company);
      case 'GET /logs':
        return this.logs(res, url, company);
      case 'GET /tokens':
        return this.tokens(res, company, session.bearer);
      case 'POST /tokens':
        return this.createToken(req, res, company, session);
      case 'POST /tokens/revoke':
        return this.revokeToken(req, res, company, session);
      case 'GET /settings':
        return this.settings(res, company, session.bearer);
      case 'PUT /settings':
        return this.saveSettings(req, res, company, session);
      case 'GET /models':
        return this.models(res, company, session.bearer);
      case 'PUT /models':
        return this.switchModel(req, res, company, session);
      case 'GET /credentials':
        return this.credentials(res, company);
      default:
        throw new Refusal(404, M.notFound);
    }
  }

  private async signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const token = typeof body.token === 'string' ? body.token.trim() : '';
    if (token === '') throw new Refusal(400, M.signInNeedsToken);
    // A 403 for "all companies" still proves the token is known: a scoped token or a namespaced RBAC grant.
    const decision = await this.options.access.decide(`Bearer ${token}`, 'usage', null);
    if (!decision.ok && decision.status === 401) throw new Refusal(401, M.tokenNotAccepted);
    const who = decision.who ?? 'signed-in person';
    const id = newSessionId();
    const now = this.now();
    const session: ConsoleSession = { who, bearer: token, created: now, seen: now };
    await this.options.sessions.put(sessionKey(id), session, remainingMs(session, this.limits, now));
    this.options.log.info({ who }, 'console sign-in');
    return json(res, 200, { who }, { 'set-cookie': cookie(req, id, Math.floor(this.limits.absoluteMs / 1000)) });
  }

  private async timeZoneOf(company: string): Promise<string> {
    return (await this.options.state.getCompany(company))?.settings.timeZone ?? 'UTC';
  }

  private async usage(res: ServerResponse, url: URL, company: string): Promise<void> {
    const timeZone = await this.timeZoneOf(company);
    const query = { ...readQuery(url, timeZone, (source, problems) => readReportQuery(source, problems, CONSOLE_QUERY_LIMITS)), company };
    const { groupBy, period } = query;
    if (url.searchParams.get('format') === 'csv') {
      const answer = await this.options.usage.report(query);
      return send(res, 200, reportCsv(answer.data), 'text/csv; charset=utf-8', { 'content-disposition': `attachment; filename="usage-${company}-${groupBy}-${period ?? 'all'}.csv"` });
    }
    const top = topOf(url);
    const answer = await foldedReport(this.options.usage, query, top);
    return json(res, 200, { company, timeZone, groupBy, period, top, ...answer.data, droppedRecords: answer.droppedRecords });
  }

  private async logs(res: ServerResponse, url: URL, company: string): Promise<void> {
    const query = { ...readQuery(url, await this.timeZoneOf(company), (source, problems) => readLogsQuery(source, problems, CONSOLE_QUERY_LIMITS)), company };
    // One more than a page tells whether another page exists without counting the table.
    const answer = await this.options.usage.logs({ ...query, limit: query.limit + 1 });
    const page = answer.data.slice(0, query.limit);
    const last = page[page.length - 1];
    const next = answer.data.length > query.limit && last ? encodeCursor(cursorOf(last)) : null;
    return json(res, 200, { company, data: page, next, droppedRecords: answer.droppedRecords });
  }

  private file(): ResourceFile {
    if (this.options.file === null) throw new Refusal(501, M.noFile);
    return this.options.file.file;
  }

  /** Whether this person's credential is one that changes the file (the page shows write controls only then). */
  private async mayWrite(session: ConsoleSession): Promise<boolean> {
    if (this.options.file === null) return false;
    const decision = await this.options.file.writers.decide(`Bearer ${session.bearer}`, 'usage', null);
    return decision.ok || decision.status === 403;
  }

  private async tokens(res: ServerResponse, company: string, bearer: string): Promise<void> {
    const records = await this.options.state.getCompany(company);
    // Until the company's settings reach the state, its tokens spend under the default domain, the company's own name.
    const domain = records?.settings.tokenDomain ?? company;
    const live = new Set(records?.tokens.map((t) => t.name) ?? []);
    if (this.options.file === null) {
      const writable = this.options.cluster ? await this.options.cluster.mayCreateTokens(bearer, company) : false;
      // The API server's list, as this person reads it: a revoked token, or one the operator has not taken yet, is not in the gateway's state but is still theirs to see.
      const listed = this.options.cluster ? await this.options.cluster.listTokens(bearer, company) : null;
      if (listed !== null) {
        const tokens = listed.map((t) => ({
          name: t.name,
          displayName: t.displayName,
          address: `${t.name}@${domain}`,
          created: t.created,
          state: t.revoked ? 'revoked' : live.has(t.name) ? 'live' : 'not ready',
        }));
        return json(res, 200, { version: null, writable, tokens });
      }
      return json(res, 200, { version: null, writable, tokens: (records?.tokens ?? []).map((t) => ({ name: t.name, displayName: null, address: t.address, created: null, state: 'live' })) });
    }
    const snapshot = await this.options.file.file.read();
    const tokens = ResourceFile.documents(snapshot.text)
      .map((d) => d as { kind?: string; metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> }; spec?: { revoked?: boolean; displayName?: string } })
      .filter((d) => d?.kind === 'GatewayToken' && (d.metadata?.namespace ?? 'default') === company)
      .map((d) => {
        const name = d.metadata?.name ?? '';
        return {
          name,
          displayName: d.spec?.displayName ?? null,
          address: `${name}@${domain}`,
          created: d.metadata?.annotations?.['gw.io/created-at'] ?? null,
          state: d.spec?.revoked ? 'revoked' : live.has(name) ? 'live' : 'not ready',
        };
      });
    const writable = (await this.options.file.writers.decide(`Bearer ${bearer}`, 'usage', company)).ok;
    return json(res, 200, { version: snapshot.version, writable, tokens });
  }

  private async createToken(req: IncomingMessage, res: ServerResponse, company: string, session: ConsoleSession): Promise<void> {
    const who = session.who;
    const body = parsedBody(req);
    const name = stringField(body, 'name');
    if (!TOKEN_NAME.test(name)) throw new Refusal(400, M.tokenNameInvalid);
    const token = generateToken();
    if (this.options.file === null && this.options.cluster) {
      await this.options.cluster.create(session.bearer, company, name, hashToken(token), new Date(this.now()).toISOString());
      this.options.log.info({ who, company, token: name }, 'console created a GatewayToken with the person’s own credential');
      return json(res, 201, { name, token, version: null });
    }
    const { snapshot } = await this.file().edit(stringField(body, 'version'), (docs) => {
      if (findDocument(docs, 'GatewayToken', company, name)) throw new EditRefused(M.tokenNameTaken(name));
      docs.push(
        new Document({
          apiVersion: 'gw.io/v1alpha1',
          kind: 'GatewayToken',
          metadata: { name, namespace: company, annotations: { 'gw.io/created-at': new Date(this.now()).toISOString(), 'gw.io/created-by': who } },
          spec: { tokenHash: hashToken(token) },
        }),
      );
    });
    this.options.log.info({ who, company, token: name }, 'console created a token');
    return json(res, 201, { name, token, version: snapshot.version });
  }

  private async revokeToken(req: IncomingMessage, res: ServerResponse, company: string, session: ConsoleSession): Promise<void> {
    const who = session.who;
    const body = parsedBody(req);
    const name = stringField(body, 'name');
    if (this.options.file === null && this.options.cluster) {
      await this.options.cluster.revoke(session.bearer, company, name);
      this.options.log.info({ who, company, token: name }, 'console revoked a GatewayToken with the person’s own credential');
      return json(res, 200, { name, state: 'revoked', version: null });
    }
    const { snapshot } = await this.file().edit(stringField(body, 'version'), (docs) => {
      const doc = findDocument(docs, 'GatewayToken', company, name);
      if (!doc) throw new EditRefused(M.noSuchToken(name));
      doc.setIn(['spec', 'revoked'], true);
    });
    this.options.log.info({ who, company, token: name }, 'console revoked a token');
    return json(res, 200, { name, state: 'revoked', version: snapshot.version });
  }

  private async settingsSpec(company: string): Promise<{ version: string; spec: GatewaySettingsSpec | null }> {
    const snapshot = await this.file().read();
    const doc = ResourceFile.documents(snapshot.text).find(
      (d) => (d as { kind?: string })?.kind === 'GatewaySettings' && ((d as { metadata?: { namespace?: string } }).metadata?.namespace ?? 'default') === company,
    ) as { spec?: GatewaySettingsSpec } | undefined;
    return { version: snapshot.version, spec: doc?.spec ?? null };
  }

  /** Specs handed to pages in a cluster, by company and resourceVersion, so a 409 can say what changed (bounded). */
  private readonly seenSpecs = new Map<string, GatewaySettingsSpec>();

  private remember(company: string, settings: ClusterSettings): void {
    const key = `${company}\n${settings.generation}`;
    this.seenSpecs.delete(key);
    this.seenSpecs.set(key, settings.spec);
    if (this.seenSpecs.size > 256) this.seenSpecs.delete(this.seenSpecs.keys().next().value as string);
  }

  /**
   * The company's GatewaySettings as the person reads it from the API server,
   * with whether they may change it; null when they may not read it (a viewer
   * then sees what is in force, from the gateway's state) or there is not
   * exactly one.
   */
  private async clusterSettings(bearer: string, company: string): Promise<{ settings: ClusterSettings; writable: boolean } | null> {
    const cluster = this.options.file === null ? this.options.cluster : null;
    if (!cluster) return null;
    let settings: ClusterSettings | null;
    try {
      settings = await cluster.readSettings(bearer, company);
    } catch (error) {
      if (error instanceof ClusterRefusal && (error.status === 403 || error.status === 404)) return null;
      throw error;
    }
    if (settings === null) return null;
    this.remember(company, settings);
    return { settings, writable: await cluster.mayChangeSettings(bearer, company) };
  }

  /**
   * A change to the company's GatewaySettings in the cluster, sent with the
   * person's own token only if its spec is still the one their page read
   * (`version` is the object's generation, which the operator's status and
   * finalizer writes do not move), and only if the operator would accept the
   * result (its own checks and words). Returns the new version.
   */
  private async changeClusterSettings(session: ConsoleSession, company: string, version: string, change: (spec: GatewaySettingsSpec) => Partial<GatewaySettingsSpec>): Promise<string> {
    const cluster = this.options.cluster as ClusterTokenWriter;
    const conflict = (now: ClusterSettings): SettingsConflict => {
      const before = this.seenSpecs.get(`${company}\n${version}`);
      return new SettingsConflict(before === undefined ? [] : changedFields(before, now.spec, 'spec'));
    };
    // The operator may write the object's status between our read and our patch; only a changed spec is a conflict.
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await cluster.readSettings(session.bearer, company);
      if (current === null) throw new EditRefused(M.noClusterSettings);
      if (String(current.generation) !== version) throw conflict(current);
      const patch = change(current.spec);
      const problems = settingsProblems(mergePatch(current.spec, patch) as GatewaySettingsSpec);
      if (problems.length > 0) throw new Refusal(422, M.invalid(problems.map((p) => `${p.field}: ${p.message}`)));
      try {
        const stored = await cluster.patchSettings(session.bearer, company, current.name, current.resourceVersion, patch);
        this.remember(company, stored);
        return String(stored.generation);
      } catch (error) {
        if (!(error instanceof ClusterRefusal && error.status === 409)) throw error;
      }
    }
    throw new SettingsConflict([]);
  }

  private async settings(res: ServerResponse, company: string, bearer: string): Promise<void> {
    const records = await this.options.state.getCompany(company);
    const s = records?.settings;
    const inCluster = await this.clusterSettings(bearer, company);
    if (inCluster !== null) {
      // What the person's change will be compared with: the object, not the state the operator last applied.
      const spec = inCluster.settings.spec;
      return json(res, 200, {
        version: String(inCluster.settings.generation),
        writable: inCluster.writable,
        repositoryAttribution: spec.repositoryAttribution ?? false,
        endUserRecording: spec.endUserRecording ?? false,
        secretScanning: spec.secretScanning ?? false,
        spendLimits: spec.spendLimits ?? { timeZone: 'UTC', perToken: [], company: [] },
      });
    }
    const fromFile = this.options.file === null ? null : await this.settingsSpec(company);
    return json(res, 200, {
      version: fromFile?.version ?? null,
      writable: fromFile !== null && (await this.fileWriter(bearer, company)),
      repositoryAttribution: s?.repositoryAttribution ?? false,
      endUserRecording: s?.endUserRecording ?? false,
      secretScanning: s?.secretScanning ?? false,
      spendLimits: fromFile?.spec?.spendLimits ?? { timeZone: s?.timeZone ?? 'UTC', perToken: s?.perTokenLimits ?? [], company: s?.companyLimits ?? [] },
    });
  }

  private async fileWriter(bearer: string, company: string): Promise<boolean> {
    return this.options.file !== null && (await this.options.file.writers.decide(`Bearer ${bearer}`, 'usage', company)).ok;
  }

  private async saveSettings(req: IncomingMessage, res: ServerResponse, company: string, session: ConsoleSession): Promise<void> {
    const body = parsedBody(req);
    const patch: Partial<GatewaySettingsSpec> = {};
    for (const flag of ['repositoryAttribution', 'endUserRecording', 'secretScanning'] as const) {
      if (body[flag] === undefined) continue;
      if (typeof body[flag] !== 'boolean') throw new Refusal(400, M.badRequest(`"${flag}" must be true or false`));
      patch[flag] = body[flag];
    }
    if (body.spendLimits !== undefined) {
      if (typeof body.spendLimits !== 'object' || body.spendLimits === null || Array.isArray(body.spendLimits)) throw new Refusal(400, M.badRequest('"spendLimits" must be an object'));
      patch.spendLimits = body.spendLimits as GatewaySettingsSpec['spendLimits'];
      // The operator's own check, with its own words, before anything is written.
      const problems = settingsProblems({ tokenDomain: 'x', ...patch } as GatewaySettingsSpec);
      if (problems.length > 0) throw new Refusal(422, M.invalid(problems.map((p) => `${p.field}: ${p.message}`)));
    }
    const version = stringField(body, 'version');
    if (this.options.file === null && this.options.cluster) {
      const resourceVersion = await this.changeClusterSettings(session, company, version, () => patch);
      this.options.log.info({ who: session.who, company, fields: Object.keys(patch) }, 'console changed GatewaySettings with the person’s own credential');
      return json(res, 200, { version: resourceVersion });
    }
    const { snapshot } = await this.file().edit(version, (docs) => {
      const doc = findDocument(docs, 'GatewaySettings', company);
      if (!doc) throw new EditRefused(M.noSettings);
      for (const [key, value] of Object.entries(patch)) doc.setIn(['spec', key], doc.createNode(value));
    });
    this.options.log.info({ who: session.who, company, fields: Object.keys(patch) }, 'console changed settings');
    return json(res, 200, { version: snapshot.version });
  }

  private async models(res: ServerResponse, company: string, bearer: string): Promise<void> {
    const records = await this.options.state.getCompany(company);
    const connected = [...new Set(records?.credentials.map((c) => c.provider) ?? [])].sort((a, b) => PROVIDERS.indexOf(a) - PROVIDERS.indexOf(b));
    const inCluster = await this.clusterSettings(bearer, company);
    const fromFile = this.options.file === null ? null : await this.settingsSpec(company);
    const providers = connected.map((provider) => {
      // In a cluster the switches show the object the person changes; otherwise what is in force.
      const enabled = inCluster !== null ? inCluster.settings.spec.models?.[provider]?.enabled : records?.settings.enabledModels[provider];
      return {
        provider,
        models: listedModels(provider).map((m) => ({
          id: m.id,
          displayName: m.displayName,
          // A provider the settings do not name keeps its default: the vendor's models on, every other provider's off.
          on: enabled === undefined ? provider === 'vendor' : enabled.includes('*') || enabled.some((e) => normalizeModelId(e) === normalizeModelId(m.id)),
        })),
      };
    });
    if (inCluster !== null) return json(res, 200, { version: String(inCluster.settings.generation), writable: inCluster.writable, providers });
    return json(res, 200, { version: fromFile?.version ?? null, writable: fromFile !== null && (await this.fileWriter(bearer, company)), providers });
  }

  private async switchModel(req: IncomingMessage, res: ServerResponse, company: string, session: ConsoleSession): Promise<void> {
    const body = parsedBody(req);
    const provider = stringField(body, 'provider') as ProviderName;
    if (!PROVIDERS.includes(provider)) throw new Refusal(400, M.badRequest(`"provider" must be one of ${PROVIDERS.join(', ')}`));
    const id = stringField(body, 'id');
    if (typeof body.on !== 'boolean') throw new Refusal(400, M.badRequest('"on" must be true or false'));
    const on = body.on;
    const listed = listedModels(provider).map((m) => m.id);
    if (!listed.includes(id)) throw new Refusal(400, M.badRequest(`"${id}" is not a model ${provider} lists`));
    const version = stringField(body, 'version');
    if (this.options.file === null && this.options.cluster) {
      const resourceVersion = await this.changeClusterSettings(session, company, version, (spec) => ({
        models: { [provider]: { enabled: switchedModels(spec.models?.[provider]?.enabled, provider === 'vendor', listed, id, on, normalizeModelId) } },
      }));
      this.options.log.info({ who: session.who, company, provider, model: id, on }, 'console switched a model with the person’s own credential');
      return json(res, 200, { version: resourceVersion });
    }
    const { snapshot } = await this.file().edit(version, (docs) => {
      const doc = findDocument(docs, 'GatewaySettings', company);
      if (!doc) throw new EditRefused(M.noSettings);
      const node = doc.getIn(['spec', 'models', provider, 'enabled']);
      const enabled = switchedModels(isSeq(node) ? (node.toJSON() as string[]) : undefined, provider === 'vendor', listed, id, on, normalizeModelId);
      if (!isMap(doc.getIn(['spec', 'models']))) doc.setIn(['spec', 'models'], doc.createNode({}));
      doc.setIn(['spec', 'models', provider], doc.createNode({ enabled }));
    });
    this.options.log.info({ who: session.who, company, provider, model: id, on }, 'console switched a model');
    return json(res, 200, { version: snapshot.version });
  }

  private async credentials(res: ServerResponse, company: string): Promise<void> {
    const records = await this.options.state.getCompany(company);
    const out = [];
    // Only names, kinds and health leave the server: the record's secret and address stay here.
    for (const c of records?.credentials ?? []) {
      const health = await this.options.state.credentialHealth(company, c.name);
      out.push({ name: c.name, provider: c.provider, kind: c.kind, healthy: health.healthy, reason: health.healthy ? null : health.reason, windows: health.windows });
    }
    return json(res, 200, { credentials: out });
  }
}
