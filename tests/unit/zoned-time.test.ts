import { describe, expect, it } from "vitest";
import { toZonedInputValue, zonedInputToIso, zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";

describe("zoned time", () => {
  it("turns a Berlin wall time in summer into an ISO date-time with +02:00", () => {
    expect(zonedInputToIso("2026-05-01T10:00", "Europe/Berlin")).toBe("2026-05-01T10:00:00+02:00");
  });

  it("uses +01:00 for the same wall time in Berlin's winter and Z for UTC", () => {
    expect(zonedInputToIso("2026-01-15T10:00", "Europe/Berlin")).toBe("2026-01-15T10:00:00+01:00");
    expect(zonedInputToIso("2026-01-15T10:00", "UTC")).toBe("2026-01-15T10:00:00Z");
  });

  it("handles negative and half-hour offsets", () => {
    expect(zonedInputToIso("2026-07-04T09:30", "America/New_York")).toBe("2026-07-04T09:30:00-04:00");
    expect(zonedInputToIso("2026-07-04T09:30", "Asia/Kolkata")).toBe("2026-07-04T09:30:00+05:30");
  });

  it("shows an instant as the zone's wall time for a datetime-local input", () => {
    expect(toZonedInputValue(new Date("2026-05-01T08:00:00Z"), "Europe/Berlin")).toBe("2026-05-01T10:00");
    expect(zoneOffsetMinutes(new Date("2026-05-01T08:00:00Z"), "America/Los_Angeles")).toBe(-420);
  });

  it("rejects text that is not a datetime-local value", () => {
    expect(zonedInputToIso("tomorrow", "UTC")).toBeNull();
    expect(zonedInputToIso("2026-05-01", "UTC")).toBeNull();
  });
});
