import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { rotateFeedUrlAction } from "@/app/(dashboard)/knowledge/events/calendar-feeds/actions";
import CalendarFeedsPage from "@/app/(dashboard)/knowledge/events/calendar-feeds/page";
import { GET as feedRoute, POST as feedPost } from "@/app/api/v1/events/calendar/[token]/route";
import { db } from "@/lib/platform/db/client";
import { occurrencesBetween, type Occurrence } from "@/lib/events/occurrences";
import type { Recurrence } from "@/lib/events/schema";
import { addMember, createAccount, signedInOwner, type TestAccount } from "../support/factories";
import { renderedText } from "../support/rendered-text";
import { signInAs } from "../support/request-context";

/*
 * The account's events as an iCalendar feed (docs/calendar-feeds.md): the feed parses back with ical.js,
 * and ical.js's expansion of its RRULEs and EXDATEs gives exactly the occurrences of
 * lib/events/occurrences.ts; ETag and 304; a wrong or rotated-away token is the API's plain 404.
 */

const ZONE = "Europe/Berlin";
let owner: TestAccount;
let feedUrl: string;

type Seeded = {
  id: string;
  title: string;
  startsAt: Date;
  endsAt: Date | null;
  recurring: Recurrence;
  exceptions: Set<number>;
};
const seeded = new Map<string, Seeded>();

