import { describe, expect, it } from "vitest";
import { formatWithOffset, parseDateTime } from "@/lib/events/datetime";
import { parseEventFields, parseEventIdentity } from "@/lib/events/schema";

const instant = (text: string) => {
  const parsed = parseDateTime(text);
  return parsed.ok ? parsed.value.instant.toISOString() : parsed.message;
};

describe("starts_at parsing", () => {
  it("reads the same instant from two offsets", () => {
    expect(instant("2026-05-01T10:00:00+02:00")).toBe("2026-05-01T08:00:00.000Z");
    expect(instant("2026-05-01T08:00:00Z")).toBe("2026-05-01T08:00:00.000Z");
  });

  it("treats a date-time without offset as UTC", () => {
    expect(instant("2026-05-01T08:00:00")).toBe("2026-05-01T08:00:00.000Z");
    expect(instant("2026-05-01T08:00")).toBe("2026-05-01T08:00:00.000Z");
  });

  it("accepts offsets without a colon, fractions, and keeps the sender's offset", () => {
    expect(instant("2026-05-01T10:00:00.250+0200")).toBe("2026-05-01T08:00:00.250Z");
    const parsed = parseDateTime("2026-05-01T05:30:00-03:30");
    expect(parsed.ok && parsed.value.offset).toBe("-03:30");
    expect(parsed.ok && formatWithOffset(parsed.value.instant, parsed.value.offset)).toBe("2026-05-01T05:30:00-03:30");
  });

  it("rejects a date alone, with a message that says a time is needed", () => {
    expect(instant("2026-05-01")).toMatch(/Include a time/);
  });

  it.each([
    "tomorrow",
    "2026-13-01T10:00:00Z",
    "2026-02-30T10:00:00Z",
    "2026-05-01T24:00:00Z",
    "2026-05-01T10:00:00+25:00",
    "1714557600",
    "",
    "2026-05-01T10:00:00 Z",
  ])("rejects %j", (text) => {
    expect(parseDateTime(text).ok).toBe(false);
  });

  it("knows leap years", () => {
    expect(parseDateTime("2028-02-29T10:00:00Z").ok).toBe(true);
    expect(parseDateTime("2027-02-29T10:00:00Z").ok).toBe(false);
    expect(parseDateTime("2100-02-29T10:00:00Z").ok).toBe(false);
  });
});

describe("the range of instants", () => {
  it("refuses instants that fall in year 0 or year 10000 once the offset is applied", () => {
    for (const text of [
      "0001-01-01T00:30:00+01:00",
      "9999-12-31T23:30:00-01:00",
      "0001-01-01T00:00:00+00:01",
      "9999-12-31T23:59:59.999-00:01",
    ]) {
      expect(instant(text)).toBe("Must fall between the years 0001 and 9999 in UTC.");
    }
  });

  it("accepts the first and the last millisecond PostgreSQL can store", () => {
    expect(instant("0001-01-01T01:00:00+01:00")).toBe("0001-01-01T00:00:00.000Z");
    expect(instant("9999-12-31T22:59:59.999-01:00")).toBe("9999-12-31T23:59:59.999Z");
  });
});

describe("event fields", () => {
  const base = { title: "Open Day", starts_at: "2026-05-01T10:00:00+02:00" };
  // What base names, with " Hall " as its location, once read.
  const identity = {
    title: "Open Day",
    startsAt: new Date("2026-05-01T08:00:00Z"),
    startsAtOffset: "+02:00",
    location: "Hall",
  };

  it("trims the identity fields, fills omitted optional fields with empty values and status upcoming", () => {
    const result = parseEventFields({ ...base, title: "  Open Day ", location: " Hall ", unknown: 1 });
    expect(result).toEqual({
      ok: true,
      value: {
        ...identity,
        endsAt: null,
        description: "",
        url: "",
        price: "",
        recurring: "",
        status: "upcoming",
      },
    });
  });

  it("counts characters, not UTF-16 units: 300 emoji make a valid title", () => {
    expect(parseEventFields({ ...base, title: "🎉".repeat(300) }).ok).toBe(true);
    expect(parseEventFields({ ...base, title: "🎉".repeat(301) }).ok).toBe(false);
  });

  it("accepts null for optional fields and recurring", () => {
    const result = parseEventFields({ ...base, recurring: null, ends_at: null, url: null, price: null });
    expect(result.ok).toBe(true);
  });

  it("accepts ends_at equal to starts_at and rejects one before it", () => {
    expect(parseEventFields({ ...base, ends_at: "2026-05-01T08:00:00Z" }).ok).toBe(true);
    expect(parseEventFields({ ...base, ends_at: "2026-05-01T07:59:59Z" })).toEqual({
      ok: false,
      details: [{ field: "ends_at", message: "Must not be before starts_at." }],
    });
  });

  it("accepts only absolute http(s) URLs", () => {
    for (const url of ["https://example.com/e?id=1", "http://example.com"])
      expect(parseEventFields({ ...base, url }).ok).toBe(true);
    for (const url of [
      "javascript:alert(1)",
      "http:example.com",
      "//example.com",
      "ftp://example.com",
      "https://",
      "data:text/html,x",
    ]) {
      expect(parseEventFields({ ...base, url }).ok, url).toBe(false);
    }
  });

  it("rejects NUL characters and unpaired surrogates that the database could not store faithfully", () => {
    expect(parseEventFields({ ...base, title: "a\u0000b" }).ok).toBe(false);
    expect(parseEventFields({ ...base, description: "\ud800" }).ok).toBe(false);
  });

  it("reads only title, starts_at and location for cancel and delete", () => {
    expect(parseEventIdentity({ ...base, location: " Hall ", url: "javascript:alert(1)", status: "nope" })).toEqual({
      ok: true,
      value: identity,
    });
  });
});
