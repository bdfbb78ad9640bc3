import "server-only";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { isUniqueViolation } from "@/lib/platform/db/errors";
import { isUuid } from "@/lib/platform/ids";
import { placeholders, statement } from "@/lib/platform/db/sql";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { fail, type Failure } from "@/lib/platform/result";
import { parseEventFields, type FieldError } from "./schema";
import {
  accountLockCte,
  accountRoomCte,
  EVENT_COLUMNS,
  eventFields,
  FIELD_NAMES,
  identityMatch,
  toEventRecord,
  upsertEventSql,
  upsertNotifications,
  type EventParams,
  type EventRecord,
  type EventRow,
} from "./sql";

/*
 * Account-scoped reads and writes of single events for the dashboard (manual create/edit, cancel,
 * delete) and other writers (upsertEvent). Inputs are the webhook's wire-format event fields
 * (docs/webhook.md, event fields) and are validated with the same schema. Every statement carries
 * account_id; creates and deletes lock the account row first (see accountRoomCte in sql.ts). Every change
 * writes its outbound notification (event.created/updated/cancelled/deleted) in the same statement.
 */

/** Parameters by name (lib/platform/db/sql.ts): the event's fields, its account, and these. */
type Params = EventParams & { id: string; maxEvents: number };
type ByEvent = Pick<Params, "id" | "account">;
const p = placeholders<Params>();

/** The outbox CTE for the changed rows of CTE `ev` (with a `data` column), all of one type. */
const notify = (type: string, where = "") =>
  emitMessagesCte("notified", `SELECT ${p.account}::uuid AS account_id, '${type}' AS type, ev.data FROM ev ${where}`);

const CREATE_SQL = statement<Omit<Params, "id">>(
  `WITH ${accountRoomCte("room", p.account, `${p.maxEvents}::int`)},
     ev AS (
       INSERT INTO events (account_id, ${FIELD_NAMES.join(", ")})
       SELECT ${p.account}::uuid, ${p.title}::text, ${p.starts_at}::timestamptz, ${p.starts_at_offset}::text,
         ${p.ends_at}::timestamptz, ${p.description}::text, ${p.location}::text, ${p.url}::text, ${p.price}::text,
         ${p.recurring}::text, ${p.status}::"EventStatus"
       FROM room
       ON CONFLICT (account_id, title, starts_at, location) DO NOTHING
       RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
     ${notify("event.created")}
     SELECT ${EVENT_COLUMNS} FROM ev`,
);

const EXISTS_SQL = statement<Pick<Params, "account" | "title" | "starts_at" | "location">>(
  `SELECT 1 FROM events WHERE ${identityMatch()}`,
);

const UPSERT_SQL = statement<Omit<Params, "id">>(
  `WITH known AS (SELECT 1 FROM events WHERE ${identityMatch()}),
     ${accountRoomCte("room", p.account, `${p.maxEvents}::int`, "NOT EXISTS (SELECT 1 FROM known)")},
     ev AS (${upsertEventSql("WHERE EXISTS (SELECT 1 FROM known) OR EXISTS (SELECT 1 FROM room)")}),
     ${emitMessagesCte("notified", upsertNotifications("ev"))}
   SELECT id, created FROM ev`,
);

const UPDATE_SQL = statement<Omit<Params, "maxEvents">>(
  `WITH ev AS (
     UPDATE events SET title = ${p.title}::text, starts_at = ${p.starts_at}::timestamptz,
       starts_at_offset = ${p.starts_at_offset}::text, ends_at = ${p.ends_at}::timestamptz,
       description = ${p.description}::text, location = ${p.location}::text, url = ${p.url}::text,
       price = ${p.price}::text, recurring = ${p.recurring}::text, status = ${p.status}::"EventStatus",
       updated_at = now()
     WHERE id = ${p.id}::uuid AND account_id = ${p.account}::uuid
     RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
   ${notify("event.updated")}
   SELECT ${EVENT_COLUMNS} FROM ev`,
);

const CANCEL_SQL = statement<ByEvent>(
  `WITH prior AS (SELECT status FROM events WHERE id = ${p.id}::uuid AND account_id = ${p.account}::uuid),
   ev AS (
     UPDATE events SET status = 'cancelled', updated_at = CASE WHEN status = 'cancelled' THEN updated_at ELSE now() END
     WHERE id = ${p.id}::uuid AND account_id = ${p.account}::uuid RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
   ${notify("event.cancelled", "WHERE (SELECT status FROM prior) <> 'cancelled'")}
   SELECT ${EVENT_COLUMNS} FROM ev`,
);

const DELETE_SQL = statement<ByEvent>(
  `WITH ${accountLockCte("locked", p.account)},
   ev AS (
     DELETE FROM events WHERE id = ${p.id}::uuid AND account_id = ${p.account}::uuid AND EXISTS (SELECT 1 FROM locked)
     RETURNING title, starts_at, location, ${eventData("events")}),
   ${notify("event.deleted")}
   SELECT title, starts_at, location FROM ev`,
);

type EventWriteCode = "invalid_payload" | "plan_limit_reached" | "duplicate_identity" | "event_not_found";

/** A failed write always carries `details` (empty unless fields are invalid). */
export type EventWriteResult =
  { ok: true; event: EventRecord; created: boolean } | (Failure<EventWriteCode> & { details: FieldError[] });

const failure = (code: Exclude<EventWriteCode, "invalid_payload">, message: string) => ({
  ...fail(code, message),
  details: [],
});

const invalid = (details: FieldError[]) => ({ ...fail("invalid_payload", "Some fields are invalid."), details });

