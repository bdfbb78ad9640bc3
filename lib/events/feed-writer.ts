import "server-only";
import type pg from "pg";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { db } from "@/lib/platform/db/client";
import { raw, sql } from "@/lib/platform/db/sql";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { withEventCountLocked } from "./count-lock";
import type { EventInput } from "./schema";
import { eventFieldArrays, EVENT_COLUMNS, FIELD_NAMES, fieldArrayCast, type EventRow } from "./sql";

/*
 * The event writer for calendar feeds (docs/calendar-feeds.md, "Follow a calendar"): makes the events a
 * feed brought in exactly the feed's entries, keyed by (feed, key) rather than by the webhook's identity,
 * with the same fields, checks and side effects as every other writer: inputs passed the events' schema,
 * each batch locks the account row first and creates only what the plan has room for (accountRoomCte's
 * rule), and every change writes its `event.*` notification in the same statement. Only rows of this feed
 * are ever read, changed or deleted: another writer's event with the same title, start and location is
 * left alone and the entry skipped. An entry equal to its event writes nothing.
 */

export type FeedException = { occursAt: Date; kind: "cancelled" | "deleted" };
/** One entry of a feed: `exceptions` is null for a one-off event, the series' removed occurrences otherwise. */
export type FeedEventItem = { key: string; input: EventInput; exceptions: FeedException[] | null };

export type FeedWriteSummary = {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  /** Entries not written: over the plan's limit, or another event has their title, start and location. */
  skipped: number;
  limit: { plan: string; maxEvents: number; notImported: number } | null;
  conflicts: number;
};

export const FEED_BATCH_SIZE = 500;

type Existing = EventRow & { feed_key: string; exceptions: string[] };
type Queryable = Pick<pg.PoolClient, "query">;

const exceptionsSignature = (list: FeedException[] | null) =>
  (list ?? [])
    .map((item) => `${item.kind} ${item.occursAt.getTime()}`)
    .sort()
    .join(",");

function sameEvent(row: Existing, item: FeedEventItem): boolean {
  const input = item.input;
  return (
    row.title === input.title &&
    row.starts_at.getTime() === input.startsAt.getTime() &&
    row.starts_at_offset === input.startsAtOffset &&
    (row.ends_at?.getTime() ?? null) === (input.endsAt?.getTime() ?? null) &&
    row.description === input.description &&
    row.location === input.location &&
    row.url === input.url &&
    row.price === input.price &&
    row.recurring === input.recurring &&
    row.status === input.status &&
    [...row.exceptions].sort().join(",") === exceptionsSignature(item.exceptions)
  );
}

async function existingEvents(client: Queryable, accountId: string, feedId: string): Promise<Map<string, Existing>> {
  const query = sql`SELECT ${raw(EVENT_COLUMNS)}, feed_key,
      COALESCE((SELECT array_agg(x.kind || ' ' || (extract(epoch FROM x.occurs_at) * 1000)::bigint)
                FROM event_exceptions x WHERE x.event_id = e.id), '{}') AS exceptions
    FROM events e WHERE e.account_id = ${accountId}::uuid AND e.feed_id = ${feedId}::uuid`;
  const result = await client.query<Existing>(query.text, query.values);
  return new Map(result.rows.map((row) => [row.feed_key, row]));
}

/**
 * Writes a feed's entries: deletes this feed's events whose key is gone (unless `keep(key)`), updates the
 * changed ones, creates the new ones while the plan has room. One transaction per batch of 500.
 */
