import { describe, expect, it } from "vitest";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { findDateRange } from "@/lib/assistant/dates";
import { fold } from "@/lib/assistant/text";

// "now"s: Wed 10 June 2026 (Berlin), Sun 14 June 2026, Sat 31 Jan 2026 (a month end), the DST days.
const WED = "2026-06-10T10:00:00Z";
const SUN = "2026-06-14T10:00:00Z";
const SAT_MONTH_END = "2026-01-31T12:00:00Z";
const BERLIN = "Europe/Berlin";

type Case = [question: string, from: string, to: string, label: string];
type Row = [question: string, now: string, zone: string, from: string, to: string, label: string];

/** The questions asked at one moment in one zone. */
const at = (now: string, zone: string, cases: Case[]): Row[] =>
  cases.map(([question, from, to, label]) => [question, now, zone, from, to, label]);

const rows: Row[] = [
  ...at(WED, BERLIN, [
    ["today", "2026-06-09T22:00:00Z", "2026-06-10T22:00:00Z", "today, Wed 10 June"],
    ["tonight", "2026-06-10T15:00:00Z", "2026-06-10T22:00:00Z", "tonight, Wed 10 June"],
    ["tomorrow", "2026-06-10T22:00:00Z", "2026-06-11T22:00:00Z", "tomorrow, Thu 11 June"],
    ["tomorrow night", "2026-06-11T15:00:00Z", "2026-06-11T22:00:00Z", "tomorrow evening, Thu 11 June"],
    ["this weekend", "2026-06-12T22:00:00Z", "2026-06-14T22:00:00Z", "this weekend, Sat 13 – Sun 14 June"],
    ["next weekend", "2026-06-19T22:00:00Z", "2026-06-21T22:00:00Z", "next weekend, Sat 20 – Sun 21 June"],
    ["on Friday", "2026-06-11T22:00:00Z", "2026-06-12T22:00:00Z", "on Fri 12 June"],
    ["wednesday", "2026-06-09T22:00:00Z", "2026-06-10T22:00:00Z", "on Wed 10 June"],
    ["next Friday", "2026-06-18T22:00:00Z", "2026-06-19T22:00:00Z", "on Fri 19 June"],
    ["saturday evening", "2026-06-13T15:00:00Z", "2026-06-13T22:00:00Z", "on the evening of Sat 13 June"],
    ["friday or saturday", "2026-06-11T22:00:00Z", "2026-06-13T22:00:00Z", "on Fri 12 June or on Sat 13 June"],
    ["in May", "2027-04-30T22:00:00Z", "2027-05-31T22:00:00Z", "in May 2027"],
    ["in june", "2026-05-31T22:00:00Z", "2026-06-30T22:00:00Z", "in June 2026"],
    ["august", "2026-07-31T22:00:00Z", "2026-08-31T22:00:00Z", "in August 2026"],
    ["on 12 June", "2026-06-11T22:00:00Z", "2026-06-12T22:00:00Z", "on Fri 12 June"],
    ["June 12th", "2026-06-11T22:00:00Z", "2026-06-12T22:00:00Z", "on Fri 12 June"],
    ["the 3rd of June", "2027-06-02T22:00:00Z", "2027-06-03T22:00:00Z", "on Thu 3 June 2027"],
    ["12 june 2027", "2027-06-11T22:00:00Z", "2027-06-12T22:00:00Z", "on Sat 12 June 2027"],
    ["2026-07-01", "2026-06-30T22:00:00Z", "2026-07-01T22:00:00Z", "on Wed 1 July"],
    ["am 12.6.", "2026-06-11T22:00:00Z", "2026-06-12T22:00:00Z", "on Fri 12 June"],
    ["this month", "2026-05-31T22:00:00Z", "2026-06-30T22:00:00Z", "this month, June 2026"],
    ["in 3 days", "2026-06-12T22:00:00Z", "2026-06-13T22:00:00Z", "in 3 days, Sat 13 June"],
    ["in two weeks", "2026-06-21T22:00:00Z", "2026-06-28T22:00:00Z", "in 2 weeks, Mon 22 – Sun 28 June"],
    ["the next 7 days", "2026-06-09T22:00:00Z", "2026-06-16T22:00:00Z", "in the next 7 days, Wed 10 – Tue 16 June"],
  ]),
  ...at(SUN, BERLIN, [
    ["this weekend", "2026-06-13T22:00:00Z", "2026-06-14T22:00:00Z", "this weekend, Sun 14 June"],
    ["next weekend", "2026-06-19T22:00:00Z", "2026-06-21T22:00:00Z", "next weekend, Sat 20 – Sun 21 June"],
    ["this week", "2026-06-07T22:00:00Z", "2026-06-14T22:00:00Z", "this week, Mon 8 – Sun 14 June"],
    ["next week", "2026-06-14T22:00:00Z", "2026-06-21T22:00:00Z", "next week, Mon 15 – Sun 21 June"],
  ]),
  // A month end: tomorrow is in the next month, next month is February, this week crosses into it.
  ...at(SAT_MONTH_END, BERLIN, [
    ["tomorrow", "2026-01-31T23:00:00Z", "2026-02-01T23:00:00Z", "tomorrow, Sun 1 February"],
    ["next month", "2026-01-31T23:00:00Z", "2026-02-28T23:00:00Z", "next month, February 2026"],
    ["this weekend", "2026-01-30T23:00:00Z", "2026-02-01T23:00:00Z", "this weekend, Sat 31 January – Sun 1 February"],
  ]),
  ...at("2026-12-15T12:00:00Z", "UTC", [
    ["next month", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z", "next month, January 2027"],
  ]),
  // DST: Berlin springs forward on Sun 29 March 2026 (a 23-hour day) and falls back on Sun 25 October (25 hours).
  ...at("2026-03-29T09:00:00Z", BERLIN, [
    ["today", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z", "today, Sun 29 March"],
  ]),
  ...at("2026-03-27T09:00:00Z", BERLIN, [
    ["this weekend", "2026-03-27T23:00:00Z", "2026-03-29T22:00:00Z", "this weekend, Sat 28 – Sun 29 March"],
  ]),
  ...at("2026-10-25T09:00:00Z", BERLIN, [
    ["today", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z", "today, Sun 25 October"],
  ]),
  // New York: spring forward Sun 8 March 2026, fall back Sun 1 November 2026.
  ...at("2026-03-08T15:00:00Z", "America/New_York", [
    ["tonight", "2026-03-08T21:00:00Z", "2026-03-09T04:00:00Z", "tonight, Sun 8 March"],
  ]),
  ...at("2026-10-31T15:00:00Z", "America/New_York", [
    ["tomorrow", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z", "tomorrow, Sun 1 November"],
  ]),
  ...at("2026-03-04T15:00:00Z", "America/New_York", [
    ["next week", "2026-03-09T04:00:00Z", "2026-03-16T04:00:00Z", "next week, Mon 9 – Sun 15 March"],
  ]),
  // The local day, not the UTC day: 23:30 UTC on Wednesday is already Thursday in Tokyo, still Wednesday in Los
  // Angeles.
  ...at("2026-06-10T23:30:00Z", "Asia/Tokyo", [
    ["today", "2026-06-10T15:00:00Z", "2026-06-11T15:00:00Z", "today, Thu 11 June"],
  ]),
  ...at("2026-06-10T23:30:00Z", "America/Los_Angeles", [
    ["today", "2026-06-10T07:00:00Z", "2026-06-11T07:00:00Z", "today, Wed 10 June"],
  ]),
  ...at("2026-06-10T23:30:00Z", "Pacific/Auckland", [
    ["on friday", "2026-06-11T12:00:00Z", "2026-06-12T12:00:00Z", "on Fri 12 June"],
  ]),
];

describe("date expressions in the account's time zone", () => {
  it.each(rows)("reads %j at %s in %s", (question, now, zone, from, to, label) => {
    const match = findDateRange(fold(question), new Date(now), zone);
    expect(match?.range).toEqual({ from: new Date(from), to: new Date(to), label });
  });

  it.each(["jazz night", "may I bring a friend?", "12/6", "room 101", "the 31st", ""])(
    "finds no date in %j",
    (question) => {
      expect(findDateRange(fold(question), new Date(WED), BERLIN)).toBeNull();
    },
  );

  it("reports the spans it read so they can be removed from the topic", () => {
    const text = fold("Jazz this weekend?");
    const match = findDateRange(text, new Date(WED), BERLIN);
    expect(match?.spans.map(([start, end]) => text.slice(start, end))).toEqual(["this weekend"]);
  });
});

describe("the account's time zone", () => {
  it("keeps a zone Intl knows and falls back to UTC for one it does not, the same on every call", () => {
    for (let call = 0; call < 3; call++) {
      expect(safeTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
      expect(safeTimeZone("Mars/Olympus_Mons")).toBe("UTC");
      expect(safeTimeZone("")).toBe("UTC");
      expect(safeTimeZone(null)).toBe("UTC");
    }
  });
});
