import { api, ApiError } from './api.js';
import { count, dialog, field, h, money, replace, select, type Child } from './dom.js';
// Types only (erased from the shipped script): the rows are the server's own, not restated here.
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import type { OthersRow, ReportRow } from '../../../src/usage/report-row.js';

interface Me {
  who: string;
  companies: string[];
  writes: boolean;
}

/** A Logs row is the request record the server stores. */
type LogRecord = UsageRecord;

const PAGES = [
  ['usage', 'Usage'],
  ['logs', 'Logs'],
  ['tokens', 'Tokens'],
  ['models', 'Models'],
  ['settings', 'Settings'],
  ['credentials', 'Credentials'],
] as const;
type Page = (typeof PAGES)[number][0];

const app = document.getElementById('app') as HTMLElement;
let me: Me | null = null;

/** Filters live in the URL, so a view can be shared as a link and survives a reload. */
function params(): URLSearchParams {
  return new URL(location.href).searchParams;
}

function go(next: Record<string, string | undefined>, replaceAll = false): void {
  const url = new URL(location.href);
  if (replaceAll) url.search = '';
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined || v === '') url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  history.pushState(null, '', url);
  void render();
}

window.addEventListener('popstate', () => void render());

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong in the page; reload it and try again.';
}

function problem(error: unknown): HTMLElement {
  if (error instanceof ApiError && error.status === 401) {
    me = null;
    void render();
  }
  return h('p', { class: 'error', role: 'alert' }, errorText(error));
}

async function render(): Promise<void> {
  if (me === null) {
    try {
      me = await api.get<Me>('me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return signIn();
      replace(app, h('main', {}, h('p', { class: 'error', role: 'alert' }, errorText(error))));
      return;
    }
  }
  const page = (params().get('page') ?? 'usage') as Page;
  const known = PAGES.some(([p]) => p === page) ? page : 'usage';
  const company = params().get('company') ?? me.companies[0] ?? '';
  const main = h('main', { id: 'main' });
  replace(app, shell(me, known, company), main);
  const title = PAGES.find(([p]) => p === known)?.[1] ?? 'Usage';
  document.title = `${title} · Model gateway console`;
  if (company === '') {
    replace(main, h('h2', {}, title), h('p', {}, 'You may not see any company yet. Ask an owner to give you access to one, then sign in again.'));
    return;
  }
  main.append(h('h2', {}, title));
  const body = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  main.append(body);
  try {
    await PAGE_RENDERERS[known](body, company, me);
  } catch (error) {
    replace(body, problem(error));
  }
}

function shell(person: Me, page: Page, company: string): HTMLElement {
  const links = PAGES.map(([p, label]) => {
    const url = new URL(location.href);
    url.search = '';
    url.searchParams.set('page', p);
    if (company !== '') url.searchParams.set('company', company);
    const a = h('a', { href: url.pathname + url.search, ...(p === page ? { 'aria-current': 'page' } : {}) }, label);
    a.addEventListener('click', (event) => {
      event.preventDefault();
      go({ page: p, company }, true);
    });
    return h('li', {}, a);
  });
  const companyPicker =
    person.companies.length > 1
      ? field(
          'Company',
          select(
            'company',
            person.companies.map((c) => [c, c] as const),
            company,
            (value) => go({ page, company: value }, true),
          ),
        )
      : person.companies.length === 1
        ? h('span', {}, 'Company: ', h('strong', {}, company))
        : null;
  return h(
    'header',
    {},
    h('h1', {}, 'Model gateway'),
    h('nav', { 'aria-label': 'Console' }, h('ul', {}, ...links)),
    companyPicker,
    h('span', { class: 'muted' }, 'Signed in as ', person.who),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          void api
            .delete('session')
            .catch(() => undefined)
            .then(() => {
              me = null;
              history.pushState(null, '', location.pathname);
              void render();
            });
        },
      },
      'Sign out',
    ),
  );
}