async function insert(fields: {
  title: string;
  startsAt: string;
  endsAt?: string;
  recurring?: Recurrence;
  status?: string;
  extra?: Record<string, string>;
}) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO events (account_id, title, starts_at, ends_at, recurring, status, description, location, url, price)
     VALUES ($1, $2, $3, $4, $5, $6::"EventStatus", $7, $8, $9, $10) RETURNING id`,
    [
      owner.accountId,
      fields.title,
      fields.startsAt,
      fields.endsAt ?? null,
      fields.recurring ?? "",
      fields.status ?? "upcoming",
      fields.extra?.description ?? "",
      fields.extra?.location ?? "",
      fields.extra?.url ?? "",
      fields.extra?.price ?? "",
    ],
  );
  const event: Seeded = {
    id: rows[0].id,
    title: fields.title,
    startsAt: new Date(fields.startsAt),
    endsAt: fields.endsAt ? new Date(fields.endsAt) : null,
    recurring: fields.recurring ?? "",
    exceptions: new Set(),
  };
  seeded.set(event.id, event);
  return event;
}

async function except(event: Seeded, at: Date, kind: "cancelled" | "deleted") {
  await db.pool.query("INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind) VALUES ($1, $2, $3, $4)", [
    owner.accountId,
    event.id,
    at,
    kind,
  ]);
  event.exceptions.add(at.getTime());
}

const segmentOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

function fetchFeed(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return feedRoute(new Request(url, { headers }), { params: Promise.resolve({ token: segmentOf(url) }) });
}

async function urlOnPage(): Promise<string> {
  const text = renderedText(await CalendarFeedsPage());
  const match = /http:\/\/localhost:3000\/api\/v1\/events\/calendar\/[A-Za-z0-9_-]{43}\.ics/.exec(text);
  expect(match, "the page shows the feed URL").not.toBeNull();
  return match![0];
}

beforeAll(async () => {
  owner = await createAccount("Feed Venue");
  await db.pool.query("UPDATE accounts SET timezone = $2 WHERE id = $1", [owner.accountId, ZONE]);
  // Thursdays 19:00 in Berlin from 5 March 2026: across the spring and autumn DST changes.
  await insert({
    title: "Evening Yoga",
    startsAt: "2026-03-05T18:00:00Z",
    endsAt: "2026-03-05T19:15:00Z",
    recurring: "weekly",
  });
  // 31 January, 10:00 in Berlin: only in months with a 31st.
  await insert({
    title: "Month-end review",
    startsAt: "2026-01-31T09:00:00Z",
    endsAt: "2026-01-31T10:30:00Z",
    recurring: "monthly",
  });
  // 29 February 2024, 20:00 in Berlin, no end: leap years only.
  await insert({ title: "Leap day party", startsAt: "2024-02-29T19:00:00Z", recurring: "yearly" });
  const swim = await insert({
    title: "Morning swim",
    startsAt: "2026-04-01T05:30:00Z",
    endsAt: "2026-04-01T06:30:00Z",
    recurring: "daily",
  });
  const swimSeries = { ...swim, timeZone: ZONE };
  const [, second, , , , , , , , tenth] = occurrencesBetween(
    swimSeries,
    new Date("2026-04-01T00:00:00Z"),
    new Date("2026-04-11T00:00:00Z"),
  );
  await except(swim, second.startsAt, "cancelled");
  await except(swim, tenth.startsAt, "deleted");
  const concert = { title: "Cancelled concert", startsAt: "2026-06-01T18:00:00Z", endsAt: "2026-06-01T20:00:00Z" };
  await insert({ ...concert, status: "cancelled" });
  await insert({
    title: "Open day; tours, talks and a very long title that needs folding across more than one line of the feed",
    startsAt: "2026-05-01T08:00:00Z",
    endsAt: "2026-05-01T16:00:00Z",
    extra: {
      description: "Bring a friend.\nCoffee, tea – free.",
      location: "Main Hall, Building 2",
      url: "https://example.com/open-day",
      price: "Free",
    },
  });
  await signInAs(owner.user);
  feedUrl = await urlOnPage();
});

/** Each VEVENT's occurrences in [from, to) that have not ended at `from`, as ical.js expands them. */
function icalOccurrences(text: string, from: Date, to: Date): Map<string, Occurrence[]> {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const found = new Map<string, Occurrence[]>();
  for (const component of calendar.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    const id = event.uid.split("@")[0];
    const occurrences: Occurrence[] = [];
    const keep = (start: Date, end: Date | null) => {
      const running = end ? end > from : start >= from;
      if (running && start < to) occurrences.push({ startsAt: start, endsAt: end });
    };
    const hasEnd = component.hasProperty("dtend");
    if (event.isRecurring()) {
      const iterator = event.iterator();
      for (let next = iterator.next(); next && next.toJSDate() < to; next = iterator.next()) {
        const details = event.getOccurrenceDetails(next);
        keep(details.startDate.toJSDate(), hasEnd ? details.endDate.toJSDate() : null);
      }
    } else {
      keep(event.startDate.toJSDate(), hasEnd ? event.endDate.toJSDate() : null);
    }
    found.set(id, occurrences);
  }
  return found;
}

describe("the calendar feed", () => {
  it("answers text/calendar that ical.js parses, one VEVENT per event with its fields and a stable UID", async () => {
    const response = await fetchFeed(feedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    const text = await response.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe(ZONE);
    const events = calendar.getAllSubcomponents("vevent");
    expect(events.map((event) => String(event.getFirstPropertyValue("uid"))).sort()).toEqual(
      [...seeded.keys()].map((id) => `${id}@localhost`).sort(),
    );
    const byTitle = (title: string) =>
      events.find((event) => String(event.getFirstPropertyValue("summary")).startsWith(title))!;

    const openDay = byTitle("Open day; tours, talks");
    expect(openDay.getFirstPropertyValue("summary")).toBe(
      [...seeded.values()].find((event) => event.title.startsWith("Open day"))!.title,
    );
    expect(openDay.getFirstPropertyValue("description")).toBe("Bring a friend.\nCoffee, tea – free.\n\nPrice: Free");
    expect(openDay.getFirstPropertyValue("location")).toBe("Main Hall, Building 2");
    expect(openDay.getFirstPropertyValue("url")).toBe("https://example.com/open-day");
    expect(openDay.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(openDay.getFirstProperty("dtstart")!.toICALString()).toBe("DTSTART:20260501T080000Z");
    expect(openDay.getFirstPropertyValue("dtstamp")).toBeTruthy();

    expect(byTitle("Cancelled concert").getFirstPropertyValue("status")).toBe("CANCELLED");
    const yoga = byTitle("Evening Yoga");
    expect(yoga.getFirstProperty("dtstart")!.toICALString()).toBe("DTSTART;TZID=Europe/Berlin:20260305T190000");
    expect(String(yoga.getFirstPropertyValue("rrule"))).toBe("FREQ=WEEKLY");
    const swim = byTitle("Morning swim");
    expect(swim.getAllProperties("exdate").map((property) => property.toICALString())).toEqual([
      "EXDATE;TZID=Europe/Berlin:20260402T073000,20260410T073000",
    ]);
  });

  it("expands, with ical.js, to exactly the occurrences of lib/events/occurrences.ts, over three years", async () => {
    const from = new Date("2026-01-01T00:00:00Z");
    const to = new Date("2029-01-01T00:00:00Z");
    const expanded = icalOccurrences(await (await fetchFeed(feedUrl)).text(), from, to);
    for (const event of seeded.values()) {
      const ours = occurrencesBetween({ ...event, timeZone: ZONE }, from, to, 10_000);
      expect(expanded.get(event.id), event.title).toEqual(ours);
    }
    // The cases the comparison is about are really in it.
    const yoga = expanded.get([...seeded.values()].find((event) => event.title === "Evening Yoga")!.id)!;
    expect(new Set(yoga.map((occurrence) => occurrence.startsAt.toISOString().slice(11, 16)))).toEqual(
      new Set(["18:00", "17:00"]),
    );
    const leap = expanded.get([...seeded.values()].find((event) => event.title === "Leap day party")!.id)!;
    expect(leap.map((occurrence) => occurrence.startsAt.toISOString())).toEqual(["2028-02-29T19:00:00.000Z"]);
    const review = expanded.get([...seeded.values()].find((event) => event.title === "Month-end review")!.id)!;
    expect(review.map((occurrence) => occurrence.startsAt.toISOString().slice(0, 10)).slice(0, 4)).toEqual([
      "2026-01-31",
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
    ]);
  });

  it("answers an ETag, 304 to If-None-Match with it before building anything, a new ETag after a change", async () => {
    const first = await fetchFeed(feedUrl);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const again = await fetchFeed(feedUrl, { "If-None-Match": `"other", W/${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");

    const [yoga] = [...seeded.values()].filter((event) => event.title === "Evening Yoga");
    await db.pool.query("UPDATE events SET location = 'Studio 3', updated_at = now() WHERE id = $1", [yoga.id]);
    const afterEdit = await fetchFeed(feedUrl, { "If-None-Match": etag });
    expect(afterEdit.status).toBe(200);
    const edited = afterEdit.headers.get("ETag")!;
    expect(edited).not.toBe(etag);
    expect(await afterEdit.text()).toContain("LOCATION:Studio 3");

    await db.pool.query(
      "DELETE FROM event_exceptions WHERE account_id = $1 AND occurs_at = (SELECT " +
        "min(occurs_at) FROM event_exceptions WHERE account_id = $1)",
      [owner.accountId],
    );
    const afterRestore = await fetchFeed(feedUrl, { "If-None-Match": edited });
    expect(afterRestore.status).toBe(200);
    expect(afterRestore.headers.get("ETag")).not.toBe(edited);
  });

  it("answers a wrong token with the API's plain 404, whatever its shape", async () => {
    const known = segmentOf(feedUrl);
    const wrong = [
      `${"A".repeat(43)}.ics`,
      `${known.slice(0, -5)}B.ics`,
      known.replace(".ics", ""),
      "x",
      `${known}.ics`,
    ];
    for (const segment of wrong) {
      const response = await feedRoute(new Request(`http://localhost:3000/api/v1/events/calendar/${segment}`), {
        params: Promise.resolve({ token: segment }),
      });
      expect(response.status, segment).toBe(404);
      expect(await response.json()).toEqual({
        ok: false,
        error: { code: "not_found", message: "No API endpoint has this path. Check the URL.", details: [] },
      });
    }
    expect(feedPost().status).toBe(405);
  });

  it("shows the same URL again on the next visit, and records each view in the audit log", async () => {
    expect(await urlOnPage()).toBe(feedUrl);
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action = 'calendar_feed.url_revealed'",
      [owner.accountId],
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(2);
    const sealed = await db.pool.query(
      "SELECT token_hash, token_sealed FROM published_calendars WHERE account_id = $1",
      [owner.accountId],
    );
    const token = segmentOf(feedUrl).replace(".ics", "");
    expect(JSON.stringify(sealed.rows)).not.toContain(token);
  });

  it("lets members see the URL but only owners and admins rotate it", async () => {
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    expect(await urlOnPage()).toBe(feedUrl);
    expect(await rotateFeedUrlAction({})).toMatchObject({ ok: false, error: "Only owners and admins can do this." });
    expect((await fetchFeed(feedUrl)).status).toBe(200);
    await signInAs(owner.user);
  });

  it("rotation makes the old URL a 404 at once, the new one works, and the rotation is audited", async () => {
    const result = await rotateFeedUrlAction({});
    expect(result.ok).toBe(true);
    const rotated = result.ok ? result.data.url : "";
    expect(rotated).not.toBe(feedUrl);
    // The old URL answers exactly as a token that never existed: same status, headers and body.
    const old = await fetchFeed(feedUrl);
    const neverIssued = await fetchFeed(feedUrl.replace(/[^/]+\.ics$/, `${"Q".repeat(43)}.ics`));
    expect(old.status).toBe(404);
    expect([...old.headers]).toEqual([...neverIssued.headers]);
    expect(await old.text()).toBe(await neverIssued.text());
    const fresh = await fetchFeed(rotated);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toContain("BEGIN:VEVENT");
    expect(await urlOnPage()).toBe(rotated);
    const { rows } = await db.pool.query(
      "SELECT actor_id FROM audit_log WHERE account_id = $1 AND action = 'calendar_feed.rotated'",
      [owner.accountId],
    );
    expect(rows).toEqual([{ actor_id: owner.user.id }]);
    feedUrl = rotated;
  });

  it("keeps one account's token away from another account's events", async () => {
    await signedInOwner("Other Venue"); // another account's owner
    const otherUrl = await urlOnPage();
    expect(otherUrl).not.toBe(feedUrl);
    const text = await (await fetchFeed(otherUrl)).text();
    expect(text).not.toContain("BEGIN:VEVENT");
    expect(text).not.toContain("BEGIN:VTIMEZONE");
    await signInAs(owner.user);
  });
});

