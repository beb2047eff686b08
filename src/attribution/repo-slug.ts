import { remembered } from '../support/remembered.js';

const MAX_BYTES = 200;
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})(?::[0-9]{1,5})?$/;
// Printable (no C0 or C1 controls), no white space, no characters that would make it a URL or a path escape.
const SEGMENT = /^[^\s/\\?#@:%\u0000-\u001f\u007f-\u009f]{1,200}$/u;

/**
 * Spec §4.2: `<host>/<owner>/<repo>`, 1 to 200 UTF-8 bytes, no scheme, no
 * credentials, no leading slash, no final `.git`. Owners with nested groups
 * (host/group/subgroup/repo) are accepted: the owner part may hold slashes.
 */
export function isValidRepoSlug(value: string): boolean {
  return verdictOf(value);
}

// A caller sends the same slug on every request: its verdict is kept.
const verdictOf = remembered(checkRepoSlug, { maxKeyLength: MAX_BYTES });

function checkRepoSlug(value: string): boolean {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < 1 || bytes > MAX_BYTES) return false;
  if (value.startsWith('/') || value.includes('://') || value.includes('@')) return false;
  if (value.toLowerCase().endsWith('.git')) return false;
  const parts = value.split('/');
  if (parts.length < 3) return false;
  if (!HOST.test(parts[0] as string) || (!(parts[0] as string).includes('.') && parts[0] !== 'localhost')) return false;
  for (let i = 1; i < parts.length; i++) if (!SEGMENT.test(parts[i] as string) || parts[i] === '.' || parts[i] === '..') return false;
  return true;
}
