import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { occurrenceAt } from "@/lib/events/occurrences";
import { RECURRENCES, type Recurrence } from "@/lib/events/schema";
import { identityMatch, type EventParams } from "@/lib/events/sql";
import { emitMessagesCte } from "@/lib/outbound/sql";
import { placeholders, statement, type Statement } from "@/lib/platform/db/sql";
import { actionStatement, ingestParams as p, occurrenceData, type ActionParams } from "./ingest-sql";

const isRecurrence = (value: string | null): value is Exclude<Recurrence, ""> =>
  value !== null && value !== "" && (RECURRENCES as readonly string[]).includes(value);

/*
 * Cancel and delete of one later occurrence of a recurring series (docs/recurring-events.md): the request
 * names an instant that is not an event's start but an occurrence of a series with the same title and
 * location. The handler finds the series (FIND_SERIES_SQL) and asks lib/events/occurrences.ts whether the
 * instant is one of its occurrences; only then does one of these statements record the exception, with
 * the same checks, replay record and delivery log as every action (ingest-sql.ts). The series itself
 * stays as it is, but for updated_at; subscribers get event.updated with the series and the occurrence
 * (docs/outbound-webhooks.md, "Payload").
 *
 * Parameters as the cancel and delete statements, plus `series`, the series' id. `series` checks that it is
 * the account's; the later steps reach it by id alone, so no plan can scan the account's events instead.
 */

export type FindSeriesParams = Pick<EventParams, "account" | "title" | "starts_at" | "location">;
const f = placeholders<FindSeriesParams>();

/**
 * The recurring series an instant may be a later occurrence of: same title and location, started
 * earlier; with the account's zone, and whether an event has exactly this identity (it wins).
 */
export const FIND_SERIES_SQL =
  statement<FindSeriesParams>(`SELECT a.timezone, e.id, e.starts_at, e.ends_at, e.recurring,
    EXISTS (SELECT 1 FROM events i WHERE ${identityMatch("i")}) AS exact
  FROM accounts a LEFT JOIN events e
    ON e.account_id = a.id AND e.title = ${f.title}::text AND e.location = ${f.location}::text AND e.recurring <> ''
      AND e.starts_at < ${f.starts_at}::timestamptz
  WHERE a.id = ${f.account}::uuid`);

/*
 * Whether this request changed anything is decided by the write itself, not by a read before it: under
 * concurrency a twin request may commit the same exception after this statement's snapshot was taken,
 * and ON CONFLICT then sees the twin's row. The INSERT returns a row only when it created the exception
 * or upgraded a cancelled occurrence to deleted (a delete wins; a cancel never downgrades it), so of two
 * identical racing cancels exactly one bumps updated_at and notifies. The answer is the series itself,
 * so a repeat that changed nothing is still a 200, naming what the occurrence is (occurrence_status).
 */
function occurrenceStatement(kind: "cancelled" | "deleted") {
  return actionStatement(
    occurrenceCtes(
      `changed AS (
    INSERT INTO event_exceptions AS x (account_id, occurs_at, event_id, kind)
    SELECT ${p.account}::uuid, ${p.starts_at}::timestamptz, series.id, '${kind}' FROM series
    ON CONFLICT (account_id, occurs_at, event_id) DO UPDATE SET kind = 'deleted' WHERE x.kind = 'cancelled'
      AND EXCLUDED.kind = 'deleted'
    RETURNING event_id, kind)`,
      "c.kind",
      "p_removed",
    ),
    "event_not_found",
    `${p.starts_at}::timestamptz`,
    // What the occurrence is now: this write's kind, else the kept one (a cancel never undoes a delete).
    `, COALESCE((SELECT kind FROM changed),
      (SELECT kind FROM event_exceptions
        WHERE account_id = ${p.account}::uuid AND occurs_at = ${p.starts_at}::timestamptz
          AND event_id = ${p.series}::uuid),
      '${kind}') AS occurrence_status`,
  );
}

/**
 * The series the request names (checked against its title and location), `change` (a CTE `changed` that
 * writes the occurrence's exception and returns event_id), then for a change made: the series'
 * updated_at and event.updated naming the occurrence and what it now is (`status`, over `changed c`).
 */
