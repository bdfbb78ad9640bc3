import pg from "pg";
import { describe, expect, it } from "vitest";
import { behindTransactionPooler, directDatabaseUrl, poolClientClass } from "@/lib/platform/db/pooler";

const preparedHere = async (client: pg.Client) =>
  (await client.query("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0].n as number;

async function namedStatementLeavesPrepared(Client: typeof pg.Client): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query({ name: "pooler_probe", text: "SELECT $1::int + 1 AS n", values: [41] });
    expect(result.rows).toEqual([{ n: 42 }]);
    return await preparedHere(client);
  } finally {
    await client.end();
  }
}

describe("running behind a transaction-mode pooler", () => {
  it("sends named statements unnamed when DATABASE_POOLER=pgbouncer, so no server session keeps them", async () => {
    expect(await namedStatementLeavesPrepared(poolClientClass({ DATABASE_POOLER: "pgbouncer" }))).toBe(0);
  });

  it("keeps named statements prepared on a direct connection", async () => {
    expect(await namedStatementLeavesPrepared(poolClientClass({}))).toBe(1);
  });

  it("refuses a DATABASE_POOLER value it does not know instead of guessing", () => {
    expect(() => behindTransactionPooler({ DATABASE_POOLER: "pgpool" })).toThrow(/supported value is "pgbouncer"/);
    expect(behindTransactionPooler({ DATABASE_POOLER: " " })).toBe(false);
  });

  it("takes DATABASE_DIRECT_URL for session work and falls back to DATABASE_URL", () => {
    expect(directDatabaseUrl({ DATABASE_URL: "postgres://pooler", DATABASE_DIRECT_URL: "postgres://db" })).toBe(
      "postgres://db",
    );
    expect(directDatabaseUrl({ DATABASE_URL: "postgres://db" })).toBe("postgres://db");
  });
});