export async function writeFeedEvents(
  accountId: string,
  feedId: string,
  items: FeedEventItem[],
  keep: (key: string) => boolean,
): Promise<FeedWriteSummary> {
  const summary: FeedWriteSummary = {
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    skipped: 0,
    limit: null,
    conflicts: 0,
  };
  const connection = await db.pool.connect();
  try {
    const existing = await existingEvents(connection, accountId, feedId);
    const wanted = new Set(items.map((item) => item.key));
    const gone = [...existing.values()].filter((row) => !wanted.has(row.feed_key) && !keep(row.feed_key));
    const changed: Array<{ item: FeedEventItem; id: string }> = [];
    const fresh: FeedEventItem[] = [];
    for (const item of items) {
      const row = existing.get(item.key);
      if (!row) fresh.push(item);
      else if (sameEvent(row, item)) summary.unchanged++;
      else changed.push({ item, id: row.id });
    }
    for (let start = 0; start < gone.length; start += FEED_BATCH_SIZE) {
      const ids = gone.slice(start, start + FEED_BATCH_SIZE).map((row) => row.id);
      summary.deleted += await withEventCountLocked(connection, accountId, () =>
        deleteBatch(connection, accountId, feedId, ids),
      );
    }
    for (let start = 0; start < changed.length; start += FEED_BATCH_SIZE) {
      const batch = changed.slice(start, start + FEED_BATCH_SIZE);
      await withEventCountLocked(connection, accountId, () =>
        updateBatch(connection, accountId, feedId, batch, summary),
      );
    }
    for (let start = 0; start < fresh.length && !summary.limit; start += FEED_BATCH_SIZE) {
      const batch = fresh.slice(start, start + FEED_BATCH_SIZE);
      await withEventCountLocked(connection, accountId, (plan, count) =>
        createBatch(connection, { accountId, feedId, plan, count }, batch, summary),
      );
    }
    if (summary.limit) {
      const written = summary.created + summary.conflicts;
      summary.limit.notImported = fresh.length - written;
      summary.skipped += summary.limit.notImported;
    }
  } finally {
    connection.release();
  }
  return summary;
}

async function deleteBatch(client: Queryable, accountId: string, feedId: string, ids: string[]): Promise<number> {
  const query = sql`WITH ev AS (
      DELETE FROM events
      WHERE account_id = ${accountId}::uuid AND feed_id = ${feedId}::uuid AND id = ANY(${ids}::uuid[])
      RETURNING account_id, ${raw(eventData("events"))}),
    ${raw(emitMessagesCte("notified", "SELECT ev.account_id, 'event.deleted' AS type, ev.data FROM ev"))}
    SELECT count(*)::int AS deleted FROM ev`;
  const result = await client.query<{ deleted: number }>(query.text, query.values);
  return result.rows[0]?.deleted ?? 0;
}

/** The unnest(…) of the entries' fields, with `extra` arrays first, as `u(extra…, field…)`. */
function unnestEntries(extra: Record<string, { values: unknown[]; cast: string }>, inputs: EventInput[]) {
  const arrays = eventFieldArrays(inputs);
  const columns = [...Object.keys(extra), ...FIELD_NAMES];
  const parts = [
    ...Object.values(extra).map(({ values, cast }) => sql`${values}::${raw(cast)}`),
    ...FIELD_NAMES.map((name) => sql`${arrays[name]}::${raw(fieldArrayCast(name))}`),
  ];
  let list = parts[0];
  for (const part of parts.slice(1)) list = sql`${list}, ${part}`;
  return sql`unnest(${list}) AS u(${raw(columns.join(", "))})`;
}

/**
 * Changes the feed's own events (by id, within the feed) to their entries. An entry whose new title,
 * start and location belong to another event is skipped rather than merged into it.
 */
async function updateBatch(
  client: Queryable,
  accountId: string,
  feedId: string,
  batch: Array<{ item: FeedEventItem; id: string }>,
  summary: FeedWriteSummary,
): Promise<void> {
  const ids = batch.map((entry) => entry.id);
  const entries = unnestEntries(
    { id: { values: ids, cast: "uuid[]" } },
    batch.map((entry) => entry.item.input),
  );
  const taken = sql`SELECT u.id FROM ${entries}
    JOIN events o ON o.account_id = ${accountId}::uuid AND o.title = u.title AND o.starts_at = u.starts_at
      AND o.location = u.location AND o.id <> u.id`;
  const blocked = new Set((await client.query<{ id: string }>(taken.text, taken.values)).rows.map((row) => row.id));
  const allowed = batch.filter((entry) => !blocked.has(entry.id));
  summary.conflicts += batch.length - allowed.length;
  summary.skipped += batch.length - allowed.length;
  if (allowed.length === 0) return;
  await replaceExceptions(
    client,
    accountId,
    allowed.map((entry) => ({ id: entry.id, exceptions: entry.item.exceptions })),
  );
  const rows = unnestEntries(
    { id: { values: allowed.map((entry) => entry.id), cast: "uuid[]" } },
    allowed.map((entry) => entry.item.input),
  );
  const query = sql`WITH prior AS (
      SELECT e.id, e.status FROM events e
      WHERE e.account_id = ${accountId}::uuid AND e.id = ANY(${allowed.map((entry) => entry.id)}::uuid[])),
    ev AS (
      UPDATE events e SET title = u.title, starts_at = u.starts_at, starts_at_offset = u.starts_at_offset,
        ends_at = u.ends_at, description = u.description, location = u.location, url = u.url, price = u.price,
        recurring = u.recurring, status = u.status::"EventStatus", updated_at = now()
      FROM ${rows}
      WHERE e.id = u.id AND e.account_id = ${accountId}::uuid AND e.feed_id = ${feedId}::uuid
      RETURNING e.account_id, e.id, e.status, ${raw(eventData("e"))}),
    ${raw(
      emitMessagesCte(
        "notified",
        `SELECT ev.account_id, CASE WHEN ev.status = 'cancelled' AND prior.status <> 'cancelled' THEN 'event.cancelled'
           ELSE 'event.updated' END AS type, ev.data FROM ev JOIN prior ON prior.id = ev.id`,
      ),
    )}
    SELECT count(*)::int AS updated FROM ev`;
  const result = await client.query<{ updated: number }>(query.text, query.values);
  summary.updated += result.rows[0]?.updated ?? 0;
}

