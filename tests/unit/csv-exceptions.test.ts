import { describe, expect, it } from "vitest";
import {
  formatExceptionsCell,
  MAX_CSV_EXCEPTIONS,
  MAX_EXCEPTIONS_CELL,
  parseExceptionsCell,
} from "@/lib/events/csv-exceptions";
import { escapeCsvCell } from "@/lib/events/csv-format";
import type { Series } from "@/lib/events/occurrences";

const at = (iso: string) => new Date(iso);
// A Saturday 09:00 class in Berlin, first written in summer time.
const yoga: Omit<Series, "exceptions"> = {
  startsAt: at("2026-10-03T09:00:00+02:00"),
  endsAt: at("2026-10-03T10:30:00+02:00"),
  recurring: "weekly",
  timeZone: "Europe/Berlin",
};

const refused = (cell: string, series: Parameters<typeof parseExceptionsCell>[1] = yoga) => {
  const result = parseExceptionsCell(cell, series);
  if (result.ok) throw new Error(`accepted ${cell}`);
  return result.message;
};

describe("the exceptions cell as exported", () => {
  it("lists kind and start in start order, each with the offset its occurrence has in the account's zone", () => {
    const cell = formatExceptionsCell(
      [
        { occursAt: at("2026-11-14T08:00:00Z"), kind: "deleted" },
        { occursAt: at("2026-10-17T07:00:00Z"), kind: "cancelled" },
      ],
      "+02:00",
      "Europe/Berlin",
    );
    expect(cell).toBe("cancelled 2026-10-17T09:00:00+02:00; deleted 2026-11-14T09:00:00+01:00");
  });

  it("writes UTC instants when the event's start was written in UTC", () => {
    const exception = { occursAt: at("2026-11-14T08:00:00Z"), kind: "cancelled" as const };
    const cell = formatExceptionsCell([exception], "Z", "Europe/Berlin");
    expect(cell).toBe("cancelled 2026-11-14T08:00:00Z");
  });

  it("never starts with a formula character, so the export's escaping leaves it as it is", () => {
    const exception = { occursAt: at("2026-10-17T07:00:00Z"), kind: "cancelled" as const };
    const cell = formatExceptionsCell([exception], "-05:00", "America/New_York");
    expect(cell).toBe("cancelled 2026-10-17T03:00:00-04:00");
    expect(escapeCsvCell(cell)).toBe(cell);
  });
});

