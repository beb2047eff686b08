import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { bearerOf } from '../auth/authenticate.js';

/** What the Usage and Logs API serves: each is a resource `usage` / `logs` in group gw.io. */
export type AdminResource = 'usage' | 'logs';

/** A 403 names who was refused when the credential was recognised (the console shows who is signed in). */
export type AccessDecision = { readonly ok: true; readonly who: string } | { readonly ok: false; readonly status: 401 | 403; readonly message: string; readonly who?: string };

/**
 * Decides who may read which company's Usage and Logs. `company` null asks
 * for every company at once (only the break-glass token, a cluster-wide
 * grant or a token scoped to all companies may).
 */
export interface AdminAccess {
  decide(authorization: string | undefined, resource: AdminResource, company: string | null): Promise<AccessDecision>;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export const NO_BEARER: AccessDecision = { ok: false, status: 401, message: 'the admin API needs "Authorization: Bearer <token>"' };

/** The global admin token: every company (the break-glass option). */
export function globalTokenAccess(token: string): AdminAccess {
  const expected = digest(token);
  return {
    async decide(authorization) {
      const given = bearerOf(authorization);
      if (given === null) return NO_BEARER;
      return timingSafeEqual(digest(given), expected) ? { ok: true, who: 'admin token' } : { ok: false, status: 401, message: 'the admin token is not valid' };
    },
  };
}

export interface ScopedToken {
  readonly name: string;
  /** sha256 of the token, hex. */
  readonly sha256: string;
  /** Companies (namespaces) it reads; `*` for all. */
  readonly companies: readonly string[];
}

/**
 * Reads the scoped admin tokens file: a YAML list of
 * `{name, sha256: "sha256:<hex>" | "<hex>", companies: [...]}`. Only hashes
 * are kept, so the file may be shared like a GatewayToken.
 */
export function readScopedTokens(file: string, problems: string[]): ScopedToken[] {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`--admin-tokens-file ${file}: ${(error as Error).message}`);
    return [];
  }
  if (!Array.isArray(doc)) {
    problems.push(`--admin-tokens-file ${file}: must be a YAML list of {name, sha256, companies}`);
    return [];
  }
  const out: ScopedToken[] = [];
  doc.forEach((entry: unknown, i: number) => {
    const e = entry as { name?: unknown; sha256?: unknown; companies?: unknown };
    const where = `--admin-tokens-file ${file} entry ${i + 1}`;
    const hex = typeof e.sha256 === 'string' ? e.sha256.replace(/^sha256:/, '').toLowerCase() : '';
    if (typeof e.name !== 'string' || e.name === '') problems.push(`${where}: "name" is required`);
    if (!/^[0-9a-f]{64}$/.test(hex)) problems.push(`${where}: "sha256" must be the token's sha256 (64 hex digits, as \`gw token hash\` prints)`);
    if (!Array.isArray(e.companies) || e.companies.length === 0 || !e.companies.every((c) => typeof c === 'string' && c !== '')) {
      problems.push(`${where}: "companies" must list company namespaces (or "*")`);
      return;
    }
    out.push({ name: String(e.name), sha256: hex, companies: e.companies as string[] });
  });
  return out;
}

/** Admin tokens scoped to companies: 403 for a company the token does not name. */
export function scopedTokenAccess(tokens: readonly ScopedToken[]): AdminAccess {
  const byDigest = new Map(tokens.map((t) => [t.sha256, t]));
  return {
    async decide(authorization, _resource, company) {
      const given = bearerOf(authorization);
      if (given === null) return NO_BEARER;
      const token = byDigest.get(digest(given).toString('hex'));
      if (!token) return { ok: false, status: 401, message: 'the admin token is not valid' };
      if (token.companies.includes('*')) return { ok: true, who: token.name };
      if (company === null) return { ok: false, status: 403, who: token.name, message: `admin token "${token.name}" reads only ${token.companies.join(', ')}: name one with "company"` };
      if (!token.companies.includes(company)) return { ok: false, status: 403, who: token.name, message: `admin token "${token.name}" may not read company "${company}"` };
      return { ok: true, who: token.name };
    },
  };
}

/**
 * Several ways in, tried in order: the first that knows the bearer decides
 * (a 403 from it stands); 401 only when none knows it.
 */
export function anyOf(accesses: readonly AdminAccess[]): AdminAccess {
  return {
    async decide(authorization, resource, company) {
      if (bearerOf(authorization) === null) return NO_BEARER;
      let last: AccessDecision = { ok: false, status: 401, message: 'the admin API is disabled: start the gateway with GW_ADMIN_TOKEN, --admin-tokens-file or --admin-auth kubernetes' };
      for (const access of accesses) {
        const decision = await access.decide(authorization, resource, company);
        if (decision.ok || decision.status === 403) return decision;
        last = decision;
      }
      return last;
    },
  };
}
