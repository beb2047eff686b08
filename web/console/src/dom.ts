/**
 * The console builds every node with createElement and puts every value in
 * with text nodes or properties, never markup: a model id, a repository or a
 * token name a caller chose stays text, whatever characters it holds.
 */
export type Child = Node | string | number | null | undefined | false;

export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'value' && (el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) el.value = String(value);
    else if (name === 'checked' && el instanceof HTMLInputElement) el.checked = value === true;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function money(value: number | null | undefined): string {
  return value === null || value === undefined ? 'not priced' : usd.format(value);
}

export function count(value: number): string {
  return integer.format(value);
}

let nextId = 0;
export function uid(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** A labelled control: the label names it for assistive technology and for tests. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement): HTMLLabelElement {
  return h('label', {}, label, control);
}

export function select(name: string, options: readonly (readonly [string, string])[], value: string, onChange: (value: string) => void): HTMLSelectElement {
  const el = h('select', { name, onchange: () => onChange(el.value) }, ...options.map(([v, text]) => h('option', { value: v }, text)));
  el.value = value;
  return el;
}

/** A modal dialog with a heading; closed by Escape or its own buttons, and removed when closed. */
export function dialog(title: string, ...body: Child[]): HTMLDialogElement {
  const titleId = uid('dialog-title');
  const el = h('dialog', { 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), ...body);
  el.addEventListener('close', () => el.remove());
  document.body.appendChild(el);
  el.showModal();
  return el;
}
