import ICAL from "ical.js";
import type { Recurrence } from "@/lib/events/schema";
import { placeTime } from "./zones";

/*
 * A VEVENT's RRULE, as the product can keep it (docs/calendar-feeds.md, "How a feed maps to events"): a
 * rule that is exactly FREQ=DAILY, WEEKLY, MONTHLY or YEARLY (interval 1, no COUNT or UNTIL, no BY-part
 * beyond the start's own weekday, day or month) is a series; any other is expanded here into the
 * occurrences of the coming 365 days. The expansion is bounded: at most 1,000 occurrences in the window,
 * and at most 100,000 steps of ical.js's iterator from the rule's start.
 */

const FREQS: Partial<Record<string, Recurrence>> = {
  DAILY: "daily",
  WEEKLY: "weekly",
  MONTHLY: "monthly",
  YEARLY: "yearly",
};
const WEEKDAY_CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const DAY_MS = 86_400_000;
export const MAX_EXPANDED = 1_000;
const MAX_STEPS = 100_000;

const only = (values: unknown, expected: string | number) =>
  Array.isArray(values) && values.length === 1 && String(values[0]) === String(expected);

/** The product's recurrence for a rule it can keep as a series; null for any other rule. */
export function simpleRecurrence(rule: ICAL.Recur, start: ICAL.Time): Recurrence | null {
  const recurring = rule.freq ? FREQS[rule.freq] : undefined;
  if (!recurring || (rule.interval ?? 1) !== 1 || rule.count || rule.until) return null;
  const parts = rule.parts as Record<string, unknown>;
  const names = Object.keys(parts).filter((part) => Array.isArray(parts[part]) && (parts[part] as unknown[]).length);
  const allowed: Record<Recurrence, Record<string, string | number>> = {
    daily: {},
    weekly: { BYDAY: WEEKDAY_CODES[start.dayOfWeek() - 1] },
    monthly: { BYMONTHDAY: start.day },
    yearly: { BYMONTH: start.month, BYMONTHDAY: start.day },
    "": {},
  };
  const own = allowed[recurring];
  return names.every((part) => part in own && only(parts[part], own[part])) ? recurring : null;
}

/** The starts of the occurrences from a day ago to 365 days ahead; null (after `problem`) when unbounded. */
export function expandOccurrences(
  master: ICAL.Component,
  timing: { start: Date; tzid: string | null },
  context: { timeZone: string; now: Date },
  problem: (message: string) => void,
): Date[] | null {
  const from = context.now.getTime() - DAY_MS;
  const until = context.now.getTime() + 365 * DAY_MS;
  const found: Date[] = [];
  let iterator: ICAL.RecurExpansion;
  try {
    iterator = new ICAL.Event(master).iterator();
  } catch (error) {
    problem(`has a repeat rule ical.js cannot read (${(error as Error).message}); skipped.`);
    return null;
  }
  for (let steps = 0; ; steps++) {
    if (steps > MAX_STEPS) {
      problem("repeats too often since its start to expand; skipped.");
      return null;
    }
    let next: ICAL.Time | undefined;
    try {
      next = iterator.next();
    } catch (error) {
      problem(`has a repeat rule ical.js cannot expand (${(error as Error).message}); skipped.`);
      return null;
    }
    if (!next) break;
    const placed = placeTime(next, timing.tzid, context.timeZone);
    if (!placed.ok) continue;
    const at = placed.at.getTime();
    if (at > until) break;
    if (at < from) continue;
    if (found.length === MAX_EXPANDED) {
      problem(`repeats more than ${MAX_EXPANDED.toLocaleString("en-US")} times in the next 365 days; skipped.`);
      return null;
    }
    found.push(placed.at);
  }
  return found;
}
