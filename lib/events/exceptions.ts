import "server-only";
import type pg from "pg";
import { recordAuditSql, type AuditAction } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { inTransaction } from "@/lib/platform/db/transaction";
import { formatDateTime, formatShortDayTime } from "@/lib/platform/format/date-time";
import { isKnownTimeZone } from "@/lib/platform/format/zoned-time";
import { isUuid } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import { placeholders, statement } from "@/lib/platform/db/sql";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { MAX_INSTANT_MS, MIN_INSTANT_MS } from "./datetime";
import { LAST_INSTANT, occurrenceAt, occurrencesBetween, type Occurrence } from "./occurrences";
import { getEvent } from "./repository";
import { EVENT_COLUMNS, toEventRecord, type EventRecord, type EventRow } from "./sql";

/*
 * An event's detail on the dashboard and its occurrence exceptions (docs/recurring-events.md,
 * "Dashboard"): the next occurrences of a series, its removed occurrences, and the dashboard's way to
 * remove one occurrence (cancel or delete it, as the webhook's occurrence actions do) or restore it (as
 * the webhook's upsert of that occurrence does). Every statement is scoped by the account; a change bumps
 * the series' updated_at, announces event.updated with the series and writes an audit entry, all in one
 * transaction. Occurrences come from lib/events/occurrences.ts only.
 */

export type ExceptionKind = "cancelled" | "deleted";
export type OccurrenceException = { occursAt: Date; kind: ExceptionKind; removedAt: Date };
export type EventDetail = { event: EventRecord; upcoming: Occurrence[]; exceptions: OccurrenceException[] };

/** How many next occurrences the detail lists. */
export const UPCOMING_COUNT = 10;

/**
 * The event, its next occurrences that will take place (none for a one-off or a cancelled series) and
 * every exception, in start order; null when the account has no such event.
 */
export async function eventDetail(
  accountId: string,
  eventId: string,
  timeZone: string,
  now: Date,
): Promise<EventDetail | null> {
  if (!isUuid(accountId) || !isUuid(eventId)) return null;
  const [event, exceptions] = await Promise.all([getEvent(accountId, eventId), exceptionsOfEvent(accountId, eventId)]);
  if (!event) return null;
  const removed = new Set(exceptions.map((exception) => exception.occursAt.getTime()));
  const upcoming =
    event.recurring && event.status !== "cancelled"
      ? occurrencesBetween({ ...event, timeZone, exceptions: removed }, now, new Date(LAST_INSTANT + 1), UPCOMING_COUNT)
      : [];
  return { event, upcoming, exceptions };
}

async function exceptionsOfEvent(accountId: string, eventId: string): Promise<OccurrenceException[]> {
  const { rows } = await db.pool.query<{ occurs_at: Date; kind: ExceptionKind; created_at: Date }>(
    `SELECT occurs_at, kind, created_at FROM event_exceptions
     WHERE account_id = $1::uuid AND event_id = $2::uuid ORDER BY occurs_at`,
    [accountId, eventId],
  );
  return rows.map((row) => ({ occursAt: row.occurs_at, kind: row.kind, removedAt: row.created_at }));
}

const zoneYear = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }).format(instant);

/** "Sat 5 Dec, 09:00" in the zone; with the year ("Sat 5 Dec 2027, 09:00") when it is not this year. */
export function occurrenceLabel(instant: Date, timeZone: string, now: Date): string {
  const label = formatShortDayTime(instant, timeZone);
  const year = zoneYear(instant, timeZone);
  return year === zoneYear(now, timeZone) ? label : label.replace(/, (\d{2}:\d{2})$/, ` ${year}, $1`);
}

export type OccurrenceErrorCode =
  "event_not_found" | "invalid_instant" | "not_a_series" | "not_an_occurrence" | "first_occurrence" | "not_removed";
export type OccurrenceChange =
  /** `kind`: what the occurrence is now (remove) or was (restore); `changed`: false when it already was. */
  | { ok: true; event: EventRecord; occurrence: string; kind: ExceptionKind; changed: boolean }
  | Failure<OccurrenceErrorCode>;

const refused = (code: OccurrenceErrorCode, message: string): OccurrenceChange => fail(code, message);
const NOT_FOUND = refused("event_not_found", "The event no longer exists.");

