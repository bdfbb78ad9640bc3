import { expect } from "vitest";
import type { LogFilterInput } from "@/lib/platform/log-filter";

/*
 * The two logs a person searches by text and by days (a webhook source's Recent Deliveries, a
 * subscription's Delivery attempts) read the URL's q, from and to through lib/platform/log-filter.ts;
 * what a hand-edited URL may hold is the same for both, so both are checked against the same cases.
 */

/** From and To values only an edited URL can hold: none is a day, so the date range is left unapplied. */
export const HAND_EDITED_DAYS: unknown[] = [
  "2026-02-30",
  "2026-13-01",
  "yesterday",
  "tomorrow",
  "2026-1-5",
  "20260101",
  "0002-05-01",
  "99999-01-01",
  "'; DROP TABLE x; --",
  ["2026-01-01"],
  { day: 1 },
];

/** Searches no entry matches: far longer than the search box allows, and LIKE's wildcards read as text. */
export const UNMATCHED_SEARCHES = ["o".repeat(10_000), "e".repeat(10_000), `${"%".repeat(5_000)}_'\\`, "%_\\'"];

/**
 * Reads the log with every hand-edited input and checks it answers safely: an unmatched search lists
 * nothing, a date that is not one or a To before From leaves the whole log. Answers the whole log.
 */
export async function expectHandEditedInputReadSafely<Entry>(
  list: (filter: LogFilterInput) => Promise<Entry[]>,
  days: { day: string; nextDay: string },
  total: number,
): Promise<Entry[]> {
  const all = await list({});
  expect(all).toHaveLength(total);
  for (const search of UNMATCHED_SEARCHES) expect(await list({ search })).toEqual([]);
  for (const bad of HAND_EDITED_DAYS) expect(await list({ from: bad, to: bad })).toEqual(all);
  expect(await list({ from: days.nextDay, to: days.day })).toEqual(all);
  return all;
}
