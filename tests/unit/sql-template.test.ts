import { describe, expect, it } from "vitest";
import { join, param, placeholders, raw, sql, statement } from "@/lib/platform/db/sql";

describe("sql tagged template", () => {
  it("numbers values in order", () => {
    const query = sql`SELECT * FROM t WHERE a = ${1} AND b = ${"x"}`;
    expect(query.text).toBe("SELECT * FROM t WHERE a = $1 AND b = $2");
    expect(query.values).toEqual([1, "x"]);
  });

  it("renumbers the parameters of an embedded fragment", () => {
    const where = sql`b = ${"inner"} AND c = ${null}`;
    const query = sql`SELECT ${"outer"} FROM t WHERE ${where} AND d = ${3}`;
    expect(query.text).toBe("SELECT $1 FROM t WHERE b = $2 AND c = $3 AND d = $4");
    expect(query.values).toEqual(["outer", "inner", null, 3]);
    expect(where.text).toBe("b = $1 AND c = $2");
  });

  it("sends a reused value once", () => {
    const id = param("42");
    const query = sql`SELECT ${id}, ${"other"} WHERE x = ${id} OR ${sql`y = ${id}`}`;
    expect(query.text).toBe("SELECT $1, $2 WHERE x = $1 OR y = $1");
    expect(query.values).toEqual(["42", "other"]);
  });

  it("adds casts", () => {
    const id = "6b1d2c1e-0000-4000-8000-000000000000";
    expect(sql`WHERE id = ${param(id, "uuid")} AND n = ${5}::int`.text).toBe("WHERE id = $1::uuid AND n = $2::int");
    expect(sql`WHERE s = ${param("x", '"EventStatus"')}`.text).toBe('WHERE s = $1::"EventStatus"');
  });

  it("splices raw SQL as it is, and a plain string only as a parameter", () => {
    const query = sql`SELECT ${raw("id, title")} FROM ${raw('"events"')} WHERE title = ${"id, title"}`;
    expect(query.text).toBe('SELECT id, title FROM "events" WHERE title = $1');
    expect(query.values).toEqual(["id, title"]);
  });

  it("joins fragments", () => {
    const query = sql`VALUES ${join([sql`(${1})`, sql`(${2})`])}`;
    expect(query.text).toBe("VALUES ($1), ($2)");
    expect(query.values).toEqual([1, 2]);
  });

  it("refuses to be used as a plain string", () => {
    expect(() => `${sql`SELECT ${1}`}`).toThrow(/cannot be used as a string/);
  });
});

describe("statements with named placeholders", () => {
  type Params = { account: string; title: string; limit: number };
  const p = placeholders<Params>();

  it("numbers each name once, in any mix of fragments and strings, and lays out a record", () => {
    const helper = `account_id = ${p.account}::uuid`; // a string-building helper carrying a placeholder
    const query = statement<Params>(
      sql`SELECT 1 WHERE ${raw(helper)} AND title = ${p.title}::text
        AND ${sql`owner = ${p.account}::uuid`} LIMIT ${p.limit}`,
    );
    expect(query.text).toBe(
      "SELECT 1 WHERE account_id = $1::uuid AND title = $2::text\n        AND owner = $1::uuid LIMIT $3",
    );
    expect(query.values({ limit: 5, title: "T", account: "a" })).toEqual(["a", "T", 5]);
  });

  it("mixes named placeholders and values", () => {
    const query = sql`SELECT ${p.title}, ${7}, ${p.title}`;
    expect(query.text).toBe("SELECT $1, $2, $1");
    expect(query.bind({ title: "T" })).toEqual(["T", 7]);
    expect(() => query.values).toThrow(/no value for placeholder "title"/);
  });

  it("accepts a plain string statement", () => {
    const query = statement<Params>(`SELECT ${p.limit}, ${p.account}`);
    expect(query.text).toBe("SELECT $1, $2");
    expect(query.values({ account: "a", title: "unused", limit: 1 })).toEqual([1, "a"]);
  });

  it("fails on a missing value", () => {
    const query = statement<Params>(sql`SELECT ${p.account}`);
    expect(() => query.values({ title: "T" } as unknown as Params)).toThrow(/account/);
  });
});
