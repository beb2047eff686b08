/**
 * Envoy's rules for applying an ext_proc HeaderMutation (reference §1.3,
 * §1.5; envoy mutation_utils.cc and mutation_rules.cc):
 * - removals first, then sets, in message order;
 * - only raw_value is read (send_header_raw_value on); both value and
 *   raw_value non-empty is an error;
 * - `append` (BoolValue, default false = overwrite) decides add vs set;
 *   `append_action` is ignored;
 * - each change passes the HeaderMutationRules checker: a refused change is
 *   dropped and counted, or is an error when disallow_is_error is set;
 * - invalid header names or values are errors.
 * An error becomes a local reply with status_on_error (500).
 */
import type { HeaderMutation } from '../../../src/extproc/proto.js';
import type { HeaderMap } from './header-map.js';

/** Mirrors envoy.config.common.mutation_rules.v3.HeaderMutationRules. */
export interface MutationRules {
  allowAllRouting?: boolean;
  allowEnvoy?: boolean;
  disallowSystem?: boolean;
  disallowAll?: boolean;
  disallowIsError?: boolean;
  allowExpression?: RegExp;
  disallowExpression?: RegExp;
}

type Operation = 'SET' | 'APPEND' | 'REMOVE';
type CheckResult = 'OK' | 'IGNORE' | 'FAIL';

export type MutationResult = { ok: true } | { ok: false; error: string };

export interface MutationContext {
  rules: MutationRules;
  /** CONTINUE_AND_REPLACE lets `:method` change whatever the rules say. */
  replacingMessage?: boolean;
  onRejected(): void;
}

const ROUTING_HEADERS = new Set(['host', ':authority', ':method', ':scheme']);
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PSEUDO = /^:[!#$%&'*+\-.^_`|~0-9a-z]+$/;

export function headerNameIsValid(name: string): boolean {
  return name.startsWith(':') ? PSEUDO.test(name) : TCHAR.test(name);
}

export function headerValueIsValid(value: Buffer): boolean {
  return !value.includes(0) && !value.includes(0x0a) && !value.includes(0x0d);
}

function valueAllowed(name: string, value: Buffer): boolean {
  const text = value.toString('latin1');
  switch (name) {
    case ':status': {
      const code = Number(text);
      return /^\d{3}$/.test(text) && code >= 200;
    }
    case ':scheme':
      return text === 'http' || text === 'https';
    case 'host':
    case ':authority':
      return /^[^\s/?#@]+$/.test(text);
    default:
      return true;
  }
}

function isAllowed(rules: MutationRules, op: Operation, name: string, value: Buffer): boolean {
  if (op === 'REMOVE' && (name === 'host' || name.startsWith(':'))) return false;
  if (rules.disallowExpression?.test(name)) return false;
  if (rules.allowExpression?.test(name)) return true;
  if (rules.disallowAll) return false;
  if (!rules.allowAllRouting && ROUTING_HEADERS.has(name)) return false;
  if (name.startsWith(':') && (op === 'APPEND' || rules.disallowSystem)) return false;
  if (!rules.allowEnvoy && name.startsWith('x-envoy')) return false;
  return op === 'REMOVE' || valueAllowed(name, value);
}

function check(ctx: MutationContext, op: Operation, name: string, value: Buffer): CheckResult {
  if (ctx.replacingMessage && name === ':method' && op !== 'REMOVE') return 'OK';
  if (isAllowed(ctx.rules, op, name, value)) return 'OK';
  return ctx.rules.disallowIsError ? 'FAIL' : 'IGNORE';
}

export function applyHeaderMutation(headers: HeaderMap, mutation: HeaderMutation, ctx: MutationContext): MutationResult {
  for (const raw of mutation.remove_headers ?? []) {
    if (!headerNameIsValid(raw)) {
      ctx.onRejected();
      return { ok: false, error: 'Invalid character in remove_headers mutation.' };
    }
    const name = raw.toLowerCase();
    const result = check(ctx, 'REMOVE', name, Buffer.alloc(0));
    if (result === 'OK') headers.remove(name);
    else {
      ctx.onRejected();
      if (result === 'FAIL') return { ok: false, error: `Invalid attempt to remove ${name}` };
    }
  }

  for (const option of mutation.set_headers ?? []) {
    const header = option.header;
    if (!header) continue;
    const hasValue = (header.value ?? '') !== '';
    const hasRaw = (header.raw_value?.length ?? 0) > 0;
    if (hasValue && hasRaw) {
      ctx.onRejected();
      return { ok: false, error: 'Only one of value or raw_value in the HeaderValue message should be set.' };
    }
    // With send_header_raw_value on, `value` is never read: a header sent
    // with only `value` is set to the empty string.
    const value = Buffer.from(header.raw_value ?? Buffer.alloc(0));
    const key = header.key ?? '';
    if (!headerNameIsValid(key) || !headerValueIsValid(value)) {
      ctx.onRejected();
      return { ok: false, error: 'Invalid character in set_headers mutation.' };
    }
    const name = key.toLowerCase();
    const append = option.append?.value ?? false;
    const op: Operation = append && headers.has(name) ? 'APPEND' : 'SET';
    const result = check(ctx, op, name, value);
    if (result === 'OK') {
      if (append) headers.add(name, value);
      else headers.set(name, value);
    } else {
      ctx.onRejected();
      if (result === 'FAIL') return { ok: false, error: `Invalid attempt to modify ${name}` };
    }
  }
  return { ok: true };
}