/** Creates the entries the plan has room for; an entry whose title, start and location are taken is skipped. */
async function createBatch(
  client: Queryable,
  target: { accountId: string; feedId: string; plan: PlanName; count: number },
  batch: FeedEventItem[],
  summary: FeedWriteSummary,
): Promise<void> {
  const { maxEvents, label } = PLANS[target.plan];
  const room = Math.max(maxEvents - target.count, 0);
  const offered = batch.slice(0, room);
  if (offered.length < batch.length) summary.limit = { plan: label, maxEvents, notImported: 0 };
  if (offered.length === 0) return;
  const rows = unnestEntries(
    { feed_key: { values: offered.map((item) => item.key), cast: "text[]" } },
    offered.map((item) => item.input),
  );
  const query = sql`WITH ev AS (
      INSERT INTO events AS e (account_id, feed_id, feed_key, ${raw(FIELD_NAMES.join(", "))})
      SELECT ${target.accountId}::uuid, ${target.feedId}::uuid, u.feed_key, u.title, u.starts_at, u.starts_at_offset,
        u.ends_at, u.description, u.location, u.url, u.price, u.recurring, u.status::"EventStatus"
      FROM ${rows}
      ON CONFLICT DO NOTHING
      RETURNING e.account_id, e.id, e.feed_key, ${raw(eventData("e"))}),
    ${raw(emitMessagesCte("notified", "SELECT ev.account_id, 'event.created' AS type, ev.data FROM ev"))}
    SELECT id, feed_key FROM ev`;
  const result = await client.query<{ id: string; feed_key: string }>(query.text, query.values);
  summary.created += result.rows.length;
  const conflicts = offered.length - result.rows.length;
  summary.conflicts += conflicts;
  summary.skipped += conflicts;
  const byKey = new Map(offered.map((item) => [item.key, item]));
  const series = result.rows.flatMap((row) => {
    const exceptions = byKey.get(row.feed_key)?.exceptions;
    return exceptions?.length ? [{ id: row.id, exceptions }] : [];
  });
  await replaceExceptions(client, target.accountId, series);
}

/** Makes each event's exceptions exactly its entry's (a one-off event's entry has none). */
async function replaceExceptions(
  client: Queryable,
  accountId: string,
  events: Array<{ id: string; exceptions: FeedException[] | null }>,
): Promise<void> {
  if (events.length === 0) return;
  const ids = events.map((event) => event.id);
  const owners: string[] = [];
  const instants: string[] = [];
  const kinds: string[] = [];
  for (const event of events) {
    for (const exception of event.exceptions ?? []) {
      owners.push(event.id);
      instants.push(exception.occursAt.toISOString());
      kinds.push(exception.kind);
    }
  }
  const query = sql`WITH wanted AS (
      SELECT * FROM unnest(${owners}::uuid[], ${instants}::timestamptz[], ${kinds}::text[])
        AS w(event_id, occurs_at, kind)),
    removed AS (
      DELETE FROM event_exceptions x WHERE x.account_id = ${accountId}::uuid AND x.event_id = ANY(${ids}::uuid[])
        AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.event_id = x.event_id AND w.occurs_at = x.occurs_at))
    INSERT INTO event_exceptions AS x (account_id, occurs_at, event_id, kind)
    SELECT ${accountId}::uuid, occurs_at, event_id, kind FROM wanted
    ON CONFLICT (account_id, occurs_at, event_id) DO UPDATE SET kind = EXCLUDED.kind WHERE x.kind <> EXCLUDED.kind`;
  await client.query(query.text, query.values);
}
