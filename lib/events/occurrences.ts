import { MONTH_NAMES } from "@/lib/platform/format/date-time";
import { utcDate, wallClockInstant, wallClockOf } from "@/lib/platform/format/zoned-time";
import type { Recurrence } from "./schema";

/*
 * The one definition of a recurring event's occurrences (docs/recurring-events.md). A series starts at
 * its `startsAt`; each occurrence lasts `endsAt - startsAt` (an exact duration, as RFC 5545 gives every
 * instance of a recurrence set) and keeps the first one's wall-clock time in the account's zone, across
 * DST changes. A monthly series started on the 29th–31st skips the months without that day, and a yearly
 * one started on 29 February occurs in leap years only (RFC 5545's FREQ=MONTHLY / FREQ=YEARLY).
 * Exceptions are occurrence starts removed from the series (cancelled or deleted one by one).
 *
 * Every function works out the periods it needs by arithmetic from the first one, so the work is bounded
 * by the range asked for (and the exceptions skipped), never by how long ago the series began.
 * No server imports: pages may use it too.
 */

export type Series = {
  startsAt: Date;
  endsAt: Date | null;
  recurring: Recurrence;
  /** The account's IANA zone: the wall clock the series keeps. */
  timeZone: string;
  /** Start instants (epoch ms) of the occurrences removed from the series. */
  exceptions?: ReadonlySet<number>;
};

export type Occurrence = { startsAt: Date; endsAt: Date | null };

const DAY_MS = 86_400_000;
/** Occurrences never go past the last instant the product stores (year 9999). */
export const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Longest run of periods without an occurrence: a yearly 29 February across a century (1896 → 1904). */
const LONGEST_GAP = 8;

type Wall = { year: number; month: number; day: number; time: number };

function wallOf(instant: Date, timeZone: string): Wall {
  const wall = wallClockOf(instant, timeZone);
  const date = new Date(wall);
  const midnight = utcDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate(), time: wall - midnight };
}

const daysInMonth = (year: number, month: number) => new Date(utcDate(year, month + 1, 0)).getUTCDate();

/**
 * A series' periods, numbered from 0 (the first occurrence): period `k`'s wall-clock start, or null when
 * the period has no occurrence (the 31st in a 30-day month, 29 February in a common year).
 */
function periodWall(first: Wall, recurring: Exclude<Recurrence, "">, k: number): number | null {
  switch (recurring) {
    case "daily":
    case "weekly": {
      const step = recurring === "daily" ? 1 : 7;
      return utcDate(first.year, first.month, first.day + k * step) + first.time;
    }
    case "monthly": {
      const months = first.month + k;
      const year = first.year + Math.floor(months / 12);
      const month = ((months % 12) + 12) % 12;
      return first.day > daysInMonth(year, month) ? null : utcDate(year, month, first.day) + first.time;
    }
    case "yearly": {
      const year = first.year + k;
      return first.day > daysInMonth(year, first.month) ? null : utcDate(year, first.month, first.day) + first.time;
    }
  }
}

/** The number of the period whose wall-clock day holds `wall` or, between occurrences, the one before it. */
function periodAtOrBefore(first: Wall, recurring: Exclude<Recurrence, "">, wall: number): number {
  const date = new Date(wall);
  const days = Math.floor(
    (utcDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) -
      utcDate(first.year, first.month, first.day)) /
      DAY_MS,
  );
  switch (recurring) {
    case "daily":
      return days;
    case "weekly":
      return Math.floor(days / 7);
    case "monthly":
      return (date.getUTCFullYear() - first.year) * 12 + date.getUTCMonth() - first.month;
    case "yearly":
      return date.getUTCFullYear() - first.year;
  }
}

/**
 * The occurrences in start order beginning with period `from`, exceptions left out (or kept, with
 * `withExceptions`), until `stop` says so or the last storable instant is passed.
 */
function* periodsFrom(
  series: Series,
  from: number,
  withExceptions = false,
): Generator<Occurrence & { period: number }> {
  const recurring = series.recurring;
  if (recurring === "") return;
  const first = wallOf(series.startsAt, series.timeZone);
  const duration = series.endsAt ? series.endsAt.getTime() - series.startsAt.getTime() : null;
  for (let k = Math.max(0, from); ; k++) {
    const wall = periodWall(first, recurring, k);
    if (wall === null) continue;
    // Period 0 is the stored start itself, whatever offset its writer used.
    const start = k === 0 ? series.startsAt.getTime() : wallClockInstant(wall, series.timeZone).getTime();
    if (start > LAST_INSTANT) return;
    if (!withExceptions && series.exceptions?.has(start)) continue;
    yield { period: k, startsAt: new Date(start), endsAt: duration === null ? null : new Date(start + duration) };
  }
}

