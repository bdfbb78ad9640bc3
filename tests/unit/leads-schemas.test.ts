import { describe, expect, it } from "vitest";
import { changeStageSchema, createLeadSchema, listLeadsQuerySchema, updateLeadSchema } from "@/lib/leads/schemas";
import { encodeCursor } from "@/lib/platform/pagination/keyset";
import { newPublicId, isPublicId } from "@/lib/platform/ids";
import { parseWith } from "@/lib/api/validation";

const fieldsOf = (result: ReturnType<typeof parseWith>) =>
  result.ok ? [] : result.details.map((detail) => detail.field);

describe("createLeadSchema", () => {
  it("trims, lower-cases the email, turns empty fields into null and drops null metadata values", () => {
    const result = parseWith(createLeadSchema, {
      name: " Ada ",
      email: " ADA@Example.com ",
      phone: "",
      metadata: { a: "1", b: null },
      extra: 1,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        name: "Ada",
        email: "ada@example.com",
        phone: null,
        company: null,
        source: null,
        notes: null,
        stage: null,
        metadata: { a: "1" },
      },
    });
  });

  it("needs one of name, email or phone", () => {
    expect(fieldsOf(parseWith(createLeadSchema, { company: "Acme" }))).toEqual(["name"]);
    expect(parseWith(createLeadSchema, { phone: "1" }).ok).toBe(true);
  });

  it("counts characters, not UTF-16 units: 200 emoji are a valid name, 201 are not", () => {
    expect(parseWith(createLeadSchema, { name: "😀".repeat(200) }).ok).toBe(true);
    expect(fieldsOf(parseWith(createLeadSchema, { name: "😀".repeat(201) }))).toEqual(["name"]);
  });

  it("refuses NUL characters and unpaired surrogates", () => {
    expect(fieldsOf(parseWith(createLeadSchema, { name: "a\u0000b" }))).toEqual(["name"]);
    expect(fieldsOf(parseWith(createLeadSchema, { name: "a\uD800b" }))).toEqual(["name"]);
  });

  it("enforces the metadata rules: object, 50 keys, key 40, value 500 characters, strings only", () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, "v"]));
    expect(parseWith(createLeadSchema, { name: "A", metadata: keys(50) }).ok).toBe(true);
    expect(fieldsOf(parseWith(createLeadSchema, { name: "A", metadata: keys(51) }))).toEqual(["metadata"]);
    expect(fieldsOf(parseWith(createLeadSchema, { name: "A", metadata: { v: "x".repeat(501) } }))).toEqual([
      "metadata.v",
    ]);
    expect(parseWith(createLeadSchema, { name: "A", metadata: { v: "x".repeat(500), ["k".repeat(40)]: "v" } }).ok).toBe(
      true,
    );
    expect(parseWith(createLeadSchema, { name: "A", metadata: { ["k".repeat(41)]: "v" } }).ok).toBe(false);
    expect(fieldsOf(parseWith(createLeadSchema, { name: "A", metadata: { n: 1 } }))).toEqual(["metadata.n"]);
    for (const metadata of ["x", [], 1, true])
      expect(fieldsOf(parseWith(createLeadSchema, { name: "A", metadata }))).toEqual(["metadata"]);
  });

  it("validates email format and length", () => {
    expect(fieldsOf(parseWith(createLeadSchema, { email: "a@b" }))).toEqual(["email"]);
    expect(fieldsOf(parseWith(createLeadSchema, { email: `${"a".repeat(60)}@${"b".repeat(260)}.com` }))).toEqual([
      "email",
    ]);
  });
});

describe("updateLeadSchema", () => {
  it("keeps missing fields undefined (unchanged), null and empty as null (cleared)", () => {
    const result = parseWith(updateLeadSchema, { name: null, company: "", metadata: { a: null } });
    if (!result.ok) throw new Error("expected a valid patch");
    expect(result.value).toMatchObject({ name: null, company: null, metadata: { a: null } });
    expect(result.value.email).toBeUndefined();
    expect(result.value.stage).toBeUndefined();
  });

  it("reads metadata: null as clearing every key", () => {
    const result = parseWith(updateLeadSchema, { metadata: null });
    expect(result.ok && result.value.metadata).toBe("clear");
  });
});

describe("changeStageSchema", () => {
  it("needs a non-empty stage", () => {
    expect(fieldsOf(parseWith(changeStageSchema, {}))).toEqual(["stage"]);
    expect(fieldsOf(parseWith(changeStageSchema, { stage: " " }))).toEqual(["stage"]);
    expect(parseWith(changeStageSchema, { stage: "won" })).toEqual({ ok: true, value: { stage: "won" } });
  });
});

describe("listLeadsQuerySchema", () => {
  it("defaults to 25 newest first", () => {
    expect(parseWith(listLeadsQuerySchema, {})).toEqual({
      ok: true,
      value: { limit: 25, order: "desc", cursor: null, q: null, stage: null },
    });
  });

  it.each(["0", "101", "-1", "2.5", "1e2", "ten"])("refuses limit=%s", (limit) => {
    expect(fieldsOf(parseWith(listLeadsQuerySchema, { limit }))).toEqual(["limit"]);
  });

  it("accepts limits 1 and 100", () => {
    expect(parseWith(listLeadsQuerySchema, { limit: "1" }).ok).toBe(true);
    expect(parseWith(listLeadsQuerySchema, { limit: "100" }).ok).toBe(true);
  });

  it("round-trips a cursor and refuses tampered ones", () => {
    const id = newPublicId("lead");
    const cursor = encodeCursor("leads", ["2026-01-01T00:00:00.000Z", id]);
    const result = parseWith(listLeadsQuerySchema, { cursor });
    expect(result.ok && result.value.cursor).toEqual({ createdAt: "2026-01-01T00:00:00.000Z", id });
    const bad = [
      "%%%",
      encodeCursor("leads", ["2026-01-01", id]),
      encodeCursor("leads", ["2026-01-01T00:00:00.000Z", "lead_short"]),
      encodeCursor("events", ["2026-01-01T00:00:00.000Z", id]),
      "e30",
    ];
    for (const cursor of bad) {
      expect(fieldsOf(parseWith(listLeadsQuerySchema, { cursor }))).toEqual(["cursor"]);
    }
  });
});

describe("public ids", () => {
  it("makes unguessable prefixed ids and recognises them", () => {
    const id = newPublicId("lead");
    expect(id).toMatch(/^lead_[0-9A-Za-z]{22}$/);
    expect(isPublicId(id, "lead")).toBe(true);
    expect(isPublicId(id.slice(0, -1) + "-", "lead")).toBe(false);
    expect(isPublicId(id, "conversation")).toBe(false);
  });
});