/** An occurrence's start as the page sent it (ISO 8601): a storable instant, or null. */
function instantOf(text: string): Date | null {
  const at = Date.parse(text);
  return Number.isFinite(at) && at >= MIN_INSTANT_MS && at <= MAX_INSTANT_MS ? new Date(at) : null;
}

/** One occurrence of the account's series, named by its start as the page sent it (ISO 8601), and who changes it. */
export type OccurrenceRequest = {
  accountId: string;
  eventId: string;
  occursAt: string;
  actorUserId: string | null;
  now?: Date;
};

type LockedSeries = { event: EventRecord; timeZone: string };

/** The event, locked for the rest of the transaction so an edit cannot move it between check and write. */
async function lockEvent(client: pg.PoolClient, accountId: string, eventId: string): Promise<LockedSeries | null> {
  const { rows } = await client.query<EventRow & { timezone: string }>(
    `SELECT ${EVENT_COLUMNS}, (SELECT timezone FROM accounts WHERE id = $2::uuid) AS timezone
     FROM events WHERE id = $1::uuid AND account_id = $2::uuid FOR UPDATE`,
    [eventId, accountId],
  );
  const row = rows[0];
  if (!row) return null;
  return { event: toEventRecord(row), timeZone: isKnownTimeZone(row.timezone) ? row.timezone : "UTC" };
}

/** Records the change in the audit log on the transaction's connection. */
async function audit(
  client: pg.PoolClient,
  { accountId, actorUserId }: OccurrenceRequest,
  action: AuditAction,
  found: LockedSeries,
  at: Date,
) {
  await recordAuditSql(client, {
    accountId,
    actorUserId,
    action,
    target: { type: "event", id: found.event.id, label: found.event.title },
    // The occurrence as the log shows it: with its year and zone, whenever the log is read.
    metadata: { occurs_at: at.toISOString(), occurrence: formatDateTime(at, found.timeZone) },
  });
}

/** The occurrence statements' parameters, by name (lib/platform/db/sql.ts): `at` is the occurrence's start. */
type OccurrenceParams = { account: string; event: string; at: string };
const p = placeholders<OccurrenceParams & { kind: string }>();

// A cancel after a delete keeps the occurrence deleted (the webhook's rule); only a change of kind, or a
// new exception, bumps the series and notifies. The event is
// reached by id alone once its account is checked: a generic plan joining it otherwise may scan the
// account's events.
const REMOVE_SQL = statement<OccurrenceParams & { kind: string }>(`WITH prior AS (
    SELECT kind FROM event_exceptions
    WHERE account_id = ${p.account}::uuid AND occurs_at = ${p.at}::timestamptz AND event_id = ${p.event}::uuid),
  excepted AS (
    INSERT INTO event_exceptions AS x (account_id, occurs_at, event_id, kind)
    SELECT ${p.account}::uuid, ${p.at}::timestamptz, ${p.event}::uuid, ${p.kind}::text
    WHERE EXISTS (SELECT 1 FROM events WHERE account_id = ${p.account}::uuid AND id = ${p.event}::uuid)
    ON CONFLICT (account_id, occurs_at, event_id)
      DO UPDATE SET kind = CASE WHEN x.kind = 'deleted' THEN 'deleted' ELSE EXCLUDED.kind END
    RETURNING event_id, kind),
  changed AS (
    SELECT event_id, kind FROM excepted
    WHERE NOT EXISTS (SELECT 1 FROM prior) OR (SELECT kind FROM prior) <> excepted.kind),
  touched AS (
    UPDATE events s SET updated_at = now() FROM changed c
    WHERE s.account_id = ${p.account}::uuid AND s.id = ${p.event}::uuid AND c.event_id = s.id
    RETURNING s.id, ${eventData("s", { removed: p.at })}),
  ${emitMessagesCte(
    "notified",
    `SELECT ${p.account}::uuid AS account_id, 'event.updated' AS type, touched.data
    FROM touched`,
  )}
  SELECT (SELECT kind FROM excepted) AS kind, (SELECT count(*) FROM touched)::int AS changed`);

