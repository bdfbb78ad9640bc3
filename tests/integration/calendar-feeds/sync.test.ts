import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedJobOf } from "@/lib/calendar-feeds/jobs";
import { syncFeed } from "@/lib/calendar-feeds/sync";
import { createEvent } from "@/lib/events/repository";
import { db } from "@/lib/platform/db/client";
import { calendar, eventsOf, feedServer, followFeed, messageTypes, ownerContext, syncLog, vevent } from "./support";

/*
 * Calendar feeds in (docs/calendar-feeds.md, "Follow a calendar"): a sync mirrors the feed into the
 * account's events through the feed writer, with event.* notifications; unchanged content writes
 * nothing; events that leave the feed are deleted; other writers' events are never touched; the plan's
 * limit stops the sync and says so.
 */

const NOW = new Date("2026-11-26T12:00:00Z");
let server: Awaited<ReturnType<typeof feedServer>>;

const yoga = vevent(
  "UID:yoga@venue",
  "DTSTART;TZID=Europe/Berlin:20261107T090000",
  "DTEND;TZID=Europe/Berlin:20261107T103000",
  "RRULE:FREQ=WEEKLY",
  "EXDATE;TZID=Europe/Berlin:20261121T090000",
  "SUMMARY:Morning Yoga",
  "LOCATION:Studio 2",
  "URL:https://venue.example/yoga",
  "X-UNKNOWN-FIELD:ignored",
);
const yogaCancelledInstance = vevent(
  "UID:yoga@venue",
  "RECURRENCE-ID;TZID=Europe/Berlin:20261128T090000",
  "DTSTART;TZID=Europe/Berlin:20261128T090000",
  "DTEND;TZID=Europe/Berlin:20261128T103000",
  "STATUS:CANCELLED",
  "SUMMARY:Morning Yoga",
);
const concert = vevent(
  "UID:concert@venue",
  "DTSTART:20261205T190000Z",
  "DTEND:20261205T220000Z",
  "SUMMARY:Winter Concert",
  "DESCRIPTION:Strings and choir",
  "LOCATION:Main Hall",
);
const market = vevent("UID:market@venue", "DTSTART;VALUE=DATE:20261212", "SUMMARY:Christmas Market");
const talks = vevent(
  "UID:talks@venue",
  "DTSTART;TZID=Europe/Berlin:20261201T180000",
  "DTEND;TZID=Europe/Berlin:20261201T190000",
  "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4",
  "SUMMARY:Evening Talks",
);

beforeAll(async () => {
  server = await feedServer();
});
afterAll(async () => {
  await server.close();
});

async function setUp(body: string, path = `/feed-${Math.random().toString(36).slice(2)}.ics`) {
  const context = await ownerContext();
  server.serve(path, body);
  const feedId = await followFeed(context, server.url(path));
  return { context, feedId, path };
}