function signIn(message?: string): void {
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true, spellcheck: 'false' });
  const status = h('p', { role: 'alert' });
  if (message) status.textContent = message;
  const form = h(
    'form',
    {
      class: 'signin',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const value = token.value;
        // The pasted token lives only in this field until the server answers; it is never stored or put in a URL.
        token.value = '';
        status.textContent = 'Signing in…';
        api
          .post<{ who: string }>('session', { token: value })
          .then(() => {
            me = null;
            return render();
          })
          .catch((error: unknown) => {
            status.className = 'error';
            status.textContent = errorText(error);
            token.focus();
          });
      },
    },
    h('h1', {}, 'Model gateway console'),
    h('p', {}, 'Paste your token to sign in: in a cluster, your own Kubernetes token (kubectl create token, or your OIDC token); on one machine, an admin token.'),
    field('Token', token),
    h('p', {}, h('button', { type: 'submit' }, 'Sign in')),
    status,
  );
  document.title = 'Sign in · Model gateway console';
  replace(app, h('main', {}, form));
  token.focus();
}

const GROUPS = [
  ['address', 'Address'],
  ['model', 'Model'],
  ['provider', 'Provider'],
  ['repo', 'Repository'],
  ['application', 'Application'],
  ['end_user', 'End user'],
] as const;
const PLURALS: Readonly<Record<string, string>> = {
  address: 'addresses',
  model: 'models',
  provider: 'providers',
  repo: 'repositories',
  application: 'applications',
  end_user: 'end users',
};
const PERIODS = [
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
] as const;

function dateInput(name: string, value: string, onChange: (value: string) => void): HTMLInputElement {
  const el = h('input', { type: 'date', name, value });
  el.addEventListener('change', () => onChange(el.value));
  return el;
}