/** The first period that could still be running at `instant`: one whose start is at most a duration before it. */
function firstPeriodNear(series: Series, instant: number): number {
  if (series.recurring === "") return 0;
  const duration = series.endsAt ? series.endsAt.getTime() - series.startsAt.getTime() : 0;
  const first = wallOf(series.startsAt, series.timeZone);
  // A day of margin covers any offset between the instant and the zone's wall clock.
  return (
    periodAtOrBefore(first, series.recurring, wallClockOf(new Date(instant - duration - DAY_MS), series.timeZone)) - 1
  );
}

/** Whether an occurrence has not ended at `instant`: it ends after it, or (with no end) starts at or after it. */
const notEndedAt = (occurrence: Occurrence, instant: number) =>
  occurrence.endsAt ? occurrence.endsAt.getTime() > instant : occurrence.startsAt.getTime() >= instant;

/**
 * The occurrences that have not ended at `from` and start before `to`, in start order, at most `limit`.
 * A one-off event is its own single occurrence.
 */
export function occurrencesBetween(series: Series, from: Date, to: Date, limit = 1_000): Occurrence[] {
  const found: Occurrence[] = [];
  if (series.recurring === "") {
    const single = { startsAt: series.startsAt, endsAt: series.endsAt };
    return notEndedAt(single, from.getTime()) && series.startsAt < to && limit > 0 ? [single] : [];
  }
  for (const occurrence of periodsFrom(series, firstPeriodNear(series, from.getTime()))) {
    if (found.length >= limit || occurrence.startsAt >= to) break;
    if (notEndedAt(occurrence, from.getTime()))
      found.push({ startsAt: occurrence.startsAt, endsAt: occurrence.endsAt });
  }
  return found;
}

/** The first occurrence that has not ended at `after` (it may be running), or null when none is left. */
export function nextOccurrence(series: Series, after: Date): Occurrence | null {
  return occurrencesBetween(series, after, new Date(LAST_INSTANT + 1), 1)[0] ?? null;
}

/**
 * Whether `instant` is the start of one of the series' occurrences (exceptions included: a removed
 * occurrence can be restored). Null when it is not; otherwise whether it is the first.
 */
export function occurrenceAt(series: Series, instant: Date): { first: boolean } | null {
  const at = instant.getTime();
  if (at === series.startsAt.getTime()) return { first: true };
  if (series.recurring === "" || at < series.startsAt.getTime() || at > LAST_INSTANT) return null;
  const start = Math.max(0, firstPeriodNear({ ...series, endsAt: null }, at));
  let seen = 0;
  for (const occurrence of periodsFrom(series, start, true)) {
    if (occurrence.startsAt.getTime() === at) return { first: occurrence.period === 0 };
    // Past the instant, or past the periods that could hold it: not an occurrence.
    if (occurrence.startsAt.getTime() > at || ++seen > LONGEST_GAP + 3) return null;
  }
  return null;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const ORDINAL = (day: number) => {
  const teen = day === 11 || day === 12 || day === 13;
  const suffix = teen ? "th" : day % 10 === 1 ? "st" : day % 10 === 2 ? "nd" : day % 10 === 3 ? "rd" : "th";
  return `${day}${suffix}`;
};

/** How a series repeats, in words and in its zone: "every Saturday, 09:00", "every day, 18:30", "every 31st, 20:00". */
export function describeRecurrence(series: Pick<Series, "startsAt" | "recurring" | "timeZone">): string {
  const first = wallOf(series.startsAt, series.timeZone);
  const minutes = Math.floor(first.time / 60_000);
  const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  switch (series.recurring) {
    case "daily":
      return `every day, ${time}`;
    case "weekly":
      return `every ${WEEKDAYS[new Date(utcDate(first.year, first.month, first.day)).getUTCDay()]}, ${time}`;
    case "monthly":
      return `every month on the ${ORDINAL(first.day)}, ${time}`;
    case "yearly":
      return `every year on ${first.day} ${MONTH_NAMES[first.month]}, ${time}`;
    case "":
      return "";
  }
}
