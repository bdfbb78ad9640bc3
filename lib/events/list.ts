import "server-only";
import { db } from "@/lib/db/client";
import { EVENT_COLUMNS, isUuid, toEventRecord, type EventRecord, type EventRow } from "./sql";

/*
 * The "All Events" table: keyset paging so page 400 costs what page 1 costs at 100k events.
 * Each sort walks an index in order: start time on (account_id, starts_at, id), title on the identity
 * index (account_id, title, starts_at, location), which is unique and so needs no extra tie-breaker.
 */

export type EventSort = "starts_at" | "-starts_at" | "title" | "-title";
export type EventWhen = "upcoming" | "past" | "all";

export type ListEventsOptions = {
  /** Case-insensitive text in the title, location or description. */
  query?: string;
  status?: "upcoming" | "cancelled" | "all";
  /** upcoming: starts now or later; past: started before now. */
  when?: EventWhen;
  /** Defaults: start time ascending, or descending for past events. */
  sort?: EventSort;
  cursor?: string | null;
  direction?: "next" | "prev";
  limit?: number;
  now?: Date;
};

export type EventPage = { items: EventRecord[]; nextCursor: string | null; prevCursor: string | null };

type SortSpec = { columns: string[]; casts: string[]; key: (row: EventRow) => string[] };

const SORTS: Record<"starts_at" | "title", SortSpec> = {
  starts_at: { columns: ["starts_at", "id"], casts: ["timestamptz", "uuid"], key: (row) => [row.starts_at.toISOString(), row.id] },
  title: {
    columns: ["title", "starts_at", "location"],
    casts: ["text", "timestamptz", "text"],
    key: (row) => [row.title, row.starts_at.toISOString(), row.location],
  },
};

const encodeCursor = (sort: EventSort, key: string[]) => Buffer.from(JSON.stringify([sort, ...key])).toString("base64url");

function decodeCursor(cursor: string | null | undefined, sort: EventSort, spec: SortSpec): string[] | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed[0] !== sort || parsed.length !== spec.columns.length + 1) return null;
    const key = parsed.slice(1);
    if (!key.every((value) => typeof value === "string" && !value.includes("\u0000"))) return null;
    const valid = spec.casts.every((cast, index) =>
      cast === "uuid" ? isUuid(key[index]) : cast === "timestamptz" ? !Number.isNaN(Date.parse(key[index])) : true,
    );
    return valid ? (key as string[]) : null;
  } catch {
    return null;
  }
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export async function listEvents(accountId: string, options: ListEventsOptions = {}): Promise<EventPage> {
  const empty: EventPage = { items: [], nextCursor: null, prevCursor: null };
  if (!isUuid(accountId)) return empty;
  const when = options.when ?? "all";
  const sort: EventSort = options.sort ?? (when === "past" ? "-starts_at" : "starts_at");
  const spec = SORTS[sort.replace("-", "") as "starts_at" | "title"];
  const descending = sort.startsWith("-");
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), 200);
  const backwards = options.direction === "prev";
  const cursor = decodeCursor(options.cursor, sort, spec);

  const params: unknown[] = [accountId];
  const param = (value: unknown, cast: string) => `$${params.push(value)}::${cast}`;
  const where = ["account_id = $1::uuid"];
  if (options.status && options.status !== "all") where.push(`status = ${param(options.status, '"EventStatus"')}`);
  if (when !== "all") where.push(`starts_at ${when === "upcoming" ? ">=" : "<"} ${param((options.now ?? new Date()).toISOString(), "timestamptz")}`);
  const query = options.query?.trim().slice(0, 200).replaceAll("\u0000", "");
  if (query) {
    const pattern = param(`%${escapeLike(query)}%`, "text");
    where.push(`(title ILIKE ${pattern} OR location ILIKE ${pattern} OR description ILIKE ${pattern})`);
  }
  // Walking backwards (the "previous" page) reverses the order; rows are flipped back below.
  const ascending = descending === backwards;
  if (cursor) {
    const values = cursor.map((value, index) => param(value, spec.casts[index]));
    where.push(`(${spec.columns.join(", ")}) ${ascending ? ">" : "<"} (${values.join(", ")})`);
  }
  const order = spec.columns.map((column) => `${column} ${ascending ? "ASC" : "DESC"}`).join(", ");
  const result = await db.pool.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${limit + 1}`,
    params,
  );
  const more = result.rows.length > limit;
  const rows = result.rows.slice(0, limit);
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const keyOf = (row: EventRow | undefined) => (row ? encodeCursor(sort, spec.key(row)) : null);
  return {
    items: rows.map(toEventRecord),
    nextCursor: backwards ? (cursor ? keyOf(last) : null) : more ? keyOf(last) : null,
    prevCursor: backwards ? (more ? keyOf(first) : null) : cursor ? keyOf(first) : null,
  };
}