describe("a calendar feed's sync", () => {
  it("brings in one-off events, a series with its exceptions, all-day events and expanded rules", async () => {
    const { context, feedId } = await setUp(calendar(yoga, yogaCancelledInstance, concert, market, talks));
    const outcome = await syncFeed(feedId, { now: NOW });
    expect(outcome).toMatchObject({ ran: true, result: "ok", created: 7, skipped: 0, httpStatus: 200 });

    const events = await eventsOf(context.account.id);
    const summary = events.map((event) => [event.title, event.starts_at.toISOString(), event.recurring, event.status]);
    expect(summary).toEqual([
      ["Morning Yoga", "2026-11-07T08:00:00.000Z", "weekly", "upcoming"],
      ["Evening Talks", "2026-12-01T17:00:00.000Z", "", "upcoming"],
      ["Evening Talks", "2026-12-03T17:00:00.000Z", "", "upcoming"],
      ["Winter Concert", "2026-12-05T19:00:00.000Z", "", "upcoming"],
      ["Evening Talks", "2026-12-08T17:00:00.000Z", "", "upcoming"],
      ["Evening Talks", "2026-12-10T17:00:00.000Z", "", "upcoming"],
      // An all-day date keeps its day in the account's zone (Berlin): midnight to midnight.
      ["Christmas Market", "2026-12-11T23:00:00.000Z", "", "upcoming"],
    ]);
    const series = events[0];
    expect(series.exceptions).toEqual(["deleted 2026-11-21T08:00:00Z", "cancelled 2026-11-28T08:00:00Z"]);
    expect(series).toMatchObject({ location: "Studio 2", url: "https://venue.example/yoga", feed_key: "yoga@venue" });
    expect(series.ends_at?.toISOString()).toBe("2026-11-07T09:30:00.000Z");
    expect(events.find((event) => event.title === "Christmas Market")?.ends_at?.toISOString()).toBe(
      "2026-12-12T23:00:00.000Z",
    );
    expect(events.find((event) => event.title === "Winter Concert")?.description).toBe("Strings and choir");
    expect(await messageTypes(context.account.id)).toEqual(Array(7).fill("event.created"));
    expect(await syncLog(feedId)).toEqual([
      expect.objectContaining({ result: "ok", http_status: 200, created: 7, updated: 0, deleted: 0, error: null }),
    ]);
  });

  it("writes nothing when the content is unchanged, whether the server answers 304 or the same body", async () => {
    const body = calendar(yoga, concert);
    const { context, feedId, path } = await setUp(body);
    await syncFeed(feedId, { now: NOW });
    const before = await eventsOf(context.account.id);
    const messages = (await messageTypes(context.account.id)).length;

    // The server honours If-None-Match: 304.
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "unchanged", httpStatus: 304 });
    // A server without validators sends the same body again: 200, same content.
    server.answers.set(path, (_request, response) =>
      response.writeHead(200, { "content-type": "text/calendar" }).end(body),
    );
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "unchanged", httpStatus: 200, created: 0 });
    // The same events in another order and with another DTSTAMP: mapped again, and still nothing to write.
    const reordered = calendar(concert, [...yoga.slice(0, -1), "DTSTAMP:20261126T101500Z", "END:VEVENT"]);
    server.answers.set(path, (_request, response) => response.writeHead(200).end(reordered));
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", unchanged: 2, created: 0, updated: 0 });

    expect(await eventsOf(context.account.id)).toEqual(before);
    expect(await messageTypes(context.account.id)).toHaveLength(messages);
    expect((await syncLog(feedId)).map((row) => row.result)).toEqual(["ok", "unchanged", "unchanged", "ok"]);
  });

  it("updates changed events, deletes the ones that left the feed, and notifies each change", async () => {
    const { context, feedId, path } = await setUp(calendar(yoga, concert, market));
    await syncFeed(feedId, { now: NOW });
    const movedConcert = vevent(
      "UID:concert@venue",
      "DTSTART:20261206T190000Z",
      "SUMMARY:Winter Concert",
      "LOCATION:Main Hall",
      "STATUS:CANCELLED",
    );
    server.serve(path, calendar(yoga, movedConcert));
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", updated: 1, deleted: 1, unchanged: 1 });
    const events = await eventsOf(context.account.id);
    expect(events.map((event) => [event.title, event.starts_at.toISOString(), event.status])).toEqual([
      ["Morning Yoga", "2026-11-07T08:00:00.000Z", "upcoming"],
      ["Winter Concert", "2026-12-06T19:00:00.000Z", "cancelled"],
    ]);
    expect((await messageTypes(context.account.id)).slice(3).sort()).toEqual(["event.cancelled", "event.deleted"]);
  });

  it("never touches another writer's event: an entry with its title, start and location is skipped", async () => {
    const context = await ownerContext();
    const mine = await createEvent(context.account.id, {
      title: "Winter Concert",
      starts_at: "2026-12-05T19:00:00Z",
      location: "Main Hall",
      description: "Written by hand",
    });
    const other = await createEvent(context.account.id, { title: "Board meeting", starts_at: "2026-12-01T10:00:00Z" });
    expect(mine.ok && other.ok).toBe(true);
    const path = "/clash.ics";
    server.serve(path, calendar(concert, market));
    const feedId = await followFeed(context, server.url(path));
    const outcome = await syncFeed(feedId, { now: NOW });
    expect(outcome).toMatchObject({ result: "partial", created: 1, skipped: 1 });
    expect(outcome.ran && outcome.error).toMatch(/another event of this account already has the same title/);

    // The feed empties: only its own event goes.
    server.serve(path, calendar());
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ deleted: 1 });
    const events = await eventsOf(context.account.id);
    expect(events.map((event) => [event.title, event.description, event.feed_key])).toEqual([
      ["Board meeting", "", null],
      ["Winter Concert", "Written by hand", null],
    ]);
  });

  it("stops at the plan's limit and says so, keeping what fits", async () => {
    const context = await ownerContext("Europe/Berlin", "free");
    await db.pool.query("UPDATE accounts SET event_count = 998 WHERE id = $1::uuid", [context.account.id]);
    const path = "/limit.ics";
    server.serve(path, calendar(yoga, concert, market, talks));
    const feedId = await followFeed(context, server.url(path));
    const outcome = await syncFeed(feedId, { now: NOW });
    expect(outcome).toMatchObject({ result: "limit", created: 2, skipped: 5 });
    expect(outcome.ran && outcome.error).toBe(
      "Stopped at the Free plan's limit of 1,000 events: 5 events of this feed were not imported.",
    );
    expect(await eventsOf(context.account.id)).toHaveLength(2);
    // Not marked as written: the next sync tries again rather than answering "unchanged".
    await db.pool.query("UPDATE accounts SET plan = 'pro' WHERE id = $1::uuid", [context.account.id]);
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 5 });
  });

  it("lets one sync of a feed run at a time", async () => {
    const { feedId, path } = await setUp(calendar(concert));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.answers.set(
      path,
      (_request, response) => void gate.then(() => response.writeHead(200).end(calendar(concert))),
    );
    const first = syncFeed(feedId, { now: NOW });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await syncFeed(feedId, { now: NOW })).toEqual({ ran: false });
    release();
    expect(await first).toMatchObject({ ran: true, created: 1 });
    expect(await syncLog(feedId)).toHaveLength(1);
  });

  it("syncs a feed only in the account its job names; a job of the feed alone finds it by id", async () => {
    const { context, feedId } = await setUp(calendar(concert));
    const other = await ownerContext();
    expect(await syncFeed(feedId, { now: NOW, accountId: other.account.id })).toEqual({ ran: false });
    expect(await syncLog(feedId)).toEqual([]);
    expect(await syncFeed(feedId, { now: NOW, accountId: context.account.id })).toMatchObject({
      ran: true,
      created: 1,
    });
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ ran: true, result: "unchanged" });
  });
});

describe("a sync job's payload", () => {
  const feed = "0b9e7c3a-61f2-4c8e-9d1a-5f3b2a7c4e10";
  const account = "5f3b2a7c-4e10-4c8e-9d1a-0b9e7c3a61f2";

  it("names the feed and its account, or the feed alone as jobs queued before did", () => {
    expect(feedJobOf({ feedId: feed, accountId: account })).toEqual({ feedId: feed, accountId: account });
    expect(feedJobOf({ feedId: feed })).toEqual({ feedId: feed, accountId: null });
    expect(feedJobOf({ feedId: feed, accountId: "not-a-uuid" })).toEqual({ feedId: feed, accountId: null });
    expect(feedJobOf({ feedId: "x", accountId: account })).toBeNull();
    expect(feedJobOf(null)).toBeNull();
  });
});
