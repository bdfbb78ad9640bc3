import { describe, expect, it } from "vitest";
import { hasLogFilter, logSearch, logWindow, searchedStatus } from "@/lib/platform/log-filter";

describe("the delivery logs' date range", () => {
  it("covers whole days in the account's zone, To included", () => {
    const window = logWindow({ from: "2026-11-20", to: "2026-11-21", timeZone: "America/New_York" });
    expect(window).toEqual({
      since: new Date("2026-11-20T05:00:00.000Z"),
      until: new Date("2026-11-22T05:00:00.000Z"),
      problem: null,
    });
  });

  it("gives a day of 23 hours when the clocks go forward, and leaves an end open when not set", () => {
    const spring = logWindow({ from: "2026-03-29", to: "2026-03-29", timeZone: "Europe/Berlin" });
    expect(spring.until!.getTime() - spring.since!.getTime()).toBe(23 * 3_600_000);
    expect(logWindow({ to: "2026-03-29", timeZone: "Europe/Berlin" })).toEqual({
      since: null,
      until: new Date("2026-03-29T22:00:00.000Z"),
      problem: null,
    });
    expect(logWindow({})).toEqual({ since: null, until: null, problem: null });
  });

  it("reads an unknown zone as UTC", () => {
    expect(logWindow({ from: "2026-11-20", timeZone: "Mars/Olympus" }).since).toEqual(new Date("2026-11-20T00:00Z"));
  });

  it("applies no range, and says why, for a date that is not one or To before From", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "20260101", "0002-01-01", "next week", 20260101]) {
      expect(logWindow({ from: bad }).problem).toMatch(/^“From” is not a date/);
      expect(logWindow({ from: "2026-01-01", to: bad }).problem).toMatch(/^“To” is not a date/);
      expect(logWindow({ from: bad, to: "2026-01-01" })).toMatchObject({ since: null, until: null });
    }
    expect(logWindow({ from: "2026-11-21", to: "2026-11-20" })).toEqual({
      since: null,
      until: null,
      problem: "“To” is before “From”: choose a To date on or after the From date.",
    });
    expect(logWindow({ from: "2026-11-20", to: "2026-11-20" }).problem).toBeNull();
  });
});

describe("the delivery logs' search", () => {
  it("is trimmed and clipped to 200 characters; anything but text is no search", () => {
    expect(logSearch("  jazz night ")).toBe("jazz night");
    expect(logSearch("x".repeat(10_000))).toHaveLength(200);
    for (const none of ["", "   ", undefined, null, ["jazz"], 401]) expect(logSearch(none)).toBeNull();
  });

  it("names an HTTP status only as a three-digit number from 100 to 599", () => {
    expect(searchedStatus("401")).toBe(401);
    expect(searchedStatus("599")).toBe(599);
    for (const other of ["4010", "40", "600", "099", "4o1", null]) expect(searchedStatus(other)).toBeNull();
  });

  it("counts as a filter when any of the search or dates is set", () => {
    expect(hasLogFilter({ search: "  " })).toBe(false);
    expect(hasLogFilter({ search: "a" })).toBe(true);
    expect(hasLogFilter({ to: "2026-11-20" })).toBe(true);
  });
});
