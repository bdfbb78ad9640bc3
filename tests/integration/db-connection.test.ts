import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { onOneConnection } from "@/lib/platform/db/connection";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
afterAll(() => pool.end());

const backend = async (client: { query: pg.Pool["query"] }) =>
  (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;

describe("statements run back to back on one pooled connection", () => {
  it("run on the same connection, which goes back to the pool afterwards", async () => {
    const pids = await onOneConnection(pool, async (client) => [
      await backend(client),
      await backend(client),
      await backend(client),
    ]);
    expect(new Set(pids).size).toBe(1);
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it("wait for a connection once: a pool of one serves two such requests in turn, each on one connection", async () => {
    const single = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const order: string[] = [];
      const request = (name: string) =>
        onOneConnection(single, async (client) => {
          order.push(`${name} start`);
          await client.query("SELECT pg_sleep(0.05)");
          await client.query("SELECT 1");
          order.push(`${name} end`);
        });
      await Promise.all([request("a"), request("b")]);
      // b's statements never interleave with a's: it got the connection once a had given it back.
      expect(order).toEqual(["a start", "a end", "b start", "b end"]);
    } finally {
      await single.end();
    }
  });

  it("close the connection when a statement failed, and pass the error on", async () => {
    let failedOn = 0;
    const failing = await onOneConnection(pool, async (client) => {
      failedOn = await backend(client);
      await client.query("SELECT * FROM no_such_table");
    }).catch((error: Error) => error);
    expect(failing).toBeInstanceOf(Error);
    expect((failing as { code?: string }).code).toBe("42P01");
    expect(pool.idleCount).toBe(pool.totalCount);
    // The pool still answers, on another connection: the failed one was closed, not reused.
    const next = await onOneConnection(pool, async (client) => [await backend(client), await backend(client)]);
    expect(next[0]).toBe(next[1]);
    expect(next[0]).not.toBe(failedOn);
  });

  it("use a connection given instead of a pool as it is (a transaction's statements stay in it)", async () => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("CREATE TEMP TABLE in_transaction (n int) ON COMMIT DROP");
      const seen = await onOneConnection(
        client,
        async (connection) => (await connection.query("SELECT count(*)::int AS n FROM in_transaction")).rows[0].n,
      );
      expect(seen).toBe(0);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  });
});
