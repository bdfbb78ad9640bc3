import fc from "fast-check";
import { RRule, type Frequency } from "rrule";
import { describe, expect, it } from "vitest";
import { nextOccurrence, occurrencesBetween, type Series } from "@/lib/events/occurrences";
import { wallClockInstant, wallClockOf } from "@/lib/platform/format/zoned-time";

/*
 * Our occurrences against the rrule library's RFC 5545 expansion of FREQ=DAILY|WEEKLY|MONTHLY|YEARLY.
 * rrule expands in floating wall-clock time (no zone), so both sides are compared as wall-clock times of
 * the account's zone. Series start between 04:00 and 23:59 local: every zone here changes its offset
 * between 00:00 and 04:00, where a wall time can be skipped or repeated (unit tests cover those).
 */

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "Europe/London",
  "America/New_York",
  "America/Los_Angeles",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Australia/Sydney",
  "Australia/Lord_Howe",
  "Pacific/Auckland",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "Asia/Tokyo",
];
const FREQUENCIES = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY, yearly: RRule.YEARLY } as const;
const DAY = 86_400_000;

const seriesArbitrary = fc.record({
  zone: fc.constantFrom(...ZONES),
  recurring: fc.constantFrom("daily", "weekly", "monthly", "yearly") as fc.Arbitrary<keyof typeof FREQUENCIES>,
  year: fc.integer({ min: 1995, max: 2150 }),
  month: fc.integer({ min: 0, max: 11 }),
  // Days 28–31 are where months differ: give them most of the weight.
  day: fc.oneof(fc.integer({ min: 1, max: 27 }), fc.integer({ min: 28, max: 31 }), fc.integer({ min: 28, max: 31 })),
  minuteOfDay: fc.integer({ min: 4 * 60, max: 24 * 60 - 1 }),
  rangeStartDays: fc.integer({ min: -60, max: 8_000 }),
  rangeDays: fc.integer({ min: 1, max: 800 }),
});

type Sample = typeof seriesArbitrary extends fc.Arbitrary<infer T> ? T : never;

function build(sample: Sample) {
  const lastDay = new Date(Date.UTC(sample.year, sample.month + 1, 0)).getUTCDate();
  const wallStart = Date.UTC(sample.year, sample.month, Math.min(sample.day, lastDay)) + sample.minuteOfDay * 60_000;
  const series: Series = {
    startsAt: wallClockInstant(wallStart, sample.zone),
    endsAt: null,
    recurring: sample.recurring,
    timeZone: sample.zone,
  };
  const rule = new RRule({ freq: FREQUENCIES[sample.recurring] as Frequency, dtstart: new Date(wallStart) });
  const from = new Date(series.startsAt.getTime() + sample.rangeStartDays * DAY + (sample.minuteOfDay % 7) * 3_600_000);
  const to = new Date(from.getTime() + sample.rangeDays * DAY);
  return { series, rule, from, to };
}

const walls = (instants: Date[], zone: string) =>
  instants.map((instant) => new Date(wallClockOf(instant, zone)).toISOString());

describe("occurrences agree with rrule's RFC 5545 expansion", () => {
  it("lists the same occurrences in any range, for random series, zones and ranges", () => {
    fc.assert(
      fc.property(seriesArbitrary, (sample) => {
        const { series, rule, from, to } = build(sample);
        const ours = occurrencesBetween(series, from, to, 2_000).map((occurrence) => occurrence.startsAt);
        const wallFrom = new Date(wallClockOf(from, sample.zone));
        const wallTo = new Date(wallClockOf(to, sample.zone));
        const theirs = rule.between(wallFrom, wallTo, true).filter((wall) => wall < wallTo);
        expect(walls(ours, sample.zone)).toEqual(theirs.map((wall) => wall.toISOString()));
      }),
      { numRuns: 250 },
    );
  });

  it("finds the same next occurrence after any instant", () => {
    fc.assert(
      fc.property(seriesArbitrary, (sample) => {
        const { series, rule, from } = build(sample);
        const ours = nextOccurrence(series, from);
        const theirs = rule.after(new Date(wallClockOf(from, sample.zone)), true);
        expect(ours && walls([ours.startsAt], sample.zone)[0]).toBe(theirs?.toISOString() ?? null);
      }),
      { numRuns: 250 },
    );
  });
});
