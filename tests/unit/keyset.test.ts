import { describe, expect, it } from "vitest";
import * as keyset from "@/lib/platform/pagination/keyset";

const id = "0b7f0a3e-6a55-4b3c-9a57-3d8f2a1c9e10";

describe("keyset cursors", () => {
  it("round-trips a key through an opaque base64url cursor", () => {
    const cursor = keyset.encodeCursor("leads", [new Date("2026-05-01T10:00:00.123Z"), id]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(keyset.decodeCursor(cursor, "leads", ["timestamptz", "uuid"])).toEqual(["2026-05-01T10:00:00.123Z", id]);
  });

  it("refuses with a typed error a cursor of another list, a wrong shape, a bad value or garbage", () => {
    const parts = ["timestamptz", "uuid"] as const;
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const cursor of [
      keyset.encodeCursor("audit", [new Date(), id]),
      json(["leads", "2026-05-01T10:00:00Z"]),
      json(["leads", "2026-05-01T10:00:00Z", "not-a-uuid"]),
      json(["leads", "yesterday", id]),
      json(["leads", "+010000-01-01T00:00:00Z", id]),
      // Date.parse takes these (it rolls the day over), PostgreSQL refuses them: only what toISOString wrote passes.
      json(["leads", "2026-02-30T10:00:00.000Z", id]),
      json(["leads", "2026-04-31T10:00:00.000Z", id]),
      json(["leads", "2026-05-01T24:00:00.000Z", id]),
      json(["leads", "2026-05-01T10:00:00+02:00", id]),
      json(["leads", "2026-05-01T10:00:00Z", 7]),
      json({ leads: true }),
      "not base64url!",
      "bm90IGEgY3Vyc29y",
      "A".repeat(5_000),
    ]) {
      expect(() => keyset.decodeCursor(cursor, "leads", parts)).toThrow(keyset.InvalidCursorError);
      expect(keyset.tryDecodeCursor(cursor, "leads", parts)).toBeNull();
    }
    expect(() => keyset.decodeCursor(json(["t", "a\u0000b"]), "t", ["text"])).toThrow(keyset.InvalidCursorError);
    expect(new keyset.InvalidCursorError().code).toBe("invalid_cursor");
  });

  it("builds the SQL row comparison and the Prisma condition for either direction", () => {
    const condition = keyset.keysetCondition(
      ["created_at", "id"],
      ["timestamptz", "uuid"],
      ["2026-05-01T10:00:00.000Z", id],
      "descending",
    );
    expect(condition.text).toBe("(created_at, id) < ($1::timestamptz, $2::uuid)");
    expect(condition.values).toEqual(["2026-05-01T10:00:00.000Z", id]);
    const at = new Date("2026-05-01T10:00:00Z");
    expect(
      keyset.prismaKeysetWhere(
        [
          ["createdAt", at],
          ["id", id],
        ],
        "desc",
      ),
    ).toEqual({ OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: id } }] });
    expect(
      keyset.prismaKeysetWhere(
        [
          ["createdAt", at],
          ["id", id],
        ],
        "asc",
      ),
    ).toEqual({ OR: [{ createdAt: { gt: at } }, { createdAt: at, id: { gt: id } }] });
  });

  it("clamps a requested page size", () => {
    expect([
      keyset.pageLimit(undefined, 25, 100),
      keyset.pageLimit("500", 25, 100),
      keyset.pageLimit("0", 25, 100),
      keyset.pageLimit("x", 25, 100),
      keyset.pageLimit(10.7, 25, 100),
    ]).toEqual([25, 100, 1, 25, 10]);
  });

  it("turns limit + 1 rows into the page shape, with a cursor only when more follow", () => {
    const cursorOf = (last: number) => `after-${last}`;
    expect(keyset.keysetPage([1, 2, 3], 2, cursorOf)).toEqual({ data: [1, 2], hasMore: true, nextCursor: "after-2" });
    expect(keyset.keysetPage([1, 2], 2, cursorOf)).toEqual({ data: [1, 2], hasMore: false, nextCursor: null });
    expect(keyset.keysetPage([], 2, cursorOf)).toEqual({ data: [], hasMore: false, nextCursor: null });
  });
});
