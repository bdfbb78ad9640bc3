import "server-only";
import type pg from "pg";
import { db } from "@/lib/platform/db/client";

export type Queryable = Pick<pg.PoolClient, "query">;

/** Runs `work` in one transaction on one connection; rolls back on any error. */
export async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
