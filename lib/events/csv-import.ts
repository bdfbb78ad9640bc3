import "server-only";
import type pg from "pg";
import { PLANS } from "@/lib/accounts/plans";
import { withEventCountLocked } from "./count-lock";
import { parseExceptionsCell, type CsvException } from "./csv-exceptions";
import type { CsvImportSummary, CsvRowCheck } from "@/lib/csv-import/upload";
import { writeInBatches } from "@/lib/csv-import/write-batches";
import type { CsvRow } from "./csv-format";
import { parseEventFields, type EventInput } from "./schema";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { param, placeholders, sql, statement } from "@/lib/platform/db/sql";
import { eventFieldArrays, upsertEventBatchSql, upsertNotifications, type EventFields } from "./sql";

/*
 * The bulk initial import (no rate limit). Rows are validated with the webhook's own schema, then
 * written as upserts in batches: one INSERT … SELECT FROM unnest(…) ON CONFLICT per batch (the upsert
 * of sql.ts), so 10,000 rows cost 20 statements, not 10,000. Each batch locks the account row first,
 * as every writer that adds events does (accountRoomCte in sql.ts), so the plan's limit is exact even
 * while the webhook writes to the same account. The batch's statement also writes one outbound
 * notification per created or updated event (lib/outbound/sql.ts), committed with the batch.
 *
 * A file with an `exceptions` column replaces each row's exceptions (removed occurrences of a series)
 * with the cell's, in the batch's transaction; a file without it leaves them as they are
 * (docs/recurring-events.md, "CSV").
 */

/** The batch upsert: one array per event field (eventFieldArrays), for one account. */
const UPSERT_BATCH = statement<Record<keyof EventFields, unknown[]> & { account: string }>(
  `WITH ev AS (${upsertEventBatchSql()}), ${emitMessagesCte("notified", upsertNotifications("ev"))}
   SELECT id, created FROM ev`,
);

/**
 * Series whose fields were as sent but whose exceptions the file changed: updated all the same
 * (updated_at, event.updated), in a statement after the exceptions' so the notification's
 * next_occurrence_at sees them.
 */
type TouchParams = { account: string; ids: string[] };
const t = placeholders<TouchParams>();
const TOUCH_SERIES = statement<TouchParams>(
  `WITH touched AS (
     UPDATE events e SET updated_at = now()
     WHERE e.account_id = ${t.account}::uuid AND e.id = ANY(${t.ids}::uuid[])
     RETURNING ${eventData("e")}),
   ${emitMessagesCte(
     "notified",
     `SELECT ${t.account}::uuid AS account_id, 'event.updated' AS type, touched.data FROM touched`,
   )}
   SELECT count(*)::int AS touched FROM touched`,
);

/** `exceptions` is undefined when the file has no such column: the series keeps the exceptions it has. */
export type ValidRow = { line: number; input: EventInput; exceptions?: CsvException[] };
export type ImportSummary = CsvImportSummary;

const REQUIRED = new Set(["title", "starts_at"]);

/** Empty optional cells mean "not given", exactly as an omitted JSON field does. */
function wireFields(row: CsvRow): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row.values).filter(([key, value]) => key !== "exceptions" && (value !== "" || REQUIRED.has(key))),
  ) as Record<string, string>;
}

/**
 * One row through the shared event schema: the event, or its problems by field. `timeZone` is the
 * account's, in which the row's exceptions must be occurrences of its series (lib/events/occurrences.ts).
 */
export function validateCsvRow(row: CsvRow, timeZone = "UTC"): CsvRowCheck<ValidRow> {
  const result = parseEventFields(wireFields(row));
  if (!result.ok) {
    const problems = result.details.map((detail) => ({ line: row.line, field: detail.field, message: detail.message }));
    return { ok: false, problems };
  }
  const input = result.value;
  const cell = row.values.exceptions;
  if (cell === undefined) return { ok: true, row: { line: row.line, input } };
  const exceptions = parseExceptionsCell(cell, { ...input, timeZone });
  if (!exceptions.ok) {
    return { ok: false, problems: [{ line: row.line, field: "exceptions", message: exceptions.message }] };
  }
  return { ok: true, row: { line: row.line, input, exceptions: exceptions.value } };
}

const identityKey = (input: EventInput) => `${input.title}\u0000${input.startsAt.toISOString()}\u0000${input.location}`;

/** A later row for the same event replaces an earlier one, as a later upsert would. */
function lastOccurrences(rows: ValidRow[]): ValidRow[] {
  const byIdentity = new Map<string, ValidRow>();
  for (const row of rows) {
    const key = identityKey(row.input);
    byIdentity.delete(key);
    byIdentity.set(key, row);
  }
  return [...byIdentity.values()];
}

type Queryable = Pick<pg.PoolClient, "query">;

/** Writes the rows, one transaction per batch on one pool connection. */
export function importEvents(accountId: string, rows: ValidRow[]): Promise<ImportSummary> {
  return writeInBatches(rows, lastOccurrences, (client, batch, summary) =>
    importBatch(client, accountId, batch, summary),
  );
}

