import "server-only";
import { stringify } from "csv-stringify/sync";
import { CSV_COLUMNS, escapeCsvCell } from "./csv-format";
import { formatWithOffset } from "./datetime";
import { listEvents, type ListEventsOptions } from "./list";
import type { EventRecord } from "./sql";

const PAGE_SIZE = 200;

/** Every cell is escaped against formula injection (see escapeCsvCell); the import undoes it. */
function csvRow(event: EventRecord): string[] {
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
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode("\uFEFF" + stringify([[...CSV_COLUMNS]], { record_delimiter: "\r\n" })));
        cursor = undefined;
      }
      const page = await listEvents(accountId, { ...options, cursor, limit: PAGE_SIZE });
      if (page.items.length) controller.enqueue(encoder.encode(stringify(page.items.map(csvRow), { record_delimiter: "\r\n" })));
      if (!page.nextCursor) controller.close();
      cursor = page.nextCursor;
    },
  });
}
