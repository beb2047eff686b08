import pg from 'pg';

export interface PostgresConnectOptions {
  /** Used when the URL carries no password (PGPASSWORD). */
  readonly password?: string | null;
  /** Connections in the pool: the exporter needs one, readers a few. */
  readonly max?: number;
}

/**
 * A pool on `url`. TLS follows `sslmode` with libpq's meanings (require
 * encrypts without verifying, verify-ca / verify-full verify; sslrootcert
 * names the CA), so a URL that works with psql works here.
 */
export function connectPostgres(url: string, options: PostgresConnectOptions = {}): pg.Pool {
  const parsed = new URL(url);
  if (parsed.searchParams.has('sslmode') && !parsed.searchParams.has('uselibpqcompat')) parsed.searchParams.set('uselibpqcompat', 'true');
  // pg lets the URL win over a separate password, so a password given apart goes into the URL.
  if (parsed.password === '' && options.password) parsed.password = encodeURIComponent(options.password);
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: options.max ?? 4,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'model-gateway',
  });
  // An idle client losing its server is reported here; the next query gets a fresh connection.
  pool.on('error', () => {});
  return pool;
}

/** The URL without its password, for messages and logs. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return `${parsed.protocol}//${parsed.username ? `${parsed.username}${parsed.password ? ':***' : ''}@` : ''}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgres URL';
  }
}
