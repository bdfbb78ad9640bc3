import "server-only";
import { stringify } from "csv-stringify/sync";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { db } from "@/lib/platform/db/client";
import { formatExceptionsCell, type CsvException, type ExceptionKind } from "./csv-exceptions";
import { CSV_COLUMNS, escapeCsvCell } from "./csv-format";
import { formatWithOffset } from "./datetime";
import { listEvents, type ListEventsOptions } from "./list";
import { occurrenceAt } from "./occurrences";
import type { EventRecord } from "./sql";

const PAGE_SIZE = 200;

/**
 * The page's series' exceptions that are still later occurrences of their series as it is now (one left
 * from before `recurring` or `starts_at` changed means nothing, and the import would refuse it).
 */
async function exceptionsCells(
  accountId: string,
  events: EventRecord[],
  timeZone: string,
): Promise<Map<string, string>> {
  const series = events.filter((event) => event.recurring !== "");
  const cells = new Map<string, string>();
  if (series.length === 0) return cells;
  const { rows } = await db.replica.query<{ event_id: string; occurs_at: Date; kind: ExceptionKind }>(
    `SELECT event_id, occurs_at, kind FROM event_exceptions WHERE account_id = $1::uuid AND event_id = ANY($2::uuid[])`,
    [accountId, series.map((event) => event.id)],
  );
  const byEvent = new Map<string, CsvException[]>();
  for (const row of rows) {
    byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), { occursAt: row.occurs_at, kind: row.kind }]);
  }
  for (const event of series) {
    const isLaterOccurrence = (at: Date) => occurrenceAt({ ...event, timeZone }, at)?.first === false;
    const kept = (byEvent.get(event.id) ?? []).filter(({ occursAt }) => isLaterOccurrence(occursAt));
    if (kept.length) cells.set(event.id, formatExceptionsCell(kept, event.startsAtOffset, timeZone));
  }
  return cells;
}

/** The account's zone, in which a series' occurrences keep their wall-clock time. */
export async function accountTimeZone(accountId: string): Promise<string> {
  const sql = "SELECT timezone FROM accounts WHERE id = $1::uuid";
  const { rows } = await db.pool.query<{ timezone: string }>(sql, [accountId]);
  return safeTimeZone(rows[0]?.timezone);
}

/** Every cell is escaped against formula injection (see escapeCsvCell); the import undoes it. */
function csvRow(event: EventRecord, exceptions: string): string[] {
  const cells = [
    event.title,
    formatWithOffset(event.startsAt, event.startsAtOffset),
    event.endsAt ? formatWithOffset(event.endsAt, event.startsAtOffset) : "",
    event.description,
    event.location,
    event.url,
    event.price,
    event.recurring,
    event.status,
    exceptions,
  ];
  return cells.map(escapeCsvCell);
}

/**
 * The events matching the list filters as CSV in the import format (so an export can be edited and
 * imported again), streamed page by page over the same keyset paging as the table.
 */
export function exportEventsCsv(accountId: string, options: ListEventsOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | null | undefined;
  let timeZone: string | null = null;
  return new ReadableStream({
    async pull(controller) {
      if (timeZone === null) {
        timeZone = await accountTimeZone(accountId);
        controller.enqueue(encoder.encode("\uFEFF" + stringify([[...CSV_COLUMNS]], { record_delimiter: "\r\n" })));
        cursor = undefined;
      }
      const page = await listEvents(accountId, { ...options, cursor, limit: PAGE_SIZE });
      const exceptions = await exceptionsCells(accountId, page.items, timeZone);
      const rows = page.items.map((event) => csvRow(event, exceptions.get(event.id) ?? ""));
      if (rows.length) controller.enqueue(encoder.encode(stringify(rows, { record_delimiter: "\r\n" })));
      if (!page.nextCursor) controller.close();
      cursor = page.nextCursor;
    },
  });
}
