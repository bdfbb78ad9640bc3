import "server-only";
import { db } from "@/lib/platform/db/client";
import { join, param, raw, sql, type Sql } from "@/lib/platform/db/sql";
import { isUuid } from "@/lib/platform/ids";
import {
  encodeCursor,
  keysetOrder,
  keysetQuery,
  takePage,
  tryDecodeCursor,
  type KeyPart,
} from "@/lib/platform/pagination/keyset";
import { EVENT_COLUMNS, toEventRecord, type EventRecord, type EventRow } from "./sql";

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
  /**
   * upcoming: starts now or later, or a recurring series (it repeats without end: docs/recurring-events.md);
   * past: a one-off event that started before now.
   */
  when?: EventWhen;
  /** Defaults: start time ascending, or descending for past events. */
  sort?: EventSort;
  cursor?: string | null;
  direction?: "next" | "prev";
  limit?: number;
  now?: Date;
};

export type EventPage = { items: EventRecord[]; nextCursor: string | null; prevCursor: string | null };

type SortSpec = { columns: string[]; parts: KeyPart[]; key: (row: EventRow) => Array<string | Date> };

const SORTS: Record<"starts_at" | "title", SortSpec> = {
  starts_at: { columns: ["starts_at", "id"], parts: ["timestamptz", "uuid"], key: (row) => [row.starts_at, row.id] },
  title: {
    columns: ["title", "starts_at", "location"],
    parts: ["text", "timestamptz", "text"],
    key: (row) => [row.title, row.starts_at, row.location],
  },
};

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
  // The sort is the cursor's tag: a cursor of one sort is not applied to another.
  const cursor = tryDecodeCursor(options.cursor, sort, spec.parts);

  const where = [sql`account_id = ${param(accountId, "uuid")}`];
  if (options.status && options.status !== "all") where.push(sql`status = ${param(options.status, '"EventStatus"')}`);
  const now = param((options.now ?? new Date()).toISOString(), "timestamptz");
  // Each branch walks its own index in order (series: events_series_idx), so "upcoming" stays a keyset walk.
  const branches = {
    all: [sql`true`],
    upcoming: [sql`starts_at >= ${now}`, sql`recurring <> '' AND starts_at < ${now}`],
    past: [sql`recurring = '' AND starts_at < ${now}`],
  }[when];
  const query = options.query?.trim().slice(0, 200).replaceAll("\u0000", "");
  if (query) {
    const pattern = param(`%${escapeLike(query)}%`, "text");
    where.push(sql`(title ILIKE ${pattern} OR location ILIKE ${pattern} OR description ILIKE ${pattern})`);
  }
  // Walking backwards (the "previous" page) reverses the order; rows are flipped back below.
  const ascending = descending === backwards;
  const direction = ascending ? "ascending" : "descending";
  const { columns, parts } = spec;
  const select = (branch: Sql) =>
    keysetQuery({
      select: sql`SELECT ${raw(EVENT_COLUMNS)} FROM events`,
      where: [...where, branch],
      columns,
      parts,
      cursor,
      direction,
      limit,
    });
  // The branches' pages merged: the same order, the same limit.
  const union = () =>
    join(
      branches.map((branch) => sql`(${select(branch)})`),
      " UNION ALL ",
    );
  const statement =
    branches.length === 1
      ? select(branches[0])
      : sql`SELECT * FROM (${union()}) AS page ORDER BY ${raw(keysetOrder(columns, direction))} LIMIT ${limit + 1}`;
  const result = await db.replica.query<EventRow>(statement.text, statement.values);
  const { rows, more } = takePage(result.rows, limit);
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
