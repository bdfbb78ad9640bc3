/*
 * ISO 8601 date-times for event fields. Identity compares instants, so the parser returns the instant
 * (millisecond precision, as stored in timestamptz(3)) and the offset text the sender wrote, which is kept
 * for display. No offset means UTC. A date without a time is rejected rather than guessed: an all-day
 * "2026-05-01" would otherwise become midnight UTC, a different day for most of the world.
 */

export type ParsedDateTime = { instant: Date; offset: string };
export type DateTimeResult = { ok: true; value: ParsedDateTime } | { ok: false; message: string };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export const DATE_TIME_EXAMPLE = "2026-05-01T10:00:00+02:00";

/*
 * The instants PostgreSQL's timestamptz accepts as we write them (ISO text): years 0001 to 9999 in UTC.
 * The year as written is not enough: "0001-01-01T00:30:00+01:00" is in year 0 and
 * "9999-12-31T23:30:00-01:00" in year 10000, both refused by the database.
 */
export const MIN_INSTANT_MS = Date.parse("0001-01-01T00:00:00.000Z");
export const MAX_INSTANT_MS = Date.parse("9999-12-31T23:59:59.999Z");

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

export function parseDateTime(text: string): DateTimeResult {
  const value = text.trim();
  if (DATE_ONLY.test(value)) {
    return { ok: false, message: `Include a time, e.g. ${DATE_TIME_EXAMPLE}; a date alone is not accepted.` };
  }
  const match = DATE_TIME.exec(value);
  const invalid = { ok: false as const, message: `Use an ISO 8601 date-time, e.g. ${DATE_TIME_EXAMPLE}.` };
  if (!match) return invalid;
  const [, y, mo, d, h, mi, s, fraction, , sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millis = fraction === undefined ? 0 : Number(fraction.padEnd(3, "0").slice(0, 3));
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return invalid;
  if (hour > 23 || minute > 59 || second > 59) return invalid;
  let offsetTotal = 0;
  let offset = "Z";
  if (sign !== undefined) {
    const oh = Number(offsetHours);
    const om = offsetMinutes === undefined ? 0 : Number(offsetMinutes);
    if (oh > 23 || om > 59) return invalid;
    offsetTotal = (sign === "-" ? -1 : 1) * (oh * 60 + om);
    offset = `${sign}${offsetHours}:${String(om).padStart(2, "0")}`;
  }
  const instant = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  // Date.UTC maps years 0-99 to 1900-1999; set the real year afterwards.
  instant.setUTCFullYear(year, month - 1, day);
  instant.setTime(instant.getTime() - offsetTotal * 60_000);
  if (Number.isNaN(instant.getTime())) return invalid;
  if (instant.getTime() < MIN_INSTANT_MS || instant.getTime() > MAX_INSTANT_MS) {
    return { ok: false, message: "Must fall between the years 0001 and 9999 in UTC." };
  }
  return { ok: true, value: { instant, offset } };
}

/** The instant written in the sender's own offset, e.g. "2026-05-01T10:00:00+02:00", for display. */
export function formatWithOffset(instant: Date, offset: string): string {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  const minutes = match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const local = new Date(instant.getTime() + minutes * 60_000).toISOString().replace(".000Z", "Z");
  return match ? local.slice(0, -1) + offset : local;
}
