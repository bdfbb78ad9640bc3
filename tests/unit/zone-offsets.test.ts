import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";

/*
 * The cached offsets of a zone agree with what Intl says at every instant, across DST changes. The oracle
 * reads the offset Intl names ("GMT+05:53:28"), not the wall clock the library derives its offsets from,
 * so a mistake in that derivation cannot agree with itself.
 */

const NAMED_OFFSET = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function namedOffset(instant: Date, timeZone: string): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(instant)
    .find((part) => part.type === "timeZoneName")!.value;
  const match = NAMED_OFFSET.exec(name);
  if (!match) throw new Error(`unexpected offset name ${name}`);
  const [, sign, hours = "0", minutes = "0", seconds = "0"] = match;
  const total = (Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds)) * (sign === "-" ? -1 : 1);
  // Historic local mean times are offsets to the second; the library rounds them to the minute.
  return Math.round(total / 60);
}

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Africa/Casablanca",
  "America/Santiago",
  "Asia/Kolkata",
  "UTC",
];

describe("zone offsets", () => {
  it("agree with Intl at random instants from 1700 to 2300", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1700, 0, 1), max: Date.UTC(2300, 0, 1) }),
        (zone, ms) => {
          const instant = new Date(ms);
          expect(zoneOffsetMinutes(instant, zone)).toBe(namedOffset(instant, zone));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("change at the exact second of a DST change", () => {
    // Berlin: 2026-03-29 01:00:00Z (02:00 CET → 03:00 CEST).
    expect(zoneOffsetMinutes(new Date("2026-03-29T00:59:59Z"), "Europe/Berlin")).toBe(60);
    expect(zoneOffsetMinutes(new Date("2026-03-29T01:00:00Z"), "Europe/Berlin")).toBe(120);
    expect(zoneOffsetMinutes(new Date("2026-10-25T00:59:59.999Z"), "Europe/Berlin")).toBe(120);
    expect(zoneOffsetMinutes(new Date("2026-10-25T01:00:00Z"), "Europe/Berlin")).toBe(60);
  });

  it("answers instants spread over every century without building a table for each year", () => {
    const started = performance.now();
    for (let index = 0; index < 20_000; index++) {
      const year = 1 + ((index * 7919) % 9999);
      zoneOffsetMinutes(
        new Date(Date.UTC(2000, index % 12, 1 + (index % 28)) + (year - 2000) * 365.2425 * 86_400_000),
        "Europe/Berlin",
      );
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
