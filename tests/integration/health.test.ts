import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { db } from "@/lib/platform/db/client";

type DatabaseGlobal = { __database?: { pool: pg.Pool; prisma: unknown } };
const globalDb = globalThis as unknown as DatabaseGlobal;
let saved: DatabaseGlobal["__database"];

afterEach(() => {
  if (saved) globalDb.__database = saved;
});

describe("GET /api/health", () => {
  it("answers 200 with db true when the database answers", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: true });
  });

  it("answers 503 with db false when the database cannot be reached", async () => {
    void db.pool; // make sure the real database is created before swapping it out
    saved = globalDb.__database;
    const unreachable = new pg.Pool({
      connectionString: "postgresql://nobody:x@127.0.0.1:1/none",
      connectionTimeoutMillis: 500,
    });
    globalDb.__database = { pool: unreachable, prisma: saved!.prisma };
    const response = await GET();
    await unreachable.end();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, db: false });
  });
});
