import { describe, expect, it } from "vitest";
import { chartViews } from "@/app/(dashboard)/_overview/chart-data";
import { CHART_HOURS, type HourBucket } from "@/lib/overview/model";

/* The Overview's chart reads the UTC hourly counters on the account's clock. */

const HOUR = 3_600_000;
const hours = (last: string, fill: (hour: Date) => Partial<HourBucket> = () => ({})): HourBucket[] =>
  Array.from({ length: CHART_HOURS }, (_, index) => {
    const hour = new Date(Date.parse(last) - (CHART_HOURS - 1 - index) * HOUR);
    return { hour, accepted: 0, refused: 0, succeeded: 0, failed: 0, ...fill(hour) };
  });

describe("the deliveries chart", () => {
  it("labels the last 24 hours with the local time each starts at, half-hour zones included", () => {
    const { day } = chartViews(hours("2026-11-26T22:00:00Z"), "Asia/Kolkata");
    expect(day).toHaveLength(24);
    expect(day.at(-1)!.label).toBe("03:30");
    expect(day[0].label).toBe("04:30");
  });

  it("sums the 7-day view by local date, with a day that has 25 hours across the end of summer time", () => {
    const { week } = chartViews(
      hours("2026-11-03T04:00:00Z", () => ({ accepted: 1, failed: 2 })),
      "America/New_York",
    );
    const byDay = Object.fromEntries(week.map((point) => [point.label, point.accepted]));
    // 1 November 2026: clocks go back at 02:00, so that local day has 25 hours.
    expect(byDay["Sun 1 Nov"]).toBe(25);
    expect(byDay["Sat 31 Oct"]).toBe(24);
    expect(week.reduce((sum, point) => sum + point.accepted, 0)).toBe(CHART_HOURS);
    expect(week.reduce((sum, point) => sum + point.failed, 0)).toBe(2 * CHART_HOURS);
  });
});
