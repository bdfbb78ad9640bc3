import { describe, expect, it } from "vitest";
import { formatInstantInFull, formatWithSeconds } from "@/lib/platform/format/date-time";

describe("times in the delivery logs", () => {
  const instant = new Date("2026-03-03T14:05:09.120Z");

  it("show seconds in the account's zone", () => {
    expect(formatWithSeconds(instant, "Europe/Berlin")).toBe("Mar 3, 2026, 15:05:09 GMT+1");
    expect(formatWithSeconds(instant, "UTC")).toBe("Mar 3, 2026, 14:05:09 UTC");
  });

  it("name the zone in full and the UTC instant on hover", () => {
    expect(formatInstantInFull(instant, "Europe/Berlin")).toBe(
      "Tuesday, March 3, 2026 at 15:05:09 Central European Standard Time · 2026-03-03T14:05:09.120Z",
    );
  });
});
