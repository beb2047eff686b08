import { readFileSync } from 'node:fs';

/**
 * A value given inline (an environment variable) or as a file (a mounted
 * Secret), the file winning. Problems are collected, not thrown, so every
 * configuration problem is reported at once.
 */
export function inlineOrFile(inline: string | undefined, file: string | undefined, flag: string, problems: string[], trim = true): string | null {
  if (file) {
    try {
      const text = readFileSync(file, 'utf8');
      return trim ? text.trim() : text;
    } catch (error) {
      problems.push(`${flag} ${file}: ${(error as Error).message}`);
      return null;
    }
  }
  return inline ?? null;
}

/** The AES-256-GCM key for provider secrets at rest: base64 of 32 bytes. */
export function encryptionKeyFrom(text: string | null, problems: string[]): Buffer | null {
  if (text === null) return null;
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) {
    problems.push('the encryption key (GW_ENCRYPTION_KEY or --encryption-key-file) must be base64 of 32 bytes, e.g. `openssl rand -base64 32`');
    return null;
  }
  return key;
}
