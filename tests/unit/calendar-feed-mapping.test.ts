import { describe, expect, it } from "vitest";
import { parseFeed } from "@/lib/calendar-feeds/parse";

/*
 * How a followed calendar's VEVENTs map to the account's events (docs/calendar-feeds.md, "How a feed maps
 * to events"): which rules stay series, which are expanded, zones, all-day dates, instances and the fields.
 */

const NOW = new Date("2026-11-26T12:00:00Z");

function map(lines: string[], timeZone = "Europe/Berlin") {
  const body = ["BEGIN:VCALENDAR", "VERSION:2.0", ...lines, "END:VCALENDAR", ""].join("\r\n");
  const parsed = parseFeed(Buffer.from(body), "text/calendar", { timeZone, now: NOW });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed;
}

const event = (...lines: string[]) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"];

describe("a repeat rule", () => {
  it.each([
    ["FREQ=WEEKLY", "weekly"],
    ["FREQ=DAILY", "daily"],
    ["FREQ=WEEKLY;BYDAY=SA", "weekly"],
    ["FREQ=MONTHLY;BYMONTHDAY=7", "monthly"],
    ["FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=7", "yearly"],
    ["FREQ=WEEKLY;WKST=MO", "weekly"],
  ])("%s on the start's own day stays one series (%s)", (rule, recurring) => {
    const { items } = map(event("UID:s", "DTSTART;TZID=Europe/Berlin:20261107T090000", `RRULE:${rule}`, "SUMMARY:S"));
    expect(items.map((item) => [item.key, item.input.recurring])).toEqual([["s", recurring]]);
  });

  it.each([
    "FREQ=WEEKLY;INTERVAL=2",
    "FREQ=WEEKLY;COUNT=3",
    "FREQ=WEEKLY;UNTIL=20261231T000000Z",
    "FREQ=WEEKLY;BYDAY=MO",
    "FREQ=WEEKLY;BYDAY=SA,SU",
    "FREQ=MONTHLY;BYDAY=1SA",
  ])("%s is expanded into single events for the coming year", (rule) => {
    const { items } = map(event("UID:x", "DTSTART;TZID=Europe/Berlin:20261128T090000", `RRULE:${rule}`, "SUMMARY:X"));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.input.recurring === "" && item.key.startsWith("x\u001f"))).toBe(true);
    const last = items.at(-1)!.input.startsAt.getTime();
    expect(last).toBeLessThanOrEqual(NOW.getTime() + 365 * 86_400_000);
  });

  it("in a zone whose clock changes on other days than the account's is expanded, so no occurrence moves", () => {
    const { items } = map(
      event("UID:ny", "DTSTART;TZID=America/New_York:20261107T090000", "RRULE:FREQ=WEEKLY", "SUMMARY:NY"),
    );
    expect(items[0].input.recurring).toBe("");
    // 09:00 in New York every week, across both zones' DST changes in March.
    const march = items.filter((item) => item.input.startsAt.toISOString().startsWith("2027-03"));
    expect(march.map((item) => item.input.startsAt.toISOString().slice(11, 16))).toEqual(
      march.map((item) => (item.input.startsAt.getTime() < Date.parse("2027-03-14T07:00:00Z") ? "14:00" : "13:00")),
    );
  });

  it("in UTC stays a series for an account in UTC", () => {
    const { items } = map(event("UID:u", "DTSTART:20261107T090000Z", "RRULE:FREQ=DAILY", "SUMMARY:U"), "UTC");
    expect(items.map((item) => item.input.recurring)).toEqual(["daily"]);
  });

  it("that repeats hourly has more than 1,000 occurrences in a year and is skipped", () => {
    const parsed = map(event("UID:h", "DTSTART:20261127T090000Z", "RRULE:FREQ=HOURLY", "SUMMARY:Hourly"));
    expect(parsed.items).toEqual([]);
    expect(parsed.problems).toEqual(['"Hourly" (UID h) repeats more than 1,000 times in the next 365 days; skipped.']);
    expect([...parsed.skippedUids]).toEqual(["h"]);
  });
});

