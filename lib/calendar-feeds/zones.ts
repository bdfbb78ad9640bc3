import ICAL from "ical.js";
import { isKnownTimeZone, utcDate, wallClockInstant, zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";

/*
 * The instant an iCalendar date or date-time names (RFC 5545, 3.3.4–3.3.5). A TZID that is an IANA name
 * is read with the current tz data, as the product reads every zone; any other TZID (Outlook's
 * "W. Europe Standard Time", a custom name) with the feed's own VTIMEZONE definition, which ical.js
 * attaches to the value. A TZID that is neither cannot be placed in time. Floating times and all-day dates
 * are the account's wall clock: a date keeps its day in the account's zone.
 */

const DAY_MS = 86_400_000;

export type Placed = { ok: true; at: Date } | { ok: false; tzid: string };

const wallOf = (time: ICAL.Time) =>
  utcDate(time.year, time.month - 1, time.day) + ((time.hour * 60 + time.minute) * 60 + time.second) * 1000;

export function placeTime(time: ICAL.Time, tzid: string | null, accountZone: string): Placed {
  if (time.isDate) return { ok: true, at: wallClockInstant(utcDate(time.year, time.month - 1, time.day), accountZone) };
  if (time.zone === ICAL.Timezone.utcTimezone) return { ok: true, at: new Date(wallOf(time)) };
  if (!tzid) return { ok: true, at: wallClockInstant(wallOf(time), accountZone) };
  if (isKnownTimeZone(tzid)) return { ok: true, at: wallClockInstant(wallOf(time), tzid) };
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone && time.zone.tzid === tzid && time.zone.component) {
    return { ok: true, at: new Date(time.toUnixTime() * 1000) };
  }
  return { ok: false, tzid };
}

/** The IANA zone a series' wall clock lives in, when it is one the product can repeat in. */
export function seriesZone(time: ICAL.Time, tzid: string | null, accountZone: string): string | null {
  if (time.isDate || !tzid) return time.zone === ICAL.Timezone.utcTimezone && !time.isDate ? "UTC" : accountZone;
  return isKnownTimeZone(tzid) ? tzid : null;
}

const verdicts = new Map<string, boolean>();

/**
 * Whether a series kept on `zone`'s wall clock has its occurrences at the same instants as one kept on
 * the account's wall clock, for the coming 400 days: the two zones' offsets differ by the same amount
 * every day (no DST change in one and not the other), and the start falls on the same date in both.
 */
export function keepsAccountWallClock(zone: string, accountZone: string, start: Date, now: Date): boolean {
  if (zone === accountZone) return true;
  const sameDate =
    new Date(start.getTime() + zoneOffsetMinutes(start, zone) * 60_000).toISOString().slice(0, 10) ===
    new Date(start.getTime() + zoneOffsetMinutes(start, accountZone) * 60_000).toISOString().slice(0, 10);
  if (!sameDate) return false;
  const key = `${zone} ${accountZone} ${now.toISOString().slice(0, 10)}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const difference = (at: Date) => zoneOffsetMinutes(at, zone) - zoneOffsetMinutes(at, accountZone);
    const first = difference(start);
    verdict = true;
    for (let day = 0; day <= 400 && verdict; day++) {
      verdict = difference(new Date(now.getTime() + day * DAY_MS)) === first;
    }
    if (verdicts.size > 1_000) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}
