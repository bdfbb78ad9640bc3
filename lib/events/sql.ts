import type { EventInput, EventStatus, Recurrence } from "./schema";

/*
 * The SQL that defines what an upsert is, shared by the webhook's single-statement ingestion, the
 * dashboard and the CSV import, so "full replacement" and "identity" mean the same everywhere.
 * Identity is the unique index events_identity_key (account_id, title, starts_at, location); racing
 * identical upserts meet in ON CONFLICT instead of a read-then-write.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from URLs and forms are checked before they reach a uuid column (which would raise 22P02). */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

export type EventRecord = {
  id: string;
  title: string;
  startsAt: Date;
  /** The offset the sender wrote ("+02:00", or "Z"), for display. */
  startsAtOffset: string;
  endsAt: Date | null;
  description: string;
  location: string;
  url: string;
  price: string;
  recurring: Recurrence;
  status: EventStatus;
  createdAt: Date;
  updatedAt: Date;
};

export const EVENT_COLUMNS =
  "id, title, starts_at, starts_at_offset, ends_at, description, location, url, price, recurring, status, created_at, updated_at";

export type EventRow = {
  id: string;
  title: string;
  starts_at: Date;
  starts_at_offset: string;
  ends_at: Date | null;
  description: string;
  location: string;
  url: string;
  price: string;
  recurring: string;
  status: string;
  created_at: Date;
  updated_at: Date;
};

export function toEventRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    title: row.title,
    startsAt: row.starts_at,
    startsAtOffset: row.starts_at_offset,
    endsAt: row.ends_at,
    description: row.description,
    location: row.location,
    url: row.url,
    price: row.price,
    recurring: row.recurring as Recurrence,
    status: row.status as EventStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The ten field values, in the order the statements below number them. */
export function eventFieldParams(input: EventInput): unknown[] {
  return [
    input.title,
    input.startsAt.toISOString(),
    input.startsAtOffset,
    input.endsAt ? input.endsAt.toISOString() : null,
    input.description,
    input.location,
    input.url,
    input.price,
    input.recurring,
    input.status,
  ];
}

/** The identity as a WHERE condition over the given parameter positions. */
export function identityMatch(account: number, title: number, startsAt: number, location: number): string {
  return `account_id = $${account}::uuid AND title = $${title}::text AND starts_at = $${startsAt}::timestamptz AND location = $${location}::text`;
}

/**
 * INSERT … ON CONFLICT DO UPDATE replacing every field with what was sent. `source` is the FROM/WHERE
 * tail that decides whether a row is offered at all (rate limit, plan limit). Returns id, status and
 * whether the row was created (xmax = 0 only for a freshly inserted tuple).
 */
export function upsertEventSql(account: number, first: number, source: string): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO events AS e (account_id, title, starts_at, starts_at_offset, ends_at, description, location, url, price, recurring, status)
    SELECT $${account}::uuid, ${p(0)}::text, ${p(1)}::timestamptz, ${p(2)}::text, ${p(3)}::timestamptz, ${p(4)}::text,
           ${p(5)}::text, ${p(6)}::text, ${p(7)}::text, ${p(8)}::text, ${p(9)}::"EventStatus"
    ${source}
    ON CONFLICT (account_id, title, starts_at, location) DO UPDATE SET
      starts_at_offset = EXCLUDED.starts_at_offset, ends_at = EXCLUDED.ends_at, description = EXCLUDED.description,
      url = EXCLUDED.url, price = EXCLUDED.price, recurring = EXCLUDED.recurring, status = EXCLUDED.status,
      updated_at = now()
    RETURNING e.id, e.status::text AS status, (e.xmax = 0) AS created`;
}
