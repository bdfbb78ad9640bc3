import "server-only";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { isUniqueViolation } from "@/lib/platform/db/errors";
import { isUuid } from "@/lib/platform/ids";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { parseEventFields, type FieldError } from "./schema";
import {
  accountLockCte,
  accountRoomCte,
  EVENT_COLUMNS,
  eventFieldParams,
  identityMatch,
  toEventRecord,
  upsertEventSql,
  upsertNotifications,
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

/** The outbox CTE for the changed rows of CTE `ev` (with a `data` column), all of one type. */
const notify = (type: string, where = "") =>
  emitMessagesCte("notified", `SELECT $2::uuid AS account_id, '${type}' AS type, ev.data FROM ev ${where}`);

export type EventWriteResult =
  | { ok: true; event: EventRecord; created: boolean }
  | { ok: false; code: "invalid_payload"; message: string; details: FieldError[] }
  | { ok: false; code: "plan_limit_reached" | "duplicate_identity" | "event_not_found"; message: string; details: FieldError[] };

const failure = (code: "plan_limit_reached" | "duplicate_identity" | "event_not_found", message: string): EventWriteResult => ({
  ok: false,
  code,
  message,
  details: [],
});

const invalid = (details: FieldError[]): EventWriteResult => ({
  ok: false,
  code: "invalid_payload",
  message: "Some fields are invalid.",
  details,
});

const planLimitMessage = (plan: PlanName) =>
  `This account has reached its plan's limit of ${PLANS[plan].maxEvents.toLocaleString("en-US")} events. Delete events or upgrade the plan.`;
const duplicateMessage = "Another event already has this title, start time and location.";

async function accountPlan(accountId: string): Promise<PlanName> {
  const result = await db.pool.query<{ plan: PlanName }>("SELECT plan::text AS plan FROM accounts WHERE id = $1::uuid", [accountId]);
  return result.rows[0]?.plan ?? "free";
}

export async function getEvent(accountId: string, eventId: string): Promise<EventRecord | null> {
  if (!isUuid(eventId) || !isUuid(accountId)) return null;
  const result = await db.pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1::uuid AND account_id = $2::uuid`, [eventId, accountId]);
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
  const result = await db.pool.query<EventRow>(
    `WITH ${accountRoomCte("room", "$1", "$12::int")},
     ev AS (
       INSERT INTO events (account_id, title, starts_at, starts_at_offset, ends_at, description, location, url, price, recurring, status)
       SELECT $1::uuid, $2::text, $3::timestamptz, $4::text, $5::timestamptz, $6::text, $7::text, $8::text, $9::text, $10::text, $11::"EventStatus"
       FROM room
       ON CONFLICT (account_id, title, starts_at, location) DO NOTHING
       RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
     ${emitMessagesCte("notified", "SELECT $1::uuid AS account_id, 'event.created' AS type, ev.data FROM ev")}
     SELECT ${EVENT_COLUMNS} FROM ev`,
    [accountId, ...eventFieldParams(parsed.value), PLANS[plan].maxEvents],
  );
  if (result.rows[0]) return { ok: true, event: toEventRecord(result.rows[0]), created: true };
  const { title, startsAt, location } = parsed.value;
  const exists = await db.pool.query(
    "SELECT 1 FROM events WHERE account_id = $1::uuid AND title = $2::text AND starts_at = $3::timestamptz AND location = $4::text",
    [accountId, title, startsAt.toISOString(), location],
  );
  return exists.rowCount ? failure("duplicate_identity", duplicateMessage) : failure("plan_limit_reached", planLimitMessage(plan));
}

/** The webhook's upsert for other writers (CSV import): create, or fully replace the event with this identity. */
export async function upsertEvent(accountId: string, input: unknown): Promise<EventWriteResult> {
  const parsed = parseEventFields(input);
  if (!parsed.ok) return invalid(parsed.details);
  const plan = await accountPlan(accountId);
  const result = await db.pool.query<{ id: string; created: boolean }>(
    `WITH known AS (SELECT 1 FROM events WHERE ${identityMatch(1, 2, 3, 7)}),
          ${accountRoomCte("room", "$1", "$12::int", "NOT EXISTS (SELECT 1 FROM known)")},
          ev AS (${upsertEventSql(1, 2, "WHERE EXISTS (SELECT 1 FROM known) OR EXISTS (SELECT 1 FROM room)")}),
          ${emitMessagesCte("notified", upsertNotifications("$1", "ev"))}
     SELECT id, created FROM ev`,
    [accountId, ...eventFieldParams(parsed.value), PLANS[plan].maxEvents],
  );
  const row = result.rows[0];
  if (!row) return failure("plan_limit_reached", planLimitMessage(plan));
  const event = await getEvent(accountId, row.id);
  return event ? { ok: true, event, created: row.created } : failure("event_not_found", "The event was deleted meanwhile.");
}

/** Full replacement of an event's fields, identity included. */
export async function updateEvent(accountId: string, eventId: string, input: unknown): Promise<EventWriteResult> {
  const parsed = parseEventFields(input);
  if (!parsed.ok) return invalid(parsed.details);
  if (!isUuid(eventId) || !isUuid(accountId)) return failure("event_not_found", "The event does not exist.");
  try {
    const result = await db.pool.query<EventRow>(
      `WITH ev AS (
         UPDATE events SET title = $3::text, starts_at = $4::timestamptz, starts_at_offset = $5::text, ends_at = $6::timestamptz,
           description = $7::text, location = $8::text, url = $9::text, price = $10::text, recurring = $11::text,
           status = $12::"EventStatus", updated_at = now()
         WHERE id = $1::uuid AND account_id = $2::uuid
         RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
       ${notify("event.updated")}
       SELECT ${EVENT_COLUMNS} FROM ev`,
      [eventId, accountId, ...eventFieldParams(parsed.value)],
    );
    return result.rows[0] ? { ok: true, event: toEventRecord(result.rows[0]), created: false } : failure("event_not_found", "The event does not exist.");
  } catch (error) {
    if (isUniqueViolation(error)) return failure("duplicate_identity", duplicateMessage);
    throw error;
  }
}

/** Sets the status to cancelled; cancelling a cancelled event changes nothing (and notifies nobody). Null when there is no such event. */
export async function cancelEvent(accountId: string, eventId: string): Promise<EventRecord | null> {
  if (!isUuid(eventId) || !isUuid(accountId)) return null;
  const result = await db.pool.query<EventRow>(
    `WITH prior AS (SELECT status FROM events WHERE id = $1::uuid AND account_id = $2::uuid),
     ev AS (
       UPDATE events SET status = 'cancelled', updated_at = CASE WHEN status = 'cancelled' THEN updated_at ELSE now() END
       WHERE id = $1::uuid AND account_id = $2::uuid RETURNING ${EVENT_COLUMNS}, ${eventData("events")}),
     ${notify("event.cancelled", "WHERE (SELECT status FROM prior) <> 'cancelled'")}
     SELECT ${EVENT_COLUMNS} FROM ev`,
    [eventId, accountId],
  );
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
      `WITH ${accountLockCte("locked", "$2")},
       ev AS (
         DELETE FROM events WHERE id = $1::uuid AND account_id = $2::uuid AND EXISTS (SELECT 1 FROM locked)
         RETURNING title, starts_at, location, ${eventData("events")}),
       ${notify("event.deleted")}
       SELECT title, starts_at, location FROM ev`,
      eventId,
      accountId,
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