const planLimitMessage = (plan: PlanName) =>
  `This account has reached its plan's limit of ${PLANS[plan].maxEvents.toLocaleString("en-US")} events. ` +
  `Delete events or upgrade the plan.`;
const duplicateMessage = "Another event already has this title, start time and location.";

async function accountPlan(accountId: string): Promise<PlanName> {
  const result = await db.pool.query<{ plan: PlanName }>(
    "SELECT plan::text AS plan FROM accounts WHERE id = $1::uuid",
    [accountId],
  );
  return result.rows[0]?.plan ?? "free";
}

export async function getEvent(accountId: string, eventId: string): Promise<EventRecord | null> {
  if (!isUuid(eventId) || !isUuid(accountId)) return null;
  const result = await db.pool.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1::uuid AND account_id = $2::uuid`,
    [eventId, accountId],
  );
  return result.rows[0] ? toEventRecord(result.rows[0]) : null;
}

/** Events in the account and the plan's ceiling, for the Plan page and the events list header. */
export async function eventUsage(accountId: string): Promise<{ count: number; limit: number; plan: PlanName }> {
  const result = await db.pool.query<{ event_count: number; plan: PlanName }>(
    "SELECT event_count, plan::text AS plan FROM accounts WHERE id = $1::uuid",
    [accountId],
  );
  const row = result.rows[0] ?? { event_count: 0, plan: "free" as const };
  return { count: row.event_count, limit: PLANS[row.plan].maxEvents, plan: row.plan };
}

/** Creates a new event; fails when one with the same identity exists or the plan's limit is reached. */
export async function createEvent(accountId: string, input: unknown): Promise<EventWriteResult> {
  const parsed = parseEventFields(input);
  if (!parsed.ok) return invalid(parsed.details);
  const plan = await accountPlan(accountId);
  const params = { ...eventFields(parsed.value), account: accountId, maxEvents: PLANS[plan].maxEvents };
  const result = await db.pool.query<EventRow>(CREATE_SQL.text, CREATE_SQL.values(params));
  if (result.rows[0]) return { ok: true, event: toEventRecord(result.rows[0]), created: true };
  const { title, starts_at, location } = params;
  const identity = { account: accountId, title, starts_at, location };
  const exists = await db.pool.query(EXISTS_SQL.text, EXISTS_SQL.values(identity));
  return exists.rowCount
    ? failure("duplicate_identity", duplicateMessage)
    : failure("plan_limit_reached", planLimitMessage(plan));
}

/** The webhook's upsert for other writers (CSV import): create, or fully replace the event with this identity. */
export async function upsertEvent(accountId: string, input: unknown): Promise<EventWriteResult> {
  const parsed = parseEventFields(input);
  if (!parsed.ok) return invalid(parsed.details);
  const plan = await accountPlan(accountId);
  const params = { ...eventFields(parsed.value), account: accountId, maxEvents: PLANS[plan].maxEvents };
  const result = await db.pool.query<{ id: string; created: boolean }>(UPSERT_SQL.text, UPSERT_SQL.values(params));
  const row = result.rows[0];
  if (!row) return failure("plan_limit_reached", planLimitMessage(plan));
  const event = await getEvent(accountId, row.id);
  return event
    ? { ok: true, event, created: row.created }
    : failure("event_not_found", "The event was deleted meanwhile.");
}

/** Full replacement of an event's fields, identity included. */
export async function updateEvent(accountId: string, eventId: string, input: unknown): Promise<EventWriteResult> {
  const parsed = parseEventFields(input);
  if (!parsed.ok) return invalid(parsed.details);
  if (!isUuid(eventId) || !isUuid(accountId)) return failure("event_not_found", "The event does not exist.");
  try {
    const params = { ...eventFields(parsed.value), id: eventId, account: accountId };
    const result = await db.pool.query<EventRow>(UPDATE_SQL.text, UPDATE_SQL.values(params));
    return result.rows[0]
      ? { ok: true, event: toEventRecord(result.rows[0]), created: false }
      : failure("event_not_found", "The event does not exist.");
  } catch (error) {
    if (isUniqueViolation(error)) return failure("duplicate_identity", duplicateMessage);
    throw error;
  }
}

/**
 * Sets the status to cancelled; cancelling a cancelled event changes nothing (and notifies nobody). Null when there is
 * no such event.
 */
export async function cancelEvent(accountId: string, eventId: string): Promise<EventRecord | null> {
  if (!isUuid(eventId) || !isUuid(accountId)) return null;
  const result = await db.pool.query<EventRow>(CANCEL_SQL.text, CANCEL_SQL.values({ id: eventId, account: accountId }));
  return result.rows[0] ? toEventRecord(result.rows[0]) : null;
}

/**
 * Removes the event and records who did it in the audit log (same transaction); false when there was
 * no such event in this account. The account row is locked first, as every writer of the count does.
 */
export async function deleteEvent(accountId: string, eventId: string, actor: AuditActor = null): Promise<boolean> {
  if (!isUuid(eventId) || !isUuid(accountId)) return false;
  return db.prisma.$transaction(async (tx) => {
    const removed = await tx.$queryRawUnsafe<Array<{ title: string; starts_at: Date; location: string }>>(
      DELETE_SQL.text,
      ...DELETE_SQL.values({ id: eventId, account: accountId }),
    );
    const event = removed[0];
    if (!event) return false;
    await recordAudit(
      {
        accountId,
        actor,
        action: "event.deleted",
        target: { type: "event", id: eventId, label: event.title },
        metadata: { starts_at: event.starts_at.toISOString(), location: event.location },
      },
      tx,
    );
    return true;
  });
}
