/*
 * Dates are formatted on the server in the account's time zone and sent to the browser as text, so the
 * server render and hydration always agree (the browser's own zone would differ from the server's).
 */

import { zonedFormat } from "./intl-format";

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

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
};

const DATE: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric" };
const TIME: Intl.DateTimeFormatOptions = {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
};
const SHORT_DAY_TIME: Intl.DateTimeFormatOptions = {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};
const WITH_SECONDS: Intl.DateTimeFormatOptions = { ...DATE_TIME, second: "2-digit" };
const IN_FULL: Intl.DateTimeFormatOptions = {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZoneName: "long",
};

/** "Mar 3, 2026, 14:05 UTC" */
export function formatDateTime(date: Date, timeZone = "UTC"): string {
  return zonedFormat("en-US", DATE_TIME, timeZone).format(date);
}

/** "Mar 3, 2026" */
export function formatDate(date: Date, timeZone = "UTC"): string {
  return zonedFormat("en-US", DATE, timeZone).format(date);
}

/** "14:05 UTC" */
export function formatTime(date: Date, timeZone = "UTC"): string {
  return zonedFormat("en-US", TIME, timeZone).format(date);
}

/** Date and time as two parts, for compact two-line table cells. */
export function formatMoment(date: Date, timeZone = "UTC"): { date: string; time: string; full: string } {
  return { date: formatDate(date, timeZone), time: formatTime(date, timeZone), full: formatDateTime(date, timeZone) };
}

/** "Sat 5 Dec, 09:00" (en-GB order, 24-hour clock). */
export function formatShortDayTime(date: Date, timeZone = "UTC"): string {
  const parts = zonedFormat("en-GB", SHORT_DAY_TIME, timeZone).formatToParts(date);
  const part = Object.fromEntries(parts.map((each) => [each.type, each.value]));
  return `${part.weekday} ${part.day} ${part.month}, ${part.hour}:${part.minute}`;
}

/** "Mar 3, 2026, 14:05:09 UTC": for logs, whose entries follow each other within seconds. */
export function formatWithSeconds(date: Date, timeZone = "UTC"): string {
  return zonedFormat("en-US", WITH_SECONDS, timeZone).format(date);
}

/**
 * An instant in full, for a hover: the zone's long name and the UTC instant to the millisecond, e.g.
 * "Tuesday, March 3, 2026 at 15:05:09 Central European Standard Time · 2026-03-03T14:05:09.120Z".
 */
export function formatInstantInFull(date: Date, timeZone = "UTC"): string {
  return `${zonedFormat("en-US", IN_FULL, timeZone).format(date)} · ${date.toISOString()}`;
}
