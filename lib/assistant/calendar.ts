import { MONTH_NAMES } from "@/lib/platform/format/date-time";
import { toZonedInputValue, zonedInputToIso } from "@/lib/platform/format/zoned-time";

/*
 * Calendar days as integers (days since 1970-01-01), so "next Monday" or "the 1st of next month" is
 * plain arithmetic that no DST change can disturb. Only the edges of a range become instants, through
 * the zone's own offset at that wall-clock time (lib/platform/format/zoned-time.ts).
 */

export type DayNumber = number;

const DAY_MS = 86_400_000;

const WEEKDAY_SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

export const dayOf = (year: number, month: number, day: number): DayNumber => Date.UTC(year, month - 1, day) / DAY_MS;

export function partsOf(day: DayNumber): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Monday = 0 … Sunday = 6. */
export const weekdayOf = (day: DayNumber): number => (new Date(day * DAY_MS).getUTCDay() + 6) % 7;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The first day of the month `offset` months after the one `day` is in. */
export function monthStart(day: DayNumber, offset = 0): DayNumber {
  const { year, month } = partsOf(day);
  return dayOf(year, month + offset, 1);
}

/** The calendar day it is at `now` in the zone. */
export function localToday(now: Date, timeZone: string): DayNumber {
  const [year, month, day] = toZonedInputValue(now, timeZone).slice(0, 10).split("-").map(Number);
  return dayOf(year, month, day);
}

/** The instant of `hour`:00 on `day` in the zone (a wall time skipped by DST resolves to the later offset). */
export function localInstant(day: DayNumber, timeZone: string, hour = 0): Date {
  const { year, month, day: date } = partsOf(day);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const iso = zonedInputToIso(`${pad(year, 4)}-${pad(month)}-${pad(date)}T${pad(hour)}:00`, timeZone);
  if (!iso) throw new RangeError(`no such local time: ${year}-${month}-${date}`);
  return new Date(iso);
}

/** "Sat 14 June", with the year when it is not `currentYear`. */
export function formatDay(day: DayNumber, currentYear: number): string {
  const { year, month, day: date } = partsOf(day);
  const text = `${WEEKDAY_SHORT[weekdayOf(day)]} ${date} ${MONTH_NAMES[month - 1]}`;
  return year === currentYear ? text : `${text} ${year}`;
}

/** "Sat 14 – Sun 15 June", "Mon 30 June – Sun 6 July"; `last` is inclusive. */
export function formatDays(first: DayNumber, last: DayNumber, currentYear: number): string {
  if (first === last) return formatDay(first, currentYear);
  const a = partsOf(first);
  const b = partsOf(last);
  if (a.year === b.year && a.month === b.month) {
    return `${WEEKDAY_SHORT[weekdayOf(first)]} ${a.day} – ${formatDay(last, currentYear)}`;
  }
  const firstText =
    a.year === b.year
      ? `${WEEKDAY_SHORT[weekdayOf(first)]} ${a.day} ${MONTH_NAMES[a.month - 1]}`
      : formatDay(first, currentYear);
  return `${firstText} – ${formatDay(last, currentYear)}`;
}