async function usagePage(body: HTMLElement, company: string): Promise<void> {
  const p = params();
  const groupBy = p.get('group_by') ?? 'address';
  const period = p.get('period') ?? 'day';
  const from = p.get('from') ?? '';
  const to = p.get('to') ?? '';
  const query = { company, group_by: groupBy, period, from, to };
  const answer = await api.get<UsageAnswer>('usage', query);
  const controls = h(
    'div',
    { class: 'row' },
    field(
      'Group by',
      select('group_by', GROUPS, groupBy, (v) => go({ group_by: v })),
    ),
    field(
      'Period',
      select('period', PERIODS, period, (v) => go({ period: v })),
    ),
    field(
      'From',
      dateInput('from', from, (v) => go({ from: v })),
    ),
    field(
      'To',
      dateInput('to', to, (v) => go({ to: v })),
    ),
    h('a', { class: 'button', href: api.url('usage', { ...query, format: 'csv' }), download: `usage-${company}.csv` }, 'Download CSV'),
  );
  const rows = answer.data;
  const t = answer.totals;
  const totals = { requests: t.requests, tokens: t.input_tokens + t.output_tokens + t.cache_creation_input_tokens + t.cache_read_input_tokens, cost: t.cost_usd };
  const groupName = GROUPS.find(([g]) => g === groupBy)?.[1] ?? groupBy;
  const plural = PLURALS[groupBy] ?? 'groups';
  const zone = h('p', { class: 'muted' }, `Periods are calendar ${period}s, and From and To are days, in the company's time zone, ${answer.timeZone}. From is inclusive, To exclusive.`);
  if (rows.length === 0) {
    replace(body, controls, zone, h('p', {}, 'No usage in this range yet. Call the gateway with one of the company’s tokens (see Tokens), or widen From and To.'));
    return;
  }
  const folded =
    answer.others.length > 0
      ? h(
          'p',
          { class: 'muted' },
          `${count(answer.groups)} ${plural} in this range: the table lists the ${count(answer.top)} with the highest cost and sums the other ${count(answer.groups - answer.top)} in one “All others” row per ${period}. Download CSV has every one.`,
        )
      : null;
  const dropped =
    answer.droppedRecords > 0 ? h('p', { class: 'error' }, `${count(answer.droppedRecords)} older records were dropped before this answer; configure PostgreSQL to keep every record.`) : null;
  replace(
    body,
    controls,
    zone,
    dropped,
    h(
      'div',
      { class: 'totals' },
      h('div', {}, 'Requests', h('strong', {}, count(totals.requests))),
      h('div', {}, 'Tokens', h('strong', {}, count(totals.tokens))),
      h('div', {}, 'Cost', h('strong', {}, money(totals.cost))),
    ),
    chart(rows, answer.others),
    folded,
    h(
      'table',
      {},
      h('caption', { class: 'muted' }, `Usage by ${groupName.toLowerCase()} per ${period}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Period'),
          h('th', { scope: 'col' }, groupName),
          h('th', { scope: 'col', class: 'num' }, 'Requests'),
          h('th', { scope: 'col', class: 'num' }, 'Input tokens'),
          h('th', { scope: 'col', class: 'num' }, 'Output tokens'),
          h('th', { scope: 'col', class: 'num' }, 'Cache tokens'),
          h('th', { scope: 'col', class: 'num' }, 'Cost'),
        ),
      ),
      h(
        'tbody',
        {},
        ...withOthers(rows, answer.others).map((r) =>
          h(
            'tr',
            'groups' in r ? { class: 'others' } : {},
            h('td', {}, r.period ?? ''),
            h('td', {}, 'groups' in r ? `All others (${count(r.groups)})` : (r.key ?? '(none)')),
            h('td', { class: 'num' }, count(r.requests)),
            h('td', { class: 'num' }, count(r.input_tokens)),
            h('td', { class: 'num' }, count(r.output_tokens)),
            h('td', { class: 'num' }, count(r.cache_creation_input_tokens + r.cache_read_input_tokens)),
            h('td', { class: 'num' }, money(r.cost_usd)),
          ),
        ),
      ),
    ),
  );
}

interface UsageAnswer {
  timeZone: string;
  /** The listed groups' rows; the other groups are summed per period in `others` (src/usage/top-groups.ts). */
  data: ReportRow[];
  others: OthersRow[];
  groups: number;
  top: number;
  totals: OthersRow;
  droppedRecords: number;
}

/** The listed rows with each period's "All others" row after that period's own rows. */
function withOthers(rows: readonly ReportRow[], others: readonly OthersRow[]): Array<ReportRow | OthersRow> {
  const byPeriod = new Map<string, Array<ReportRow | OthersRow>>();
  for (const r of [...rows, ...others]) {
    const list = byPeriod.get(r.period ?? '');
    if (list) list.push(r);
    else byPeriod.set(r.period ?? '', [r]);
  }
  return [...byPeriod.keys()].sort().flatMap((p) => byPeriod.get(p) ?? []);
}

/** Cost per period as bars (listed groups and all others); the table below carries the same numbers for screen readers. */
function chart(rows: readonly ReportRow[], others: readonly OthersRow[]): SVGSVGElement {
  // Whole micro-dollars, as the server sums, so a bar is exactly its period's cost.
  const byPeriod = new Map<string, number>();
  for (const r of [...rows, ...others]) byPeriod.set(r.period ?? '', (byPeriod.get(r.period ?? '') ?? 0) + Math.round(r.cost_usd * 1e6));
  const entries = [...byPeriod.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, micros]) => [p, micros / 1e6] as const);
  const max = Math.max(...entries.map(([, v]) => v), 0.000001);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  // A fixed drawing width, scaled as a whole: bars and labels keep their shape however many periods there are.
  const width = 600;
  const slot = width / Math.max(entries.length, 1);
  const bar = Math.min(slot * 0.7, 48);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', `0 0 ${width} 180`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Cost per period: ${entries.map(([p, v]) => `${p} ${money(v)}`).join(', ')}`);
  const labelEvery = Math.ceil(entries.length / 12);
  entries.forEach(([period, value], i) => {
    const height = Math.max((value / max) * 140, value > 0 ? 1 : 0);
    const x = i * slot + (slot - bar) / 2;
    const rect = document.createElementNS(ns, 'rect');
    rect.setAttribute('x', String(x));
    rect.setAttribute('y', String(155 - height));
    rect.setAttribute('width', String(bar));
    rect.setAttribute('height', String(height));
    svg.append(rect);
    if (i % labelEvery !== 0) return;
    const text = document.createElementNS(ns, 'text');
    text.setAttribute('x', String(i * slot + slot / 2));
    text.setAttribute('y', '172');
    text.setAttribute('text-anchor', 'middle');
    text.textContent = period;
    svg.append(text);
  });
  return svg;
}

async function logsPage(body: HTMLElement, company: string): Promise<void> {
  const p = params();
  const address = p.get('address') ?? '';
  const model = p.get('model') ?? '';
  const order = p.get('order') ?? 'time';
  const after = p.get('after') ?? '';
  const answer = await api.get<{ data: LogRecord[]; next: string | null; droppedRecords: number }>('logs', { company, address, model, order, after });
  const addressInput = h('input', { type: 'text', name: 'address', value: address });
  const modelInput = h('input', { type: 'text', name: 'model', value: model });
  const controls = h(
    'form',
    {
      class: 'row',
      onsubmit: (event: Event) => {
        event.preventDefault();
        go({ address: addressInput.value.trim(), model: modelInput.value.trim(), after: undefined });
      },
    },
    field('Address', addressInput),
    field('Model', modelInput),
    field(
      'Order',
      select(
        'order',
        [
          ['time', 'Newest first'],
          ['cost', 'Most expensive first'],
        ],
        order,
        (v) => go({ order: v, after: undefined }),
      ),
    ),
    h('button', { type: 'submit' }, 'Filter'),
  );
  if (answer.data.length === 0) {
    replace(body, controls, h('p', {}, after ? 'No more records.' : 'No requests match yet. Calls made with the company’s tokens show up here within seconds; clear the filters to see every call.'));
    return;
  }
  const table = h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Time'),
        h('th', { scope: 'col' }, 'Address'),
        h('th', { scope: 'col' }, 'Model'),
        h('th', { scope: 'col', class: 'num' }, 'Tokens'),
        h('th', { scope: 'col', class: 'num' }, 'Cost'),
        h('th', { scope: 'col' }, 'Outcome'),
        h('th', { scope: 'col' }, 'Request'),
      ),
    ),
    h(
      'tbody',
      {},
      ...answer.data.map((r) =>
        h(
          'tr',
          {},
          h('td', {}, new Date(r.time).toLocaleString()),
          h('td', {}, r.address),
          h('td', {}, r.model ?? '(none)'),
          h('td', { class: 'num' }, count(Number(r.input_tokens ?? 0) + Number(r.output_tokens ?? 0))),
          h('td', { class: 'num' }, money(r.cost_usd)),
          h('td', {}, `${r.status} ${r.outcome}`),
          h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-label': `Open request ${r.request_id}`, onclick: () => openRecord(r) }, 'Open')),
        ),
      ),
    ),
  );
  const paging = h(
    'p',
    { class: 'row' },
    after ? h('button', { type: 'button', class: 'secondary', onclick: () => go({ after: undefined }) }, 'First page') : null,
    answer.next ? h('button', { type: 'button', onclick: () => go({ after: answer.next ?? undefined }) }, 'Next page') : null,
  );
  replace(body, controls, table, paging);
}

