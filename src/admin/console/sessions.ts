import { createHash, randomBytes } from 'node:crypto';

/**
 * A console session: who signed in and the bearer they pasted, kept on the
 * server so that every later call is decided with that person's own
 * credential (admin token or Kubernetes token), never the console's.
 */
export interface ConsoleSession {
  readonly who: string;
  readonly bearer: string;
  /** Epoch ms of sign-in: the absolute expiry counts from here. */
  readonly created: number;
  /** Epoch ms of the last call: the idle expiry counts from here. */
  readonly seen: number;
}

export interface SessionLimits {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = Object.freeze({ idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 });

/**
 * Where sessions live. Keys are the sha256 of the cookie value, so a copy
 * of the store (a Redis dump) holds no usable cookie.
 */
export interface SessionStore {
  put(key: string, session: ConsoleSession, ttlMs: number): Promise<void>;
  get(key: string): Promise<ConsoleSession | null>;
  delete(key: string): Promise<void>;
}

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** How long a session may still live, from its two expiries; ≤ 0 means it is over. */
export function remainingMs(session: ConsoleSession, limits: SessionLimits, now: number): number {
  return Math.min(session.seen + limits.idleMs, session.created + limits.absoluteMs) - now;
}

/** One process without Redis: sessions end with the process, as the rest of its state does. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { session: ConsoleSession; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async put(key: string, session: ConsoleSession, ttlMs: number): Promise<void> {
    // Expired entries are dropped on each write, so the map stays bounded by the live sessions.
    const now = this.now();
    for (const [k, v] of this.sessions) if (v.until <= now) this.sessions.delete(k);
    this.sessions.set(key, { session, until: now + ttlMs });
  }

  async get(key: string): Promise<ConsoleSession | null> {
    const entry = this.sessions.get(key);
    if (!entry) return null;
    if (entry.until <= this.now()) {
      this.sessions.delete(key);
      return null;
    }
    return entry.session;
  }

  async delete(key: string): Promise<void> {
    this.sessions.delete(key);
  }
}

/** The few Redis commands the store needs (an ioredis client or cluster has them). */
export interface SessionRedis {
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
}

/** Seals and opens the session (the bearer in it is a credential at rest). */
export interface SessionSealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * Sessions in Redis, so every replica behind the Service knows them; the
 * value is sealed with the gateway's encryption key, and Redis expires it.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: SessionRedis,
    private readonly box: SessionSealer,
  ) {}

  private static key(key: string): string {
    return `gw:console:session:${key}`;
  }

  async put(key: string, session: ConsoleSession, ttlMs: number): Promise<void> {
    await this.redis.set(RedisSessionStore.key(key), this.box.seal(JSON.stringify(session), `console-session:${key}`), 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async get(key: string): Promise<ConsoleSession | null> {
    const sealed = await this.redis.get(RedisSessionStore.key(key));
    if (sealed === null) return null;
    try {
      return JSON.parse(this.box.open(sealed, `console-session:${key}`)) as ConsoleSession;
    } catch {
      // Sealed under another key (rotated) or damaged: the person signs in again.
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(RedisSessionStore.key(key));
  }
}
