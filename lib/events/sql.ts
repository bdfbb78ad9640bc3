import { eventData } from "@/lib/outbound/sql";
import type { EventInput, EventStatus, Recurrence } from "./schema";

/*
 * The SQL that defines what an upsert is, shared by the webhook's single-statement ingestion, the
 * dashboard and the CSV import, so "full replacement" and "identity" mean the same everywhere.
 * Identity is the unique index events_identity_key (account_id, title, starts_at, location); racing
 * identical upserts meet in ON CONFLICT instead of a read-then-write.
 */

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

const INSERT_COLUMNS = "account_id, title, starts_at, starts_at_offset, ends_at, description, location, url, price, recurring, status";
const FIELD_NAMES = ["title", "starts_at", "starts_at_offset", "ends_at", "description", "location", "url", "price", "recurring", "status"] as const;
const FIELD_CASTS = ["text", "timestamptz", "text", "timestamptz", "text", "text", "text", "text", "text", '"EventStatus"'] as const;

// Full replacement of every field but the identity; xmax = 0 only for a freshly inserted tuple. `data`
// is the event as notifications carry it, for the outbox message every writer adds (lib/outbound/sql.ts).
const REPLACE_ON_CONFLICT = `ON CONFLICT (account_id, title, starts_at, location) DO UPDATE SET
      starts_at_offset = EXCLUDED.starts_at_offset, ends_at = EXCLUDED.ends_at, description = EXCLUDED.description,
      url = EXCLUDED.url, price = EXCLUDED.price, recurring = EXCLUDED.recurring, status = EXCLUDED.status,
      updated_at = now()
    RETURNING e.id, e.status::text AS status, (e.xmax = 0) AS created, ${eventData("e")}`;

/** The outbox source for upsert results (a CTE `from` with created and data): event.created or event.updated. */
export const upsertNotifications = (account: string, from: string) =>
  `SELECT ${account}::uuid AS account_id, CASE WHEN ${from}.created THEN 'event.created' ELSE 'event.updated' END AS type, ${from}.data FROM ${from}`;

/**
 * The upsert of one event: INSERT … ON CONFLICT DO UPDATE replacing every field with what was sent.
 * `source` is the FROM/WHERE tail that decides whether the row is offered at all (rate limit, plan
 * limit). Returns id, status, whether the row was created, and the event's notification data.
 */
export function upsertEventSql(account: number, first: number, source: string): string {
  const values = FIELD_CASTS.map((cast, offset) => `$${first + offset}::${cast}`).join(", ");
  return `INSERT INTO events AS e (${INSERT_COLUMNS})
    SELECT $${account}::uuid, ${values}
    ${source}
    ${REPLACE_ON_CONFLICT}`;
}

/**
 * The same upsert for many events (CSV import): parameters `first`… are one array per field, in
 * eventFieldParams order (eventFieldArrays builds them). The rows must not repeat an identity: one
 * statement cannot change the same row twice.
 */
export function upsertEventBatchSql(account: number, first: number): string {
  const arrays = FIELD_CASTS.map((cast, offset) => `$${first + offset}::${cast === "timestamptz" ? "timestamptz" : "text"}[]`).join(", ");
  const values = FIELD_NAMES.map((name, index) => `u.${name}::${FIELD_CASTS[index]}`).join(", ");
  return `INSERT INTO events AS e (${INSERT_COLUMNS})
    SELECT $${account}::uuid, ${values}
    FROM unnest(${arrays}) AS u(${FIELD_NAMES.join(", ")})
    ${REPLACE_ON_CONFLICT}`;
}

/** One array per field, for upsertEventBatchSql. */
export function eventFieldArrays(inputs: EventInput[]): unknown[][] {
  const columns: unknown[][] = FIELD_NAMES.map(() => []);
  for (const input of inputs) eventFieldParams(input).forEach((value, index) => columns[index].push(value));
  return columns;
}

/**
 * Creating an event under the plan's limit, exact under concurrency: every writer that can add or
 * remove events (webhook, dashboard, CSV import) first locks the account row with this CTE, then reads
 * the count. FOR NO KEY UPDATE waits for a concurrent writer's commit and rechecks the condition on
 * the row as that writer left it (its count trigger updated event_count in the same transaction), so
 * two writers can never both take the last slot. It is the same row lock the count trigger takes, and
 * it is taken before any event row, in the same order everywhere, so writers cannot deadlock on it.
 * It does not conflict with the foreign-key checks (FOR KEY SHARE) of other inserts. `when` narrows
 * when the lock is needed at all (e.g. not for an update of an existing event).
 */
export function accountRoomCte(name: string, account: string, maxEvents: string, when = "true"): string {
  return `${name} AS (SELECT event_count FROM accounts WHERE id = ${account}::uuid AND event_count < ${maxEvents} AND ${when} FOR NO KEY UPDATE)`;
}

/** The same lock for writers that remove events (no condition on the count). */
export function accountLockCte(name: string, account: string, when = "true"): string {
  return `${name} AS (SELECT 1 FROM accounts WHERE id = ${account}::uuid AND ${when} FOR NO KEY UPDATE)`;
}
