import { placeholders } from "@/lib/platform/db/sql";
import { eventData } from "@/lib/outbound/sql";
import type { EventInput, EventStatus, Recurrence } from "./schema";

/*
 * The SQL that defines what an upsert is, shared by the webhook's single-statement ingestion, the
 * dashboard and the CSV import, so "full replacement" and "identity" mean the same everywhere.
 * Identity is the unique index events_identity_key (account_id, title, starts_at, location); racing
 * identical upserts meet in ON CONFLICT instead of a read-then-write. Parameters are named placeholders
 * (EventParams, lib/platform/db/sql.ts): a caller numbers its statement with `statement` and passes a record.
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
  "id, title, starts_at, starts_at_offset, ends_at, description, location, url, price, recurring, status, " +
  "created_at, updated_at";

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

/**
 * The ten fields of an event, named after their columns, with their SQL types: one placeholder each in the
 * statements below.
 */
const FIELD_CASTS = {
  title: "text",
  starts_at: "timestamptz",
  starts_at_offset: "text",
  ends_at: "timestamptz",
  description: "text",
  location: "text",
  url: "text",
  price: "text",
  recurring: "text",
  status: '"EventStatus"',
} as const;
export type FieldName = keyof typeof FIELD_CASTS;
export const FIELD_NAMES = Object.keys(FIELD_CASTS) as FieldName[];
export type EventFields = Record<FieldName, unknown>;
/** The parameters every event statement here uses (a statement may add its own). */
export type EventParams = EventFields & { account: string };

/** A field's parameter as an array (eventFieldArrays, for unnest): the enum travels as text. */
export const fieldArrayCast = (name: FieldName) => (FIELD_CASTS[name] === "timestamptz" ? "timestamptz[]" : "text[]");

const p = placeholders<EventParams>();

/** The field values of one event, for EventParams. */
export function eventFields(input: EventInput): EventFields {
  return {
    title: input.title,
    starts_at: input.startsAt.toISOString(),
    starts_at_offset: input.startsAtOffset,
    ends_at: input.endsAt ? input.endsAt.toISOString() : null,
    description: input.description,
    location: input.location,
    url: input.url,
    price: input.price,
    recurring: input.recurring,
    status: input.status,
  };
}

/** The identity (account, title, starts_at, location parameters) as a WHERE condition over `alias`'s columns. */
export function identityMatch(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return (
    `${column("account_id")} = ${p.account}::uuid AND ${column("title")} = ${p.title}::text` +
    ` AND ${column("starts_at")} = ${p.starts_at}::timestamptz AND ${column("location")} = ${p.location}::text`
  );
}

const INSERT_COLUMNS = `account_id, ${FIELD_NAMES.join(", ")}`;

// Full replacement of every field but the identity; xmax = 0 only for a freshly inserted tuple. `data`
// is the event as notifications carry it, for the outbox message every writer adds (lib/outbound/sql.ts).
// `onlyChanged`: an event whose fields are all as sent is left as it is (no updated_at, no row returned).
const REPLACED = ["starts_at_offset", "ends_at", "description", "url", "price", "recurring", "status"];
const columnsOf = (alias: string) => REPLACED.map((column) => `${alias}.${column}`).join(", ");
const replaceOnConflict = (onlyChanged: boolean) => `ON CONFLICT (account_id, title, starts_at, location) DO UPDATE SET
      ${REPLACED.map((column) => `${column} = EXCLUDED.${column}`).join(", ")}, updated_at = now()
    ${onlyChanged ? `WHERE (${columnsOf("e")}) IS DISTINCT FROM (${columnsOf("EXCLUDED")})` : ""}
    RETURNING e.id, e.status::text AS status, (e.xmax = 0) AS created, ${eventData("e")}`;

/** The outbox source for upsert results (a CTE `from` with created and data): event.created or event.updated. */
export const upsertNotifications = (from: string) =>
  `SELECT ${p.account}::uuid AS account_id, CASE WHEN ${from}.created THEN 'event.created' ELSE 'event.updated' END
    AS type,
    ${from}.data FROM ${from}`;

/**
 * The upsert of one event (EventParams): INSERT … ON CONFLICT DO UPDATE replacing every field with what
 * was sent. `source` is the FROM/WHERE tail that decides whether the row is offered at all (rate limit,
 * plan limit). Returns id, status, whether the row was created, and the event's notification data.
 */
export function upsertEventSql(source: string): string {
  const values = FIELD_NAMES.map((name) => `${p[name]}::${FIELD_CASTS[name]}`).join(", ");
  return `INSERT INTO events AS e (${INSERT_COLUMNS})
    SELECT ${p.account}::uuid, ${values}
    ${source}
    ${replaceOnConflict(false)}`;
}

/**
 * The same upsert for many events (CSV import): each field parameter is an array (eventFieldArrays).
 * The rows must not repeat an identity: one statement cannot change the same row twice. An event already
 * as sent is left untouched and not returned, so importing a file again changes and notifies nothing.
 */
export function upsertEventBatchSql(): string {
  const arrays = FIELD_NAMES.map((name) => `${p[name]}::${fieldArrayCast(name)}`);
  const values = FIELD_NAMES.map((name) => `u.${name}::${FIELD_CASTS[name]}`).join(", ");
  return `INSERT INTO events AS e (${INSERT_COLUMNS})
    SELECT ${p.account}::uuid, ${values}
    FROM unnest(${arrays.join(", ")}) AS u(${FIELD_NAMES.join(", ")})
    ${replaceOnConflict(true)}`;
}

/** One array per field, for upsertEventBatchSql. */
export function eventFieldArrays(inputs: EventInput[]): Record<keyof EventFields, unknown[]> {
  const columns = Object.fromEntries(FIELD_NAMES.map((name) => [name, [] as unknown[]])) as Record<
    keyof EventFields,
    unknown[]
  >;
  for (const input of inputs) {
    const fields = eventFields(input);
    for (const name of FIELD_NAMES) columns[name].push(fields[name]);
  }
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
  return `${name} AS (SELECT event_count FROM accounts WHERE id = ${account}::uuid AND event_count < ${maxEvents}
    AND ${when} FOR NO KEY UPDATE)`;
}

/** The same lock for writers that remove events (no condition on the count). */
export function accountLockCte(name: string, account: string, when = "true"): string {
  return `${name} AS (SELECT 1 FROM accounts WHERE id = ${account}::uuid AND ${when} FOR NO KEY UPDATE)`;
}