async function importBatch(
  client: Queryable,
  accountId: string,
  rows: ValidRow[],
  summary: ImportSummary,
): Promise<void> {
  await withEventCountLocked(client, accountId, async (plan, count) => {
    const room = Math.max(PLANS[plan].maxEvents - count, 0);
    let batch = rows;
    // Only when the batch could exceed the room does it matter which rows are new.
    if (batch.length > room) {
      // Keep updates of existing events and only as many new events as fit; report the rest.
      const existingKeys = await existingIdentities(client, accountId, batch);
      let allowedNew = room;
      batch = batch.filter((row) => {
        if (existingKeys.has(identityKey(row.input)) || allowedNew-- > 0) return true;
        summary.failed++;
        summary.problems.push({
          line: row.line,
          message:
            `Not imported: the ${PLANS[plan].label} plan's limit of ` +
            `${PLANS[plan].maxEvents.toLocaleString("en-US")} events is reached.`,
        });
        return false;
      });
    }
    if (batch.length) {
      const result = await client.query<{ id: string; created: boolean }>(
        UPSERT_BATCH.text,
        UPSERT_BATCH.values({ account: accountId, ...eventFieldArrays(batch.map((row) => row.input)) }),
      );
      const written = new Set(result.rows.map((row) => row.id));
      const created = result.rows.filter((row) => row.created).length;
      const excepted = (await replaceExceptions(client, accountId, batch)).filter((id) => !written.has(id));
      let touched = 0;
      if (excepted.length) {
        const { rows } = await client.query<{ touched: number }>(
          TOUCH_SERIES.text,
          TOUCH_SERIES.values({ account: accountId, ids: excepted }),
        );
        touched = rows[0].touched;
      }
      summary.created += created;
      summary.updated += result.rows.length - created + touched;
      summary.unchanged += batch.length - result.rows.length - touched;
    }
  });
}

async function existingIdentities(client: Queryable, accountId: string, batch: ValidRow[]): Promise<Set<string>> {
  const { title, starts_at, location } = eventFieldArrays(batch.map((row) => row.input));
  const query = sql`SELECT e.title, e.starts_at, e.location FROM events e
     JOIN unnest(${title}::text[], ${starts_at}::timestamptz[], ${location}::text[]) AS u(title, starts_at, location)
       ON e.title = u.title AND e.starts_at = u.starts_at AND e.location = u.location
     WHERE e.account_id = ${accountId}::uuid`;
  const result = await client.query<{ title: string; starts_at: Date; location: string }>(query.text, query.values);
  return new Set(result.rows.map((row) => `${row.title}\u0000${row.starts_at.toISOString()}\u0000${row.location}`));
}

/**
 * Makes each written row's exceptions exactly its `exceptions` (rows without the column are left out):
 * one statement per batch, which returns the ids of the events whose exceptions it changed. The rows it
 * removes and the rows it adds or changes are disjoint, so the DELETE and the INSERT … ON CONFLICT never
 * touch the same row.
 */
async function replaceExceptions(client: Queryable, accountId: string, batch: ValidRow[]): Promise<string[]> {
  const replaced = batch.filter((row) => row.exceptions !== undefined);
  if (replaced.length === 0) return [];
  const { title, starts_at, location } = eventFieldArrays(replaced.map((row) => row.input));
  const account = param(accountId, "uuid");
  const rowIndexes: number[] = [];
  const instants: string[] = [];
  const kinds: string[] = [];
  replaced.forEach((row, index) => {
    for (const exception of row.exceptions ?? []) {
      rowIndexes.push(index + 1);
      instants.push(exception.occursAt.toISOString());
      kinds.push(exception.kind);
    }
  });
  const query = sql`WITH target AS (
       SELECT e.id, u.ord
       FROM unnest(${title}::text[], ${starts_at}::timestamptz[], ${location}::text[])
         WITH ORDINALITY AS u(title, starts_at, location, ord)
       JOIN events e ON e.account_id = ${account} AND e.title = u.title AND e.starts_at = u.starts_at
         AND e.location = u.location),
     wanted AS (
       SELECT t.id AS event_id, w.occurs_at, w.kind
       FROM unnest(${rowIndexes}::int[], ${instants}::timestamptz[], ${kinds}::text[]) AS w(ord, occurs_at, kind)
       JOIN target t ON t.ord = w.ord),
     removed AS (
       DELETE FROM event_exceptions x USING target t
       WHERE x.account_id = ${account} AND x.event_id = t.id
         AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.event_id = x.event_id AND w.occurs_at = x.occurs_at)
       RETURNING x.event_id),
     added AS (
       INSERT INTO event_exceptions AS x (account_id, occurs_at, event_id, kind)
       SELECT ${account}, occurs_at, event_id, kind FROM wanted
       ON CONFLICT (account_id, occurs_at, event_id) DO UPDATE SET kind = EXCLUDED.kind WHERE x.kind <> EXCLUDED.kind
       RETURNING x.event_id)
     SELECT event_id AS id FROM removed UNION SELECT event_id FROM added`;
  return (await client.query<{ id: string }>(query.text, query.values)).rows.map((row) => row.id);
}