describe("instances of a series", () => {
  it("a changed one becomes a deleted occurrence and an event of its own", () => {
    const { items } = map([
      ...event("UID:y", "DTSTART;TZID=Europe/Berlin:20261107T090000", "RRULE:FREQ=WEEKLY", "SUMMARY:Yoga"),
      ...event(
        "UID:y",
        "RECURRENCE-ID;TZID=Europe/Berlin:20261205T090000",
        "DTSTART;TZID=Europe/Berlin:20261205T110000",
        "SUMMARY:Yoga (late)",
      ),
    ]);
    expect(items.map((item) => [item.key, item.input.title, item.input.startsAt.toISOString()])).toEqual([
      ["y\u001f2026-12-05T08:00:00.000Z", "Yoga (late)", "2026-12-05T10:00:00.000Z"],
      ["y", "Yoga", "2026-11-07T08:00:00.000Z"],
    ]);
    expect(items[1].exceptions).toEqual([{ occursAt: new Date("2026-12-05T08:00:00Z"), kind: "deleted" }]);
  });

  it("an EXDATE that is no occurrence of the series is ignored", () => {
    const { items } = map(
      event(
        "UID:y",
        "DTSTART;TZID=Europe/Berlin:20261107T090000",
        "RRULE:FREQ=WEEKLY",
        "EXDATE;TZID=Europe/Berlin:20261208T090000",
        "SUMMARY:Yoga",
      ),
    );
    expect(items[0].exceptions).toEqual([]);
  });
});

describe("times and fields", () => {
  it("reads a floating time on the account's clock, and an Outlook zone name by the feed's VTIMEZONE", () => {
    const { items } = map([
      "BEGIN:VTIMEZONE",
      "TZID:W. Europe Standard Time",
      "BEGIN:STANDARD",
      "DTSTART:16010101T030000",
      "TZOFFSETFROM:+0200",
      "TZOFFSETTO:+0100",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:16010101T020000",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0200",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
      "END:DAYLIGHT",
      "END:VTIMEZONE",
      ...event("UID:f", "DTSTART:20261201T100000", "SUMMARY:Floating"),
      ...event("UID:o", "DTSTART;TZID=W. Europe Standard Time:20260701T100000", "SUMMARY:Outlook"),
    ]);
    expect(
      items.map((item) => [item.input.title, item.input.startsAt.toISOString(), item.input.startsAtOffset]),
    ).toEqual([
      ["Floating", "2026-12-01T09:00:00.000Z", "+01:00"],
      ["Outlook", "2026-07-01T08:00:00.000Z", "+02:00"],
    ]);
  });

  it("maps SUMMARY, DESCRIPTION, LOCATION, URL and STATUS, and keeps within the event's limits", () => {
    const { items } = map([
      ...event(
        "UID:a",
        "DTSTART:20261201T100000Z",
        "DURATION:PT90M",
        `SUMMARY:${"Long ".repeat(100)}`,
        "DESCRIPTION:Line one\\nLine two",
        "LOCATION:Hall\\, East",
        "URL:javascript:alert(1)",
        "STATUS:CANCELLED",
        "ATTENDEE:mailto:someone@example.com",
      ),
      ...event("UID:b", "DTSTART:20261202T100000Z"),
    ]);
    const [a, b] = items.map((item) => item.input);
    expect(a.title).toHaveLength(300);
    expect(a.title.endsWith("…")).toBe(true);
    expect(a).toMatchObject({
      description: "Line one\nLine two",
      location: "Hall, East",
      url: "",
      status: "cancelled",
    });
    expect(a.endsAt?.toISOString()).toBe("2026-12-01T11:30:00.000Z");
    expect(b).toMatchObject({ title: "(No title)", endsAt: null, status: "upcoming" });
  });

  it("keeps the first of two entries with the same UID, or with the same title, start and location", () => {
    const parsed = map([
      ...event("UID:d", "DTSTART:20261201T100000Z", "SUMMARY:First"),
      ...event("UID:d", "DTSTART:20261202T100000Z", "SUMMARY:Second"),
      ...event("UID:e", "DTSTART:20261201T100000Z", "SUMMARY:First"),
    ]);
    expect(parsed.items.map((item) => item.key)).toEqual(["d"]);
    expect(parsed.problems).toEqual([
      "UID d appears twice; the second was skipped.",
      '"First" at 2026-12-01T10:00:00.000Z appears twice in the feed; kept once.',
    ]);
  });
});