function occurrenceCtes(change: string, status: string, which: "p_removed" | "p_restored"): string {
  return `series AS (
    SELECT s.id, s.status::text AS status FROM events s
    WHERE s.id = ${p.series}::uuid AND s.account_id = ${p.account}::uuid AND s.title = ${p.title}::text
      AND s.location = ${p.location}::text AND EXISTS (SELECT 1 FROM allowed)),
  ${change},
  touched AS (
    UPDATE events s SET updated_at = now() FROM changed c
    WHERE s.account_id = ${p.account}::uuid AND s.id = ${p.series}::uuid AND c.event_id = s.id
    RETURNING s.id, ${occurrenceData("s", status, which)}),
  ev AS (SELECT id, status, false AS created FROM series),
  ${emitMessagesCte(
    "notified",
    `SELECT ${p.account}::uuid AS account_id, 'event.updated' AS type, touched.data
    FROM touched`,
  )}`;
}

export const CANCEL_OCCURRENCE_SQL = occurrenceStatement("cancelled");
export const DELETE_OCCURRENCE_SQL = occurrenceStatement("deleted");

/*
 * An upsert of a later occurrence of a series (status upcoming; one whose status is cancelled cancels it,
 * CANCEL_OCCURRENCE_SQL): the occurrence takes place. A removed one is restored (its exception deleted,
 * event.updated as UPSERT_SQL's inline restore sends it); one that was never removed is left as it is, and
 * the answer is the series all the same. Occurrences have no fields of their own: the upsert's other
 * fields change nothing (the series' first occurrence carries them).
 */
export const UPSERT_OCCURRENCE_SQL = actionStatement(
  occurrenceCtes(
    `changed AS (
    DELETE FROM event_exceptions x USING series
    WHERE x.account_id = ${p.account}::uuid AND x.occurs_at = ${p.starts_at}::timestamptz AND x.event_id = series.id
    RETURNING x.event_id)`,
    "'upcoming'",
    "p_restored",
  ),
  "event_not_found",
  `${p.starts_at}::timestamptz`,
  ", 'upcoming' AS occurrence_status",
);

export type SeriesCandidate = {
  timezone: string;
  id: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
  recurring: string | null;
  exact: boolean;
};

/** The series whose later occurrence starts at `instant`, or null (an exact event, or no such series). */
export function seriesWithOccurrence(rows: SeriesCandidate[], instant: Date): string | null {
  for (const row of rows) {
    if (row.exact) return null;
    if (!row.id || !row.starts_at || !isRecurrence(row.recurring)) continue;
    const series = {
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      recurring: row.recurring,
      timeZone: safeTimeZone(row.timezone),
    };
    if (occurrenceAt(series, instant)?.first === false) return row.id;
  }
  return null;
}

/** The statement that applies an action, named for preparing; for an occurrence, the series and occurrence. */
export type ActionPlan = {
  name: string;
  statement: Statement<ActionParams>;
  series?: string;
  occurrence?: { starts_at: string; status: string };
};

/**
 * The plan for an action that names a later occurrence of a series (`rows`: FIND_SERIES_SQL's), or null
 * when it names none: a cancel or delete acts on that occurrence alone; an upsert restores it, or cancels
 * it when its status is cancelled (UPSERT_OCCURRENCE_SQL).
 */
export function occurrencePlan(
  rows: SeriesCandidate[],
  action: "upsert" | "cancel" | "delete",
  instant: Date,
  status: string,
): ActionPlan | null {
  const series = seriesWithOccurrence(rows, instant);
  if (!series) return null;
  const starts_at = instant.toISOString();
  if (action === "upsert" && status !== "cancelled")
    return {
      name: "webhook-upsert-occurrence",
      statement: UPSERT_OCCURRENCE_SQL,
      series,
      occurrence: { starts_at, status: "upcoming" },
    };
  // Named by the statement, not the action: one name, one text.
  const cancel = action !== "delete";
  return {
    name: cancel ? "webhook-cancel-occurrence" : "webhook-delete-occurrence",
    statement: cancel ? CANCEL_OCCURRENCE_SQL : DELETE_OCCURRENCE_SQL,
    series,
    occurrence: { starts_at, status: cancel ? "cancelled" : "deleted" },
  };
}
