import { beforeAll, describe, expect, it } from "vitest";
import EventsPage from "@/app/(dashboard)/knowledge/events/page";
import { db } from "@/lib/platform/db/client";
import { listEvents } from "@/lib/events/list";
import { createAccount, type TestAccount } from "../support/factories";
import { everyPage } from "../support/pages";
import { renderedText } from "../support/rendered-text";
import { signInAs } from "../support/request-context";

/*
 * All Events reads recurring series as what they are (docs/recurring-events.md): a series whose first
 * occurrence is long past is upcoming, and its row says how it repeats and when it next occurs.
 */

let owner: TestAccount;

async function insert(title: string, startsAt: string, recurring = "", status = "upcoming") {
  await db.pool.query(
    `INSERT INTO events (account_id, title, starts_at, recurring, status) VALUES ($1, $2, $3, $4, $5::"EventStatus")`,
    [owner.accountId, title, startsAt, recurring, status],
  );
}

beforeAll(async () => {
  owner = await createAccount("Series Venue");
  await db.pool.query("UPDATE accounts SET timezone = 'Europe/Berlin' WHERE id = $1", [owner.accountId]);
  // Saturday 31 October 2026, 09:00 in Berlin; five weeks before the pages below are read.
  await insert("Morning Yoga", "2026-10-31T08:00:00Z", "weekly");
  await insert("Choir rehearsal", "2026-10-29T18:00:00Z", "weekly", "cancelled");
  await insert("Old lecture", "2026-10-01T18:00:00Z");
  await insert("Winter concert", "2027-01-15T19:00:00Z");
  for (let day = 1; day <= 60; day++)
    await insert(`Workshop ${day}`, new Date(Date.UTC(2027, 1, day, 10)).toISOString());
});

describe("All Events and recurring series", () => {
  const now = new Date("2026-12-03T09:00:00Z");

  it("counts a series begun in the past as upcoming and keeps one-off past events out", async () => {
    const upcoming = await listEvents(owner.accountId, { when: "upcoming", now, limit: 4 });
    expect(upcoming.items.map((event) => event.title)).toEqual([
      "Choir rehearsal",
      "Morning Yoga",
      "Winter concert",
      "Workshop 1",
    ]);
    const past = await listEvents(owner.accountId, { when: "past", now });
    expect(past.items.map((event) => event.title)).toEqual(["Old lecture"]);
  });

  it("pages through upcoming events and series by keyset without repeating or losing a row", async () => {
    const pages = await everyPage(
      (cursor) => listEvents(owner.accountId, { when: "upcoming", now, limit: 7, cursor }),
      (page) => page.nextCursor,
    );
    const seen = pages.flatMap((page) => page.items.map((event) => event.title));
    expect(seen).toHaveLength(63);
    expect(new Set(seen).size).toBe(63);
    expect(seen.slice(0, 3)).toEqual(["Choir rehearsal", "Morning Yoga", "Winter concert"]);
  });

  it("shows how a series repeats and its next occurrence in the account's zone", async () => {
    await signInAs(owner.user);
    const text = renderedText(await EventsPage({ searchParams: Promise.resolve({ q: "yoga" }) }));
    expect(text).toMatch(/Repeats weekly · next Sat \d+ \w{3}, 09:00/);
    const cancelled = renderedText(await EventsPage({ searchParams: Promise.resolve({ q: "choir" }) }));
    expect(cancelled).toContain("Repeats weekly · series cancelled");
    expect(cancelled).not.toContain("Repeats weekly · next");
  });
});
