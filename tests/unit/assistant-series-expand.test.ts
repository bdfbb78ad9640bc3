import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandSeries, type Candidate, type SeriesRow } from "@/lib/assistant/series-expand";
import type { Recurrence } from "@/lib/events/schema";

/*
 * expandSeries builds only the occurrences that can be among the first rows of the search's order. Over
 * random series (long-running ones among them, title matches and others) and random windows in a DST
 * zone, its first rows must be exactly those of expanding every candidate in full.
 */

const ZONE = "Europe/Berlin";
const NOW = Date.UTC(2026, 9, 20, 9);
const KINDS: Exclude<Recurrence, "">[] = ["daily", "weekly", "monthly", "yearly"];

const byRank = (a: SeriesRow, b: SeriesRow) =>
  Number(b.in_title) - Number(a.in_title) ||
  a.part - b.part ||
  a.starts_at.getTime() - b.starts_at.getTime() ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const keys = (rows: SeriesRow[], count: number) =>
  [...rows]
    .sort(byRank)
    .slice(0, count)
    .map((row) => `${row.id}@${row.starts_at.toISOString()}`);

const candidate = fc.record({
  kind: fc.constantFrom(...KINDS),
  // From two years back to a month ahead, on the minute; several series share a minute now and then.
  minutes: fc.integer({ min: -2 * 366 * 1440, max: 31 * 1440 }),
  duration: fc.oneof(fc.constant(null), fc.integer({ min: 15, max: 240 }), fc.integer({ min: 1500, max: 9000 })),
  inTitle: fc.boolean(),
  // Its first occurrence in the window removed (an exception), so the next one must take its place.
  removeFirst: fc.boolean(),
});
type Sample = typeof candidate extends fc.Arbitrary<infer T> ? T : never;

function candidates(samples: Sample[]): Candidate[] {
  return samples.map((sample, index) => {
    const startsAt = new Date(NOW - 45 * 60_000 + Math.round(sample.minutes / 15) * 15 * 60_000);
    return {
      id: `series-${String(index).padStart(3, "0")}`,
      title: `Series ${index}`,
      starts_at: startsAt,
      ends_at: sample.duration === null ? null : new Date(startsAt.getTime() + sample.duration * 60_000),
      location: "",
      url: "",
      price: "",
      in_title: sample.inTitle,
      matched: 1,
      exact: 1,
      recurring: sample.kind,
      exceptions: [],
    };
  });
}

/** Each series whose sample says so loses its first occurrence in the window to an exception. */
function withExceptions(
  rows: Candidate[],
  samples: Sample[],
  window: { from: Date; to: Date | null },
  perSeries: number,
): Candidate[] {
  const occurrences = expandSeries(rows, ZONE, window, perSeries, false);
  return rows.map((row, index) => {
    const first = occurrences.find((occurrence) => occurrence.id === row.id);
    return samples[index].removeFirst && first ? { ...row, exceptions: [first.starts_at.getTime()] } : row;
  });
}

describe("the occurrences built for a window", () => {
  it("give the same first rows as expanding every series in full, exceptions left out", () => {
    fc.assert(
      fc.property(
        fc.array(candidate, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: -3 * 1440, max: 60 * 1440 }),
        fc.oneof(fc.integer({ min: 30, max: 45 * 1440 }), fc.constant(null)),
        fc.integer({ min: 1, max: 21 }),
        (samples, startMinutes, lengthMinutes, perSeries) => {
          const from = new Date(NOW + startMinutes * 60_000);
          const window = {
            from,
            to: lengthMinutes === null ? null : new Date(from.getTime() + lengthMinutes * 60_000),
          };
          const rows = withExceptions(candidates(samples), samples, window, perSeries);
          const full = expandSeries(rows, ZONE, window, perSeries, false);
          const bounded = expandSeries(rows, ZONE, window, perSeries, true);
          const removed = new Set(rows.flatMap((row) => row.exceptions.map((at) => `${row.id}@${at}`)));
          expect(bounded.filter((row) => removed.has(`${row.id}@${row.starts_at.getTime()}`))).toEqual([]);
          expect(keys(bounded, perSeries)).toEqual(keys(full, perSeries));
          expect(bounded.length >= perSeries).toBe(full.length >= perSeries);
          // Without topic words (no title matches) the search asks whether enough occurrences start in it.
          const plain = rows.map((row) => ({ ...row, in_title: false }));
          const starting = (ranked: boolean) =>
            expandSeries(plain, ZONE, window, perSeries, ranked).filter((row) => row.part === 0).length >= perSeries;
          expect(starting(true)).toBe(starting(false));
        },
      ),
      { numRuns: 300, seed: 26 },
    );
  });
});