describe("the calendar feed of an account in an alias zone", () => {
  // Intl accepts these alias names, but the VTIMEZONE block the feed embeds is the canonical zone's.
  for (const [alias, canonical] of [
    ["Asia/Calcutta", "Asia/Kolkata"],
    ["Europe/Kiev", "Europe/Kyiv"],
  ]) {
    it(`writes ${alias}'s series under the TZID its VTIMEZONE declares, so ical.js expands it as we do`, async () => {
      const account = await createAccount(`Alias ${alias}`);
      await db.pool.query("UPDATE accounts SET timezone = $2 WHERE id = $1", [account.accountId, alias]);
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO events (account_id, title, starts_at, ends_at, recurring) VALUES ($1, 'Weekly', $2, $3, 'weekly')
          RETURNING id`,
        [account.accountId, "2026-03-05T13:30:00Z", "2026-03-05T14:30:00Z"],
      );
      await signInAs(account.user);
      const text = await (await fetchFeed(await urlOnPage())).text();
      const calendar = new ICAL.Component(ICAL.parse(text));
      expect(calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe(canonical);
      expect(text).toContain(`DTSTART;TZID=${canonical}:`);
      expect(text).not.toContain(`TZID=${alias}`);

      const from = new Date("2026-01-01T00:00:00Z");
      const to = new Date("2027-01-01T00:00:00Z");
      const series = {
        startsAt: new Date("2026-03-05T13:30:00Z"),
        endsAt: new Date("2026-03-05T14:30:00Z"),
        recurring: "weekly" as const,
      };
      const ours = occurrencesBetween({ ...series, exceptions: new Set<number>(), timeZone: alias }, from, to, 10_000);
      expect(icalOccurrences(text, from, to).get(rows[0].id)).toEqual(ours);
    });
  }
});
