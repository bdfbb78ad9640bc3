import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client";
import { poolClientClass } from "./pooler";

/*
 * One pg pool and one Prisma client per process, Prisma on the same pool. Writers that share a
 * transaction with outbound notifications, and hot paths, use the pool with SQL built by ./sql.ts;
 * everything else uses Prisma (docs/architecture.md, "Data access").
 * DATABASE_URL may point at PgBouncer in transaction mode (./pooler.ts).
 * The short connection timeout turns a stopped database into a fast 503 instead of a hang.
 */

type Database = { pool: pg.Pool; prisma: PrismaClient };

const globalForDb = globalThis as unknown as { __database?: Database };

function createDatabase(): Database {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const pool = createPool(connectionString);
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    Client: poolClientClass(),
    max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    query_timeout: 10_000,
  });
  // A dropped idle connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return pool;
}

function database(): Database {
  globalForDb.__database ??= createDatabase();
  return globalForDb.__database;
}

/*
 * Dashboard lists and exports read from DATABASE_REPLICA_URL when it is set (docs/scaling.md, "Read
 * replica"): they tolerate the replica's replay lag, a fraction of a second when healthy. Writes, the
 * public API and every read that must see a write just made (a form reloading what it saved, a check
 * before a write) use the primary.
 */
function replicaPool(): pg.Pool {
  const connectionString = process.env.DATABASE_REPLICA_URL?.trim();
  if (!connectionString) return database().pool;
  globalForReplica.__replica ??= createPool(connectionString);
  return globalForReplica.__replica;
}
const globalForReplica = globalThis as unknown as { __replica?: pg.Pool };

export const db = {
  get pool() {
    return database().pool;
  },
  get prisma() {
    return database().prisma;
  },
  /** The read replica's pool, or the primary's when no replica is configured. */
  get replica() {
    return replicaPool();
  },
};

/** True when the error means the database could not be reached (not a query or constraint error). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|57P0[1-3]|08\d{3}|53300)$/.test(code))
      return true;
    if (
      typeof message === "string" &&
      /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Query read timeout/i.test(
        message,
      )
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
