import { formatOffset, zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";
import { formatWithOffset, parseDateTime } from "./datetime";
import { describeRecurrence, occurrenceAt, occurrencesBetween, type Series } from "./occurrences";

/*
 * The `exceptions` column of the events CSV (docs/recurring-events.md, "CSV"): the occurrences removed
 * from a series, each as its kind and its start, separated by semicolons:
 *
 *   cancelled 2026-12-05T09:00:00+01:00; deleted 2026-12-12T09:00:00+01:00
 *
 * A kind word before each instant reads as a sentence in a spreadsheet, and the cell never starts with a
 * formula character. Every instant carries its offset, so the cell means the same in any zone; the
 * export writes each one with the offset its occurrence has in the account's zone (the wall-clock time
 * the dashboard shows), or in UTC when the event's start was written in UTC. No server imports.
 */

export const EXCEPTION_KINDS = ["cancelled", "deleted"] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];
export type CsvException = { occursAt: Date; kind: ExceptionKind };

/** At most this many exceptions per row. */
export const MAX_CSV_EXCEPTIONS = 500;
/** A cell of 500 exceptions with milliseconds and spaces fits; anything longer is refused before it is split. */
export const MAX_EXCEPTIONS_CELL = 25_000;

const ITEM = /^(\S+)\s+(\S+)$/;

/**
 * How far an exception written in another zone's offset may lie from the occurrence it means: the same
 * series kept in two zones drifts apart by their daylight-saving differences (an hour, at most two),
 * while occurrences are a day or more apart.
 */
const OTHER_ZONE_DRIFT_MS = 2 * 3_600_000;

/** A row's series, with the offset its start was written in when known (an import's row). */
type RowSeries = Omit<Series, "exceptions"> & { startsAtOffset?: string };

/** An offset as parseDateTime keeps it ("Z", "+01:00", "-04:00"), in minutes. */
function offsetMinutes(offset: string): number {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** Whether `offset` is not the one the series' zone has at `instant` ("+00:00" is "Z"): written for another zone. */
const otherZone = (series: RowSeries, instant: Date, offset: string) =>
  offsetMinutes(offset) !== zoneOffsetMinutes(instant, series.timeZone);

/**
 * The occurrence an exception names: the instant itself, or, in a row written for another zone (its start
 * and the exception both in offsets the account's zone does not have then: a file exported from an account
 * in another zone), the occurrence nearest to it within OTHER_ZONE_DRIFT_MS. Null when there is none.
 */
function namedOccurrence(series: RowSeries, instant: Date, offset: string): { at: Date; first: boolean } | null {
  const exact = occurrenceAt(series, instant);
  if (exact) return { at: instant, ...exact };
  const { startsAtOffset } = series;
  if (startsAtOffset === undefined || !otherZone(series, series.startsAt, startsAtOffset)) return null;
  if (!otherZone(series, instant, offset)) return null;
  const near = occurrencesBetween(
    { ...series, exceptions: new Set<number>() },
    new Date(instant.getTime() - OTHER_ZONE_DRIFT_MS - 86_400_000),
    new Date(instant.getTime() + OTHER_ZONE_DRIFT_MS + 1),
  )
    .map((occurrence) => occurrence.startsAt)
    .filter((start) => Math.abs(start.getTime() - instant.getTime()) <= OTHER_ZONE_DRIFT_MS)
    .sort((a, b) => Math.abs(a.getTime() - instant.getTime()) - Math.abs(b.getTime() - instant.getTime()));
  if (near.length === 0) return null;
  return { at: near[0], first: near[0].getTime() === series.startsAt.getTime() };
}

/** A value as quoted in a message: never the whole of a long cell. */
const quoted = (value: string) => `"${value.length > 60 ? `${value.slice(0, 57)}…` : value}"`;

/** The cell for a series' exceptions, in start order. `startsAtOffset` is the offset its start was written with. */
export function formatExceptionsCell(
  exceptions: readonly CsvException[],
  startsAtOffset: string,
  timeZone: string,
): string {
  return [...exceptions]
    .sort((a, b) => a.occursAt.getTime() - b.occursAt.getTime())
    .map(({ occursAt, kind }) => {
      const offset = startsAtOffset === "Z" ? "Z" : formatOffset(zoneOffsetMinutes(occursAt, timeZone));
      return `${kind} ${formatWithOffset(occursAt, offset)}`;
    })
    .join("; ");
}

export type ExceptionsResult = { ok: true; value: CsvException[] } | { ok: false; message: string };

/**
 * Reads a row's `exceptions` cell against the row's own series (the account's zone in `series`). Empty
 * means none. Each entry must be an occurrence of the series other than the first, listed once; in a row
 * written for another zone, the occurrence nearest to it (namedOccurrence).
 */
export function parseExceptionsCell(cell: string, series: RowSeries): ExceptionsResult {
  const text = cell.trim();
  if (text === "") return { ok: true, value: [] };
  if (series.recurring === "") {
    return { ok: false, message: "Only a recurring event has exceptions: set recurring, or leave exceptions empty." };
  }
  if (text.length > MAX_EXCEPTIONS_CELL) {
    return { ok: false, message: `Use at most ${MAX_EXCEPTIONS_CELL.toLocaleString("en-US")} characters.` };
  }
  const items = text
    .split(";")
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length > MAX_CSV_EXCEPTIONS) {
    const found = items.length.toLocaleString("en-US");
    return { ok: false, message: `List at most ${MAX_CSV_EXCEPTIONS} exceptions (found ${found}).` };
  }
  const value: CsvException[] = [];
  const seen = new Set<number>();
  for (const item of items) {
    const match = ITEM.exec(item);
    if (!match) {
      const how = 'write each exception as "cancelled <start>" or "deleted <start>", separated by ";"';
      return { ok: false, message: `${quoted(item)}: ${how}.` };
    }
    const [, kind, when] = match;
    if (!(EXCEPTION_KINDS as readonly string[]).includes(kind)) {
      return { ok: false, message: `${quoted(item)}: the kind must be cancelled or deleted (lower case).` };
    }
    const parsed = parseDateTime(when);
    if (!parsed.ok) return { ok: false, message: `${quoted(item)}: ${parsed.message}` };
    const occurrence = namedOccurrence(series, parsed.value.instant, parsed.value.offset);
    if (occurrence === null) {
      const how = `${describeRecurrence(series)} in ${series.timeZone}`;
      return { ok: false, message: `${quoted(when)} is not an occurrence of this series (${how}).` };
    }
    if (occurrence.first) {
      const instead = "set status to cancelled, or delete the event";
      return { ok: false, message: `${quoted(when)} is the series' first occurrence: ${instead}.` };
    }
    const occursAt = occurrence.at;
    if (seen.has(occursAt.getTime())) return { ok: false, message: `${quoted(when)} is listed twice.` };
    seen.add(occursAt.getTime());
    value.push({ occursAt, kind: kind as ExceptionKind });
  }
  return { ok: true, value };
}
