/*
 * Dates are formatted on the server in the account's time zone and sent to the browser as text, so the
 * server render and hydration always agree (the browser's own zone would differ from the server's).
 */

/** English month names, January first (formats here, and the words the assistant reads and writes). */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions) {
  let format = map.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    map.set(timeZone, format);
  }
  return format;
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
};

/** "Mar 3, 2026, 14:05 UTC" */
export function formatDateTime(date: Date, timeZone = "UTC"): string {
  return cached(dateTimeFormats, timeZone, DATE_TIME).format(date);
}

/** "Mar 3, 2026" */
export function formatDate(date: Date, timeZone = "UTC"): string {
  return cached(dateFormats, timeZone, { year: "numeric", month: "short", day: "numeric" }).format(date);
}

/** "14:05 UTC" */
export function formatTime(date: Date, timeZone = "UTC"): string {
  return cached(timeFormats, timeZone, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(date);
}

/** Date and time as two parts, for compact two-line table cells. */
export function formatMoment(date: Date, timeZone = "UTC"): { date: string; time: string; full: string } {
  return { date: formatDate(date, timeZone), time: formatTime(date, timeZone), full: formatDateTime(date, timeZone) };
}

const shortDayTimes = new Map<string, Intl.DateTimeFormat>();

/** "Sat 5 Dec, 09:00" (en-GB order, 24-hour clock). */
export function formatShortDayTime(date: Date, timeZone = "UTC"): string {
  let format = shortDayTimes.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    shortDayTimes.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(date).map((each) => [each.type, each.value]));
  return `${part.weekday} ${part.day} ${part.month}, ${part.hour}:${part.minute}`;
}

const secondsFormats = new Map<string, Intl.DateTimeFormat>();
const longFormats = new Map<string, Intl.DateTimeFormat>();

/** "Mar 3, 2026, 14:05:09 UTC": for logs, whose entries follow each other within seconds. */
export function formatWithSeconds(date: Date, timeZone = "UTC"): string {
  return cached(secondsFormats, timeZone, { ...DATE_TIME, second: "2-digit" }).format(date);
}

/**
 * An instant in full, for a hover: the zone's long name and the UTC instant to the millisecond, e.g.
 * "Tuesday, March 3, 2026 at 15:05:09 Central European Standard Time · 2026-03-03T14:05:09.120Z".
 */
export function formatInstantInFull(date: Date, timeZone = "UTC"): string {
  const local = cached(longFormats, timeZone, {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "long",
  }).format(date);
  return `${local} · ${date.toISOString()}`;
}