/** Every field of the record; the record holds no prompt or answer content, so none can be shown. */
function openRecord(record: LogRecord): void {
  const rows: Child[] = [];
  for (const [key, value] of Object.entries(record)) {
    rows.push(h('dt', {}, key), h('dd', {}, value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value)));
  }
  const d = dialog(`Request ${record.request_id}`, h('dl', {}, ...rows), h('p', {}, h('button', { type: 'button', onclick: () => d.close() }, 'Close')));
}

interface TokenRow {
  name: string;
  displayName: string | null;
  address: string;
  created: string | null;
  state: string;
}

async function tokensPage(body: HTMLElement, company: string): Promise<void> {
  const answer = await api.get<{ version: string | null; writable: boolean; tokens: TokenRow[] }>('tokens', { company });
  // The server says whether this person may change tokens here (admin token, or RBAC as the API server sees it).
  const canWrite = answer.writable;
  const create = canWrite ? h('button', { type: 'button', onclick: () => createToken(company, answer.version ?? '') }, 'Create token') : null;
  if (answer.tokens.length === 0) {
    replace(body, create, h('p', {}, 'This company has no tokens yet. Create one for each program or person that calls the gateway.'));
    return;
  }
  replace(
    body,
    create,
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col' }, 'Address'),
          h('th', { scope: 'col' }, 'Created'),
          h('th', { scope: 'col' }, 'Last used'),
          h('th', { scope: 'col' }, 'State'),
          canWrite ? h('th', { scope: 'col' }, 'Actions') : null,
        ),
      ),
      h(
        'tbody',
        {},
        ...answer.tokens.map((t) =>
          h(
            'tr',
            {},
            h('td', {}, t.name, t.displayName ? h('div', { class: 'muted' }, t.displayName) : null),
            h('td', {}, t.address),
            h('td', {}, t.created ? new Date(t.created).toLocaleString() : '—'),
            h('td', {}, h('a', { href: `?page=logs&company=${encodeURIComponent(company)}&address=${encodeURIComponent(t.address)}` }, 'See in Logs')),
            h('td', {}, t.state),
            canWrite
              ? h(
                  'td',
                  {},
                  t.state === 'revoked'
                    ? null
                    : h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${t.name}`, onclick: () => revokeToken(company, t.name, answer.version ?? '') }, 'Revoke'),
                )
              : null,
          ),
        ),
      ),
    ),
  );
}

function createToken(company: string, version: string): void {
  const name = h('input', { type: 'text', name: 'name', required: true, pattern: '[a-z0-9]([-a-z0-9]*[a-z0-9])?', maxlength: 63 });
  const status = h('p', { role: 'alert' });
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        status.textContent = 'Creating…';
        api
          .post<{ name: string; token: string }>('tokens', { company, name: name.value.trim(), version })
          .then((created) => {
            d.close();
            showTokenOnce(created.name, created.token);
          })
          .catch((error: unknown) => {
            status.className = 'error';
            status.textContent = errorText(error);
          });
      },
    },
    h('p', {}, 'Name the token after the program or person that will use it (lowercase letters, digits and dashes).'),
    field('Name', name),
    h('p', { class: 'row' }, h('button', { type: 'submit' }, 'Create'), h('button', { type: 'button', class: 'secondary', onclick: () => d.close() }, 'Cancel')),
    status,
  );
  const d = dialog('Create token', form);
  name.focus();
}

/** The only time the value exists outside the caller: the file and the cluster hold its hash. */
function showTokenOnce(name: string, token: string): void {
  const value = h('input', { type: 'text', readonly: true, class: 'secret', value: token, 'aria-label': `Token ${name}` });
  const copied = h('p', { role: 'status' });
  const d = dialog(
    `Token ${name} created`,
    h('p', {}, 'Copy it now: this is the only time it is shown. Only its hash is kept.'),
    value,
    h(
      'p',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            value.select();
            void navigator.clipboard
              ?.writeText(token)
              .then(() => (copied.textContent = 'Copied.'))
              .catch(() => (copied.textContent = 'Select the value and copy it with the keyboard.'));
          },
        },
        'Copy',
      ),
      h('button', { type: 'button', class: 'secondary', onclick: () => d.close() }, 'Done'),
    ),
    copied,
  );
  d.addEventListener('close', () => {
    value.value = '';
    void render();
  });
}

function revokeToken(company: string, name: string, version: string): void {
  const status = h('p', { role: 'alert' });
  const d = dialog(
    `Revoke ${name}?`,
    h('p', {}, 'Its next request gets 401. Revocation cannot be undone; create a new token instead.'),
    h(
      'p',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () => {
            api
              .post('tokens/revoke', { company, name, version })
              .then(() => {
                d.close();
                void render();
              })
              .catch((error: unknown) => {
                status.className = 'error';
                status.textContent = errorText(error);
              });
          },
        },
        'Revoke',
      ),
      h('button', { type: 'button', class: 'secondary', onclick: () => d.close() }, 'Cancel'),
    ),
    status,
  );
}

async function modelsPage(body: HTMLElement, company: string): Promise<void> {
  const answer = await api.get<{ version: string | null; writable: boolean; providers: { provider: string; models: { id: string; displayName: string; on: boolean }[] }[] }>('models', { company });
  if (answer.providers.length === 0) {
    replace(body, h('p', {}, 'No provider is connected for this company. Connect one with a ProviderCredential (see Credentials), then switch its models on here.'));
    return;
  }
  // The server says whether this person may change them (an admin token with the file, or RBAC in a cluster); it still decides each change.
  const canWrite = answer.writable && answer.version !== null;
  const status = h('p', { role: 'status' });
  replace(
    body,
    canWrite ? null : h('p', { class: 'muted' }, 'You can see the switches but not change them here.'),
    ...answer.providers.map((p) =>
      h(
        'fieldset',
        {},
        h('legend', {}, p.provider),
        ...p.models.map((m) => {
          const box = h('input', { type: 'checkbox', role: 'switch', checked: m.on, disabled: !canWrite });
          box.addEventListener('change', () => {
            box.disabled = true;
            api
              .put('models', { company, version: answer.version, provider: p.provider, id: m.id, on: box.checked })
              .then(() => {
                status.textContent = `${m.id} is switched ${box.checked ? 'on' : 'off'}.`;
                return render();
              })
              .catch((error: unknown) => {
                box.checked = !box.checked;
                box.disabled = false;
                status.className = 'error';
                status.textContent = errorText(error);
              });
          });
          return h('p', {}, h('label', { class: 'inline' }, box, m.id), h('span', { class: 'muted' }, m.displayName));
        }),
      ),
    ),
    status,
  );
}

interface Limit {
  window: 'daily' | 'weekly' | 'monthly';
  usd: number;
}

async function settingsPage(body: HTMLElement, company: string): Promise<void> {
  const s = await api.get<{
    version: string | null;
    writable: boolean;
    repositoryAttribution: boolean;
    endUserRecording: boolean;
    secretScanning: boolean;
    spendLimits: { timeZone?: string; perToken?: Limit[]; company?: Limit[]; refuseUnpriced?: boolean };
  }>('settings', { company });
  const canWrite = s.writable && s.version !== null;
  const status = h('p', { role: 'alert' });
  const save = (patch: Record<string, unknown>): void => {
    status.className = '';
    status.textContent = 'Saving…';
    api
      .put('settings', { company, version: s.version, ...patch })
      .then(() => render())
      .catch((error: unknown) => {
        status.className = 'error';
        status.textContent = errorText(error);
      });
  };
  const toggle = (key: 'repositoryAttribution' | 'endUserRecording' | 'secretScanning', label: string): HTMLElement => {
    const box = h('input', { type: 'checkbox', role: 'switch', checked: s[key], disabled: !canWrite });
    box.addEventListener('change', () => save({ [key]: box.checked }));
    return h('p', {}, h('label', { class: 'inline' }, box, label));
  };
  const zone = h('input', { type: 'text', name: 'timeZone', value: s.spendLimits.timeZone ?? 'UTC', disabled: !canWrite });
  const amounts: { scope: 'perToken' | 'company'; window: Limit['window']; input: HTMLInputElement }[] = [];
  const limitInputs = (scope: 'perToken' | 'company', title: string): HTMLElement =>
    h(
      'fieldset',
      {},
      h('legend', {}, title),
      h(
        'div',
        { class: 'row' },
        ...(['daily', 'weekly', 'monthly'] as const).map((window) => {
          const current = (s.spendLimits[scope] ?? []).find((l) => l.window === window);
          const input = h('input', { type: 'number', min: '0', step: '0.01', inputmode: 'decimal', value: current ? String(current.usd) : '', disabled: !canWrite });
          amounts.push({ scope, window, input });
          return field(`${title}, ${window} (USD)`, input);
        }),
      ),
    );
  const limitsForm = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        const spendLimits: { timeZone: string; perToken: Limit[]; company: Limit[]; refuseUnpriced?: boolean } = { timeZone: zone.value.trim(), perToken: [], company: [] };
        if (s.spendLimits.refuseUnpriced !== undefined) spendLimits.refuseUnpriced = s.spendLimits.refuseUnpriced;
        for (const a of amounts) {
          if (a.input.value.trim() === '') continue;
          const usd = Number(a.input.value);
          if (!Number.isFinite(usd) || usd < 0) {
            status.className = 'error';
            status.textContent = 'A spend limit is an amount in US dollars, 0 or more; leave it empty for no limit.';
            return;
          }
          spendLimits[a.scope].push({ window: a.window, usd });
        }
        save({ spendLimits });
      },
    },
    h('h3', {}, 'Spend limits'),
    h('p', { class: 'muted' }, 'Windows are calendar days, weeks from Monday and months in this time zone. A request that could pass a limit is refused with 402.'),
    field('Time zone', zone),
    limitInputs('perToken', 'Each token'),
    limitInputs('company', 'The whole company'),
    canWrite ? h('button', { type: 'submit' }, 'Save spend limits') : null,
  );
  replace(
    body,
    canWrite ? null : h('p', { class: 'muted' }, 'You can see these settings but not change them here.'),
    toggle('repositoryAttribution', 'Repository attribution'),
    toggle('endUserRecording', 'End-user recording'),
    toggle('secretScanning', 'Secret scanning'),
    limitsForm,
    status,
  );
}

async function credentialsPage(body: HTMLElement, company: string): Promise<void> {
  const answer = await api.get<{
    credentials: {
      name: string;
      provider: string;
      kind: string;
      healthy: boolean;
      reason: string | null;
      windows: { window: string; exhausted: boolean; utilization: number | null; resetAt: number | null }[];
    }[];
  }>('credentials', { company });
  if (answer.credentials.length === 0) {
    replace(body, h('p', {}, 'No credential is connected. Add a ProviderCredential and its Secret to the company; its secret never reaches this page.'));
    return;
  }
  replace(
    body,
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col' }, 'Provider'),
          h('th', { scope: 'col' }, 'Kind'),
          h('th', { scope: 'col' }, 'Health'),
          h('th', { scope: 'col' }, 'Seat windows'),
        ),
      ),
      h(
        'tbody',
        {},
        ...answer.credentials.map((c) =>
          h(
            'tr',
            {},
            h('td', {}, c.name),
            h('td', {}, c.provider),
            h('td', {}, c.kind === 'subscriptionSeat' ? 'seat' : 'API key'),
            h('td', {}, c.healthy ? h('span', { class: 'ok' }, 'healthy') : h('span', { class: 'error' }, `rejected: ${c.reason ?? 'the provider refused the key'} (recovering by probes)`)),
            h(
              'td',
              {},
              c.windows.length === 0
                ? '—'
                : c.windows
                    .map(
                      (w) =>
                        `${w.window}: ${w.exhausted ? 'exhausted' : w.utilization === null ? 'in use' : `${Math.round(w.utilization * 100)}% used`}${w.resetAt ? `, resets ${new Date(w.resetAt).toLocaleString()}` : ''}`,
                    )
                    .join('; '),
            ),
          ),
        ),
      ),
    ),
  );
}

const PAGE_RENDERERS: Record<Page, (body: HTMLElement, company: string, person: Me) => Promise<void>> = {
  usage: (b, c) => usagePage(b, c),
  logs: (b, c) => logsPage(b, c),
  tokens: (b, c) => tokensPage(b, c),
  models: (b, c) => modelsPage(b, c),
  settings: (b, c) => settingsPage(b, c),
  credentials: (b, c) => credentialsPage(b, c),
};

void render();
