import { describe, expect, it } from "vitest";
import {
  describeRecurrence,
  nextOccurrence,
  occurrenceAt,
  occurrencesBetween,
  type Series,
} from "@/lib/events/occurrences";
import { wallClockInstant } from "@/lib/platform/format/zoned-time";

const at = (iso: string) => new Date(iso);
const starts = (list: { startsAt: Date }[]) => list.map((occurrence) => occurrence.startsAt.toISOString());
const series = (fields: Partial<Series> & Pick<Series, "startsAt" | "recurring">): Series => ({
  endsAt: null,
  timeZone: "UTC",
  ...fields,
});

describe("wall-clock times in a zone (RFC 5545 3.3.5)", () => {
  it("reads a time skipped by spring-forward with the offset before the gap", () => {
    // 2026-03-29 02:30 does not exist in Berlin (clocks go 02:00 → 03:00): it is 03:30 CEST, 01:30Z.
    expect(wallClockInstant(Date.UTC(2026, 2, 29, 2, 30), "Europe/Berlin").toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
  });

  it("reads a time that occurs twice at fall-back as its first occurrence", () => {
    // 2026-11-01 01:30 happens twice in New York: first at EDT (-04:00).
    expect(wallClockInstant(Date.UTC(2026, 10, 1, 1, 30), "America/New_York").toISOString()).toBe(
      "2026-11-01T05:30:00.000Z",
    );
  });
});

describe("occurrences of a series", () => {
  it("keeps a weekly 19:00 class at 19:00 local across both DST changes", () => {
    const yoga = series({ startsAt: at("2026-03-19T18:00:00Z"), recurring: "weekly", timeZone: "Europe/Berlin" });
    const found = occurrencesBetween(yoga, at("2026-03-01T00:00:00Z"), at("2026-04-10T00:00:00Z"));
    expect(starts(found)).toEqual([
      "2026-03-19T18:00:00.000Z",
      "2026-03-26T18:00:00.000Z",
      "2026-04-02T17:00:00.000Z",
      "2026-04-09T17:00:00.000Z",
    ]);
    const autumn = occurrencesBetween(yoga, at("2026-10-20T00:00:00Z"), at("2026-11-04T00:00:00Z"));
    expect(starts(autumn)).toEqual(["2026-10-22T17:00:00.000Z", "2026-10-29T18:00:00.000Z"]);
  });

  it("gives each occurrence the first one's exact duration", () => {
    const course = series({
      startsAt: at("2026-01-05T09:00:00Z"),
      endsAt: at("2026-01-05T10:30:00Z"),
      recurring: "daily",
    });
    const [occurrence] = occurrencesBetween(course, at("2026-02-01T00:00:00Z"), at("2026-02-02T00:00:00Z"));
    expect(occurrence.startsAt.toISOString()).toBe("2026-02-01T09:00:00.000Z");
    expect(occurrence.endsAt?.toISOString()).toBe("2026-02-01T10:30:00.000Z");
  });

  it("counts an occurrence that is still running as not ended", () => {
    const course = series({
      startsAt: at("2026-01-05T09:00:00Z"),
      endsAt: at("2026-01-05T10:30:00Z"),
      recurring: "daily",
    });
    expect(nextOccurrence(course, at("2026-02-01T10:00:00Z"))?.startsAt.toISOString()).toBe("2026-02-01T09:00:00.000Z");
    expect(nextOccurrence(course, at("2026-02-01T10:30:00Z"))?.startsAt.toISOString()).toBe("2026-02-02T09:00:00.000Z");
  });

  it("skips months without the 31st in a monthly series, over a whole year", () => {
    const gala = series({ startsAt: at("2026-01-31T20:00:00Z"), recurring: "monthly" });
    const found = occurrencesBetween(gala, at("2026-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"));
    expect(starts(found).map((iso) => iso.slice(0, 10))).toEqual([
      "2026-01-31",
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
      "2026-08-31",
      "2026-10-31",
      "2026-12-31",
    ]);
    expect(nextOccurrence(gala, at("2026-04-01T00:00:00Z"))?.startsAt.toISOString()).toBe("2026-05-31T20:00:00.000Z");
  });

  it("repeats a yearly 29 February in leap years only (2100 is not one)", () => {
    const leap = series({ startsAt: at("2096-02-29T12:00:00Z"), recurring: "yearly" });
    expect(nextOccurrence(leap, at("2096-03-01T00:00:00Z"))?.startsAt.toISOString()).toBe("2104-02-29T12:00:00.000Z");
    expect(occurrenceAt(leap, at("2100-02-28T12:00:00Z"))).toBeNull();
    expect(occurrenceAt(leap, at("2104-02-29T12:00:00Z"))).toEqual({ first: false });
  });

  it("leaves exceptions out of ranges and next occurrences, but still knows them as occurrences", () => {
    const exceptions = new Set([at("2026-06-13T09:00:00Z").getTime(), at("2026-06-20T09:00:00Z").getTime()]);
    const yoga = series({ startsAt: at("2026-06-06T09:00:00Z"), recurring: "weekly", exceptions });
    expect(nextOccurrence(yoga, at("2026-06-07T00:00:00Z"))?.startsAt.toISOString()).toBe("2026-06-27T09:00:00.000Z");
    expect(starts(occurrencesBetween(yoga, at("2026-06-01T00:00:00Z"), at("2026-07-01T00:00:00Z")))).toEqual([
      "2026-06-06T09:00:00.000Z",
      "2026-06-27T09:00:00.000Z",
    ]);
    expect(occurrenceAt(yoga, at("2026-06-13T09:00:00Z"))).toEqual({ first: false });
  });

  it("tells the first occurrence, a later one and an instant that is none apart", () => {
    const yoga = series({ startsAt: at("2026-06-06T09:00:00Z"), recurring: "weekly" });
    expect(occurrenceAt(yoga, at("2026-06-06T09:00:00Z"))).toEqual({ first: true });
    expect(occurrenceAt(yoga, at("2026-07-04T09:00:00Z"))).toEqual({ first: false });
    expect(occurrenceAt(yoga, at("2026-07-04T09:01:00Z"))).toBeNull();
    expect(occurrenceAt(yoga, at("2026-07-05T09:00:00Z"))).toBeNull();
    expect(occurrenceAt(yoga, at("2026-05-30T09:00:00Z"))).toBeNull();
    expect(
      occurrenceAt(series({ startsAt: at("2026-06-06T09:00:00Z"), recurring: "" }), at("2026-06-13T09:00:00Z")),
    ).toBeNull();
  });

  it("treats a one-off event as its own single occurrence", () => {
    const concert = series({ startsAt: at("2026-06-06T19:00:00Z"), endsAt: at("2026-06-06T22:00:00Z"), recurring: "" });
    expect(starts(occurrencesBetween(concert, at("2026-06-06T20:00:00Z"), at("2026-06-07T00:00:00Z")))).toEqual([
      "2026-06-06T19:00:00.000Z",
    ]);
    expect(nextOccurrence(concert, at("2026-06-06T22:00:00Z"))).toBeNull();
  });

  it("does bounded work for a series decades old, one in year 9999 and a huge range", () => {
    const old = series({ startsAt: at("1900-01-01T08:00:00Z"), recurring: "daily" });
    expect(nextOccurrence(old, at("2026-06-06T09:00:00Z"))?.startsAt.toISOString()).toBe("2026-06-07T08:00:00.000Z");
    const late = series({ startsAt: at("9999-12-30T08:00:00Z"), recurring: "daily" });
    expect(starts(occurrencesBetween(late, at("9999-01-01T00:00:00Z"), at("9999-12-31T23:59:59.999Z")))).toEqual([
      "9999-12-30T08:00:00.000Z",
      "9999-12-31T08:00:00.000Z",
    ]);
    expect(nextOccurrence(late, at("9999-12-31T09:00:00Z"))).toBeNull();
    const started = performance.now();
    expect(occurrencesBetween(old, at("1900-01-01T00:00:00Z"), at("9999-12-31T00:00:00Z"), 500)).toHaveLength(500);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("describes how a series repeats in the account's zone", () => {
    const start = at("2026-12-05T08:00:00Z");
    expect(describeRecurrence({ startsAt: start, recurring: "weekly", timeZone: "Europe/Berlin" })).toBe(
      "every Saturday, 09:00",
    );
    expect(describeRecurrence({ startsAt: start, recurring: "daily", timeZone: "UTC" })).toBe("every day, 08:00");
    expect(describeRecurrence({ startsAt: at("2026-01-31T20:00:00Z"), recurring: "monthly", timeZone: "UTC" })).toBe(
      "every month on the 31st, 20:00",
    );
    expect(describeRecurrence({ startsAt: at("2028-02-29T10:00:00Z"), recurring: "yearly", timeZone: "UTC" })).toBe(
      "every year on 29 February, 10:00",
    );
  });
});

describe("series in the first century", () => {
  it("knows years 1–99 as themselves, not as 1900–1999", () => {
    const ancient = {
      startsAt: new Date("0050-03-01T10:00:00Z"),
      endsAt: null,
      recurring: "daily" as const,
      timeZone: "UTC",
    };
    expect(occurrenceAt(ancient, new Date("0050-03-03T10:00:00Z"))).toEqual({ first: false });
    expect(nextOccurrence(ancient, new Date("0050-03-02T11:00:00Z"))?.startsAt.toISOString()).toBe(
      "0050-03-03T10:00:00.000Z",
    );
    expect(describeRecurrence(ancient)).toBe("every day, 10:00");
  });
});
