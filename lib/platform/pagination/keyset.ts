import { join, param, raw, sql, type Sql } from "@/lib/platform/db/sql";
import { isUuid } from "@/lib/platform/ids";

/*
 * Keyset ("seek") paging: a page continues after the sort key of the last row shown, so page 400 costs
 * what page 1 costs and rows arriving meanwhile never shift a page. Every paged list uses this one
 * cursor format: base64url of the JSON array [tag, ...key values]. The tag names the ordering the
 * cursor belongs to, so a cursor of one list or sort is never applied to another. Cursors are opaque to
 * clients; anything we did not issue is refused (InvalidCursorError) before it reaches SQL.
 */

/** The SQL type of one key column; values travel as text and are cast in the statement. */
export type KeyPart = "timestamptz" | "uuid" | "text" | "int8";

export class InvalidCursorError extends Error {
  readonly code = "invalid_cursor";
  constructor() {
    super("The cursor is not one this list issued. Start again from the first page.");
    this.name = "InvalidCursorError";
  }
}

const MAX_CURSOR_LENGTH = 2_048;
// The range PostgreSQL's timestamptz accepts for what we store (no year 0, no 5-digit years).
const MIN_INSTANT = Date.parse("0001-01-01T00:00:00.000Z");
const MAX_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function encodeCursor(tag: string, key: ReadonlyArray<string | Date>): string {
  const values = key.map((value) => (value instanceof Date ? value.toISOString() : value));
  return Buffer.from(JSON.stringify([tag, ...values])).toString("base64url");
}

function validPart(value: unknown, part: KeyPart): value is string {
  if (typeof value !== "string" || value.includes("\u0000") || LONE_SURROGATE.test(value)) return false;
  if (part === "uuid") return isUuid(value);
  if (part === "int8") return /^\d{1,15}$/.test(value);
  if (part === "timestamptz") {
    // Only what encodeCursor wrote: Date.parse accepts 30 February (rolled over to March), PostgreSQL does not.
    const time = Date.parse(value);
    return time >= MIN_INSTANT && time <= MAX_INSTANT && new Date(time).toISOString() === value;
  }
  return true;
}

/** The key values of a cursor issued for `tag`; throws InvalidCursorError for anything else. */
export function decodeCursor(cursor: string, tag: string, parts: readonly KeyPart[]): string[] {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(parsed) || parsed[0] !== tag || parsed.length !== parts.length + 1) throw new InvalidCursorError();
  const key = parsed.slice(1);
  if (!parts.every((part, index) => validPart(key[index], part))) throw new InvalidCursorError();
  return key as string[];
}

/** For dashboard lists, where a stale or edited cursor simply shows the first page: null instead of throwing. */
export function tryDecodeCursor(
  cursor: string | null | undefined,
  tag: string,
  parts: readonly KeyPart[],
): string[] | null {
  if (!cursor) return null;
  try {
    return decodeCursor(cursor, tag, parts);
  } catch (error) {
    if (error instanceof InvalidCursorError) return null;
    throw error;
  }
}

/** The row-value comparison `(a, b) > ($n::t, $m::t)` that continues after a key, as a `sql` fragment. */
export function keysetCondition(
  columns: readonly string[],
  parts: readonly KeyPart[],
  key: readonly string[],
  after: "ascending" | "descending",
): Sql {
  const values = join(key.map((value, index) => sql`${param(value, parts[index])}`));
  return sql`(${raw(columns.join(", "))}) ${raw(after === "ascending" ? ">" : "<")} (${values})`;
}

export function keysetOrder(columns: readonly string[], direction: "ascending" | "descending"): string {
  return columns.map((column) => `${column} ${direction === "ascending" ? "ASC" : "DESC"}`).join(", ");
}

/**
 * One page's statement: `select` filtered by `where` and, after a cursor, by the keyset condition, in
 * the key's order, `limit + 1` rows (the extra row tells whether there is more; takePage drops it).
 */
export function keysetQuery(page: {
  select: Sql;
  where: readonly Sql[];
  columns: readonly string[];
  parts: readonly KeyPart[];
  cursor: readonly string[] | null;
  direction: "ascending" | "descending";
  limit: number;
}): Sql {
  const { columns, parts, cursor, direction } = page;
  const where = cursor ? [...page.where, keysetCondition(columns, parts, cursor, direction)] : page.where;
  return sql`${page.select} WHERE ${join(where, " AND ")}
    ORDER BY ${raw(keysetOrder(columns, direction))} LIMIT ${page.limit + 1}`;
}

/**
 * The same condition for Prisma: rows after `key` in the given order, as nested OR/AND of the columns
 * (e.g. newest first by createdAt then id: createdAt < c OR (createdAt = c AND id < i)).
 */
export function prismaKeysetWhere(
  key: ReadonlyArray<readonly [field: string, value: unknown]>,
  direction: "asc" | "desc",
): Record<string, unknown> {
  const operator = direction === "asc" ? "gt" : "lt";
  const branches = key.map((_, index) => ({
    ...Object.fromEntries(key.slice(0, index).map(([field, value]) => [field, value])),
    [key[index][0]]: { [operator]: key[index][1] },
  }));
  return { OR: branches };
}

/*
 * Every list reads one row more than it shows (LIMIT limit + 1): the extra row only says that more follow.
 * takePage is that step; keysetPage builds the page shape every forward-paged list returns from it.
 */

/** Rows fetched with LIMIT limit + 1: the page and whether more follow. */
export function takePage<T>(rows: T[], limit: number): { rows: T[]; more: boolean } {
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** A forward-paged list's answer: the rows shown, whether more follow, the cursor continuing after them. */
export type Page<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

export const emptyPage = <T>(): Page<T> => ({ data: [], hasMore: false, nextCursor: null });

/** The page of rows fetched with LIMIT limit + 1; `cursorOf` encodes the key of the last row shown. */
export function keysetPage<T>(rows: T[], limit: number, cursorOf: (last: T) => string): Page<T> {
  const { rows: data, more } = takePage(rows, limit);
  const last = data[data.length - 1];
  return { data, hasMore: more, nextCursor: more && last ? cursorOf(last) : null };
}

/** A requested page size, clamped to [1, max]; anything that is not a number gets the default. */
export function pageLimit(value: unknown, fallback: number, max: number): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) return fallback;
  return Math.min(Math.max(Math.trunc(number), 1), max);
}