describe("the exceptions cell as imported", () => {
  it("reads what the export writes, whatever offset each instant is written in", () => {
    const result = parseExceptionsCell("cancelled 2026-10-17T09:00:00+02:00;deleted 2026-11-14T08:00:00Z ;", yoga);
    expect(result).toEqual({
      ok: true,
      value: [
        { occursAt: at("2026-10-17T07:00:00Z"), kind: "cancelled" },
        { occursAt: at("2026-11-14T08:00:00Z"), kind: "deleted" },
      ],
    });
  });

  it("reads an empty cell as no exceptions, also for a one-off event", () => {
    expect(parseExceptionsCell("  ", { ...yoga, recurring: "" })).toEqual({ ok: true, value: [] });
  });

  it("refuses exceptions on an event that does not recur", () => {
    const oneOff = { ...yoga, recurring: "" as const };
    expect(refused("cancelled 2026-10-17T09:00:00+02:00", oneOff)).toMatch(/Only a recurring event has exceptions/);
  });

  it("refuses an instant that is not an occurrence, saying how the series repeats in which zone", () => {
    expect(refused("cancelled 2026-10-17T09:01:00+02:00")).toBe(
      '"2026-10-17T09:01:00+02:00" is not an occurrence of this series (every Saturday, 09:00 in Europe/Berlin).',
    );
    // 09:00 in summer time is 10:00 local after the clocks went back: not the class.
    expect(refused("cancelled 2026-11-14T09:00:00+02:00")).toMatch(/is not an occurrence/);
  });

  it("reads a row exported from an account in another zone as that row's occurrences", () => {
    // Exported in Berlin (summer time ends 25 October), imported in New York (1 November): for a week the
    // two zones are five hours apart, not six, so the class on 31 October is at 08:00Z in Berlin but
    // 07:00Z (03:00 local) in New York. Each exception names the New York occurrence nearest to it.
    const exported = {
      ...yoga,
      startsAt: at("2026-10-24T09:00:00+02:00"),
      endsAt: at("2026-10-24T10:30:00+02:00"),
      startsAtOffset: "+02:00",
    };
    const inNewYork = { ...exported, timeZone: "America/New_York" };
    const cell = "cancelled 2026-10-31T09:00:00+01:00; deleted 2026-11-07T09:00:00+01:00";
    expect(parseExceptionsCell(cell, inNewYork)).toEqual({
      ok: true,
      value: [
        { occursAt: at("2026-10-31T07:00:00Z"), kind: "cancelled" },
        { occursAt: at("2026-11-07T08:00:00Z"), kind: "deleted" },
      ],
    });
    // In the zone it was written for, the same cell must name the occurrences exactly.
    expect(parseExceptionsCell(cell, exported)).toMatchObject({ ok: true });
    expect(refused("cancelled 2026-10-31T10:00:00+01:00", exported)).toMatch(/is not an occurrence/);
    // "+00:00" is UTC's offset as much as "Z" is: a London row in winter is written for London.
    const london = { ...yoga, startsAt: at("2026-01-10T09:00:00Z"), endsAt: null, timeZone: "Europe/London" };
    const inLondon = { ...london, startsAtOffset: "+00:00" };
    expect(refused("cancelled 2026-01-17T10:00:00+00:00", inLondon)).toMatch(/is not an occurrence/);
    expect(refused("cancelled 2026-01-17T10:00:00Z", { ...london, startsAtOffset: "Z" })).toMatch(/not an occurrence/);
    // Nor does another zone make a day without a class one: Fridays stay refused.
    expect(refused("cancelled 2026-10-30T09:00:00+01:00", inNewYork)).toMatch(/is not an occurrence/);
  });

  it("refuses the first occurrence: that is the series itself", () => {
    expect(refused("deleted 2026-10-03T07:00:00Z")).toMatch(/first occurrence: set status to cancelled, or delete the/);
  });

  it("refuses a kind in another case or another word, a missing kind and an instant listed twice", () => {
    expect(refused("Cancelled 2026-10-17T09:00:00+02:00")).toMatch(/kind must be cancelled or deleted \(lower case\)/);
    expect(refused("removed 2026-10-17T09:00:00+02:00")).toMatch(/kind must be cancelled or deleted/);
    expect(refused("2026-10-17T09:00:00+02:00")).toMatch(/write each exception as "cancelled <start>"/);
    expect(refused("cancelled 2026-10-17")).toMatch(/a date alone is not accepted/);
    expect(refused("cancelled 2026-10-17T09:00:00+02:00; deleted 2026-10-17T07:00:00Z")).toMatch(/listed twice/);
  });

  it("refuses a formula as an unreadable exception, quoting at most 60 characters of it", () => {
    const message = refused(`=HYPERLINK("https://evil.example/${"x".repeat(100)}")`);
    expect(message).toMatch(/^"=HYPERLINK\(.{40,}…": write each exception as/);
    expect(message.length).toBeLessThan(200);
  });

  it("accepts 500 exceptions and refuses 501, and refuses an overlong cell before reading it", () => {
    const weeks = (count: number) =>
      Array.from({ length: count }, (_, index) => {
        const start = new Date(Date.UTC(2026, 9, 10 + 7 * index, 12));
        return `cancelled ${start.toISOString().slice(0, 10)}T09:00:00Z`;
      });
    // A daily series in UTC, so every listed day is an occurrence.
    const daily = { startsAt: at("2026-10-03T09:00:00Z"), endsAt: null, recurring: "daily" as const, timeZone: "UTC" };
    const five = parseExceptionsCell(weeks(MAX_CSV_EXCEPTIONS).join("; "), daily);
    expect(five.ok && five.value).toHaveLength(MAX_CSV_EXCEPTIONS);
    expect(refused(weeks(MAX_CSV_EXCEPTIONS + 1).join(";"), daily)).toBe("List at most 500 exceptions (found 501).");
    expect(refused("cancelled ".repeat(MAX_EXCEPTIONS_CELL / 10 + 1), daily)).toBe("Use at most 25,000 characters.");
  });

  it("checks 500 exceptions nine thousand years after the series' start in bounded time", () => {
    const daily = { startsAt: at("0999-01-01T09:00:00Z"), endsAt: null, recurring: "daily" as const, timeZone: "UTC" };
    const cell = Array.from({ length: MAX_CSV_EXCEPTIONS }, (_, index) => {
      return `deleted ${new Date(Date.UTC(9998, 0, 1 + index, 9)).toISOString()}`;
    }).join("; ");
    const started = performance.now();
    const result = parseExceptionsCell(cell, daily);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.ok && result.value).toHaveLength(MAX_CSV_EXCEPTIONS);
  });
});
