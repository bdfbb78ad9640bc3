/*
 * The dashboard's date-time inputs (<input type="datetime-local">) hold wall-clock time in the account's
 * time zone; events are stored as instants with the offset the writer used. These convert between the
 * two without a date library: Intl knows every zone's offset at any instant.
 */

import { zonedFormat } from "./intl-format";

const PARTS: Intl.DateTimeFormatOptions = {
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
};

const zoneParts = (timeZone: string) => zonedFormat("en-US", PARTS, timeZone);

/** Whether Intl knows the zone; a known one's format is kept, so asking again costs a Map lookup. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    zoneParts(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** An IANA zone Intl accepts, or UTC: a bad account setting must not break a reply, an export or an import. */
export function safeTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isKnownTimeZone(timeZone) ? timeZone : "UTC";
}

/** Midnight UTC of a date, in ms; unlike Date.UTC, years 0–99 are those years, not 1900–1999. */
export function utcDate(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

/** The offset Intl reports at an instant, in minutes: one formatToParts call (a few microseconds). */
function intlOffsetMinutes(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    zoneParts(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const time = ((Number(parts.hour) * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000;
  const wall = utcDate(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) + time;
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

/*
 * Offsets change a few times a year at most, and recurring events ask for thousands of them, so each
 * zone's changes are found once per UTC year (a sample every week, then a binary search to the second
 * between samples that differ) and looked up after that. Two changes within one week would be missed;
 * no zone has had them. Only the years around now get a table: an instant far away costs one Intl call,
 * so input spread over many centuries (a hostile CSV) cannot make every lookup build a year's table.
 */
type YearOffsets = { first: number; changes: Array<[at: number, offset: number]> };
const yearOffsets = new Map<string, Map<number, YearOffsets>>();
const WEEK_MS = 7 * 86_400_000;
const MAX_CACHED_YEARS = 512;
const TABLE_YEARS = { first: 1900, last: 2200 };

function offsetsOfYear(timeZone: string, year: number): YearOffsets {
  let years = yearOffsets.get(timeZone);
  if (!years) yearOffsets.set(timeZone, (years = new Map()));
  let found = years.get(year);
  if (found) return found;
  const start = utcDate(year, 0, 1);
  const end = utcDate(year + 1, 0, 1);
  found = { first: intlOffsetMinutes(start, timeZone), changes: [] };
  let at = start;
  let offset = found.first;
  while (at < end) {
    const next = Math.min(at + WEEK_MS, end);
    const nextOffset = intlOffsetMinutes(next, timeZone);
    if (nextOffset !== offset) {
      // The first second at which the offset is no longer `offset`.
      let low = at;
      let high = next;
      while (high - low > 1000) {
        const middle = low + Math.floor((high - low) / 2000) * 1000;
        if (intlOffsetMinutes(middle, timeZone) === offset) low = middle;
        else high = middle;
      }
      found.changes.push([high, intlOffsetMinutes(high, timeZone)]);
    }
    at = next;
    offset = nextOffset;
  }
  if (years.size >= MAX_CACHED_YEARS) years.clear();
  years.set(year, found);
  return found;
}

/** The zone's offset from UTC at an instant, in minutes (Berlin in summer: +120). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const time = Math.floor(instant.getTime() / 1000) * 1000;
  const year = new Date(time).getUTCFullYear();
  if (!(year >= TABLE_YEARS.first && year <= TABLE_YEARS.last)) return intlOffsetMinutes(time, timeZone);
  const { first, changes } = offsetsOfYear(timeZone, year);
  let offset = first;
  for (const [at, after] of changes) {
    if (time < at) break;
    offset = after;
  }
  return offset;
}

const pad = (value: number) => String(value).padStart(2, "0");

export function formatOffset(minutes: number): string {
  if (minutes === 0) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const absolute = Math.abs(minutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** "2026-05-01T10:00" for a datetime-local input showing the instant in the zone. */
export function toZonedInputValue(instant: Date, timeZone: string): string {
  const local = new Date(instant.getTime() + zoneOffsetMinutes(instant, timeZone) * 60_000);
  return local.toISOString().slice(0, 16);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * "2026-05-01T10:00" in Europe/Berlin → "2026-05-01T10:00:00+02:00". Null when the text is not a
 * datetime-local value. A wall time skipped by a DST change resolves to the later offset.
 */
export function zonedInputToIso(value: string, timeZone: string): string | null {
  const match = LOCAL.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const asUtc =
    utcDate(Number(y), Number(mo) - 1, Number(d)) + ((Number(h) * 60 + Number(mi)) * 60 + Number(s ?? 0)) * 1000;
  let offset = zoneOffsetMinutes(new Date(asUtc), timeZone);
  const corrected = zoneOffsetMinutes(new Date(asUtc - offset * 60_000), timeZone);
  if (corrected !== offset) offset = corrected;
  const instant = new Date(asUtc - offset * 60_000);
  const wall = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${wall}${formatOffset(offset)}`;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The wall-clock time an instant shows in the zone, as milliseconds since 1970-01-01T00:00 of that clock. */
export function wallClockOf(instant: Date, timeZone: string): number {
  return instant.getTime() + zoneOffsetMinutes(instant, timeZone) * MINUTE_MS;
}

/**
 * The instant a wall-clock time names in the zone, as RFC 5545 (3.3.5) resolves the two DST edge cases:
 * a time that occurs twice (clocks set back) is its first occurrence; a time skipped (clocks set forward)
 * is read with the offset in force before the gap, so 02:30 on a spring-forward night becomes 03:30.
 * Every real zone changes its offset at most once within a day, so the offsets a day either side are
 * the only candidates.
 */
export function wallClockInstant(wall: number, timeZone: string): Date {
  const before = zoneOffsetMinutes(new Date(wall - DAY_MS), timeZone) * MINUTE_MS;
  const after = zoneOffsetMinutes(new Date(wall + DAY_MS), timeZone) * MINUTE_MS;
  // No change around it (nearly always): both candidates are the same instant, and so is the fallback.
  if (before === after) return new Date(wall - before);
  const candidates = [wall - before, wall - after].filter(
    (instant) => wallClockOf(new Date(instant), timeZone) === wall,
  );
  if (candidates.length === 0) return new Date(wall - before);
  return new Date(Math.min(...candidates));
}