const RESTORE_SQL = statement<OccurrenceParams>(`WITH unexcepted AS (
    DELETE FROM event_exceptions x
    WHERE x.account_id = ${p.account}::uuid AND x.event_id = ${p.event}::uuid AND x.occurs_at = ${p.at}::timestamptz
      AND EXISTS (SELECT 1 FROM events WHERE account_id = ${p.account}::uuid AND id = ${p.event}::uuid)
    RETURNING x.event_id, x.kind),
  restored AS (
    UPDATE events s SET updated_at = now() FROM unexcepted u
    WHERE s.account_id = ${p.account}::uuid AND s.id = ${p.event}::uuid AND u.event_id = s.id
    RETURNING s.id, u.kind, ${eventData("s", { restored: p.at })}),
  ${emitMessagesCte(
    "notified",
    `SELECT ${p.account}::uuid AS account_id, 'event.updated' AS type, restored.data
    FROM restored`,
  )}
  SELECT kind FROM restored`);

/**
 * Runs `work` in a transaction with the account's event locked and the instant read, or answers the
 * refusal both changes share (no such event, an unreadable instant).
 */
async function withLockedEvent(
  { accountId, eventId, occursAt }: OccurrenceRequest,
  work: (client: pg.PoolClient, found: LockedSeries, at: Date) => Promise<OccurrenceChange>,
): Promise<OccurrenceChange> {
  if (!isUuid(accountId) || !isUuid(eventId)) return NOT_FOUND;
  const at = instantOf(occursAt);
  return inTransaction(async (client) => {
    const found = await lockEvent(client, accountId, eventId);
    if (!found) return NOT_FOUND;
    if (!at) return refused("invalid_instant", "Choose an occurrence by its start time.");
    return work(client, found, at);
  });
}

/**
 * Removes one later occurrence of a series (cancelled or deleted, as the webhook's cancel or delete of
 * it would): refused for an instant that is not an occurrence, and for the first one, which is the series.
 */
export async function removeOccurrence(request: OccurrenceRequest, kind: ExceptionKind): Promise<OccurrenceChange> {
  const { accountId, eventId, now = new Date() } = request;
  return withLockedEvent(request, async (client, found, at) => {
    const { event, timeZone } = found;
    if (!event.recurring) {
      return refused("not_a_series", `“${event.title}” does not repeat: cancel or delete the event itself.`);
    }
    const label = occurrenceLabel(at, timeZone, now);
    const occurrence = occurrenceAt({ ...event, timeZone }, at);
    if (!occurrence) return refused("not_an_occurrence", `“${event.title}” has no occurrence starting ${label}.`);
    if (occurrence.first) {
      const series = "cancelling or deleting it acts on the whole series";
      const message = `${label} is the first occurrence of “${event.title}”: ${series}.`;
      return refused("first_occurrence", message);
    }
    const params = { account: accountId, event: eventId, at: at.toISOString(), kind };
    const { rows } = await client.query<{ kind: ExceptionKind; changed: number }>(
      REMOVE_SQL.text,
      REMOVE_SQL.values(params),
    );
    const changed = rows[0].changed > 0;
    const action = rows[0].kind === "deleted" ? "event.occurrence_deleted" : "event.occurrence_cancelled";
    if (changed) await audit(client, request, action, found, at);
    return { ok: true, event, occurrence: label, kind: rows[0].kind, changed };
  });
}

/** Restores a removed occurrence: deletes its exception (as the webhook's upsert of that occurrence does). */
export async function restoreOccurrence(request: OccurrenceRequest): Promise<OccurrenceChange> {
  const { accountId, eventId, now = new Date() } = request;
  return withLockedEvent(request, async (client, found, at) => {
    const label = occurrenceLabel(at, found.timeZone, now);
    const params = { account: accountId, event: eventId, at: at.toISOString() };
    const { rows } = await client.query<{ kind: ExceptionKind }>(RESTORE_SQL.text, RESTORE_SQL.values(params));
    if (!rows[0]) {
      return refused("not_removed", `The occurrence on ${label} is not removed; it may have been restored already.`);
    }
    await audit(client, request, "event.occurrence_restored", found, at);
    return { ok: true, event: found.event, occurrence: label, kind: rows[0].kind, changed: true };
  });
}
