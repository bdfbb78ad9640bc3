import pg from "pg";

/*
 * Running behind a transaction-mode pooler (docs/scaling.md, "PgBouncer"). PgBouncer 1.18 hands each
 * transaction to whichever server connection is free, so anything that lives in a session breaks through
 * it: named prepared statements (parsed once on one server connection, then executed on another), LISTEN,
 * session settings and the `options` startup parameter. Hence two URLs:
 * - DATABASE_URL may point at the pooler; with DATABASE_POOLER=pgbouncer every statement is sent unnamed
 *   (parse, bind and execute in one round trip, which any server connection can answer);
 * - DATABASE_DIRECT_URL (default DATABASE_URL) reaches PostgreSQL itself, for what needs a session:
 *   migrations, the queue worker (LISTEN, its session settings, graphile-worker's own connections).
 * A setting rather than detection: a pooler answers the startup like PostgreSQL does, and guessing wrong
 * either way fails only under load.
 */

const POOLERS = ["pgbouncer"] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** True when DATABASE_URL goes through a transaction-mode pooler; throws on a value we do not know. */
export function behindTransactionPooler(env: Env = process.env): boolean {
  const value = env.DATABASE_POOLER?.trim();
  if (!value) return false;
  if ((POOLERS as readonly string[]).includes(value)) return true;
  throw new Error(`DATABASE_POOLER is "${value}"; the supported value is "pgbouncer" (or leave it unset)`);
}

/** The URL for session-bound work: DATABASE_DIRECT_URL, else DATABASE_URL. */
export function directDatabaseUrl(env: Env = process.env): string | undefined {
  return env.DATABASE_DIRECT_URL?.trim() || env.DATABASE_URL;
}

type QueryConfigWithName = { name?: unknown; text?: unknown };
const namedConfig = (value: unknown): value is QueryConfigWithName =>
  typeof value === "object" && value !== null && "name" in value && "text" in value;

/**
 * A pg client that sends every statement unnamed. Code keeps naming its hot statements (on a direct
 * connection PostgreSQL then plans them once per connection); behind the pooler the name is dropped.
 */
export class UnnamedStatementsClient extends pg.Client {}
const namedQuery = pg.Client.prototype.query;
UnnamedStatementsClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  if (namedConfig(config)) {
    const unnamed = { ...config };
    delete unnamed.name;
    return (namedQuery as (...args: unknown[]) => unknown).call(this, unnamed, ...rest);
  }
  return (namedQuery as (...args: unknown[]) => unknown).call(this, config, ...rest);
} as typeof namedQuery;

/** The client class for the app's pool: unnamed statements behind a pooler, pg's own otherwise. */
export function poolClientClass(env: Env = process.env): typeof pg.Client {
  return behindTransactionPooler(env) ? UnnamedStatementsClient : pg.Client;
}
