import { safeTimeZone, utcDate, wallClockInstant } from "@/lib/platform/format/zoned-time";

/*
 * The delivery logs' search box and date range (Recent Deliveries, Delivery attempts): the URL's `q`,
 * `from` and `to` as the list functions use them. Both ends are whole days in the account's time zone,
 * `to` included, so a window is [start of `from`, start of the day after `to`). Anything hand-edited into
 * the URL is read safely: a search is trimmed and clipped, a date that is not one (or a range that ends
 * before it starts) leaves the range unapplied and says why, for the page to show beside the inputs.
 */

export const MAX_LOG_SEARCH_LENGTH = 200;

export type LogFilterInput = {
  /** Text to find (each log says in which columns). */
  search?: unknown;
  /** First day shown, YYYY-MM-DD in `timeZone`. */
  from?: unknown;
  /** Last day shown, YYYY-MM-DD in `timeZone`. */
  to?: unknown;
  /** The account's IANA zone; UTC when missing or unknown. */
  timeZone?: string | null;
};

/** The instants a date range covers: `since` included, `until` excluded; null ends are open. */
export type LogWindow = { since: Date | null; until: Date | null; problem: string | null };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
// Years a person might mean; others (year 0002 while a year is being typed, 5-digit years) are refused.
const YEARS = { first: 1900, last: 2999 };

/** Midnight (UTC wall clock, ms) of a YYYY-MM-DD day, or null when the text is not a real date. */
function wallDay(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return null;
  const match = DAY.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < YEARS.first || year > YEARS.last) return null;
  const wall = utcDate(year, month - 1, day);
  // 2026-02-30 rolls over to March: not a date.
  return new Date(wall).getUTCDate() === day && new Date(wall).getUTCMonth() === month - 1 ? wall : null;
}

/** The window of `from`…`to` (inclusive days in the zone), or no window and the reason it is not applied. */
export function logWindow(input: LogFilterInput): LogWindow {
  const zone = safeTimeZone(input.timeZone);
  const from = wallDay(input.from);
  const to = wallDay(input.to);
  const none = (problem: string): LogWindow => ({ since: null, until: null, problem });
  if (from === null) return none("“From” is not a date (YYYY-MM-DD), so the date range is not applied.");
  if (to === null) return none("“To” is not a date (YYYY-MM-DD), so the date range is not applied.");
  if (from !== undefined && to !== undefined && to < from)
    return none("“To” is before “From”: choose a To date on or after the From date.");
  return {
    since: from === undefined ? null : wallClockInstant(from, zone),
    until: to === undefined ? null : wallClockInstant(to + DAY_MS, zone),
    problem: null,
  };
}

/** The text to search for, trimmed and clipped, or null for none. */
export function logSearch(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim().slice(0, MAX_LOG_SEARCH_LENGTH);
  return text === "" ? null : text;
}

/** The HTTP status a search names (a 3-digit number from 100 to 599), or null. */
export function searchedStatus(search: string | null): number | null {
  if (!search || !/^[1-5]\d\d$/.test(search)) return null;
  return Number(search);
}

/** Whether any of the search or date range is set (the lists say "match these filters" when empty). */
export const hasLogFilter = (input: LogFilterInput) => Boolean(logSearch(input.search) || input.from || input.to);
