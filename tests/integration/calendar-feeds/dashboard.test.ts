import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addCalendarFeedAction,
  deleteCalendarFeedAction,
  listCalendarFeedsAction,
  pauseCalendarFeedAction,
  syncCalendarFeedAction,
} from "@/app/(dashboard)/knowledge/events/calendar-feeds/actions";
import CalendarFeedsPage from "@/app/(dashboard)/knowledge/events/calendar-feeds/page";
import { syncFeed } from "@/lib/calendar-feeds/sync";
import { db } from "@/lib/platform/db/client";
import { addMember } from "../../support/factories";
import { renderedText } from "../../support/rendered-text";
import { signInAs } from "../../support/request-context";
import { calendar, eventsOf, feedServer, messageTypes, ownerContext, vevent } from "./support";

/*
 * Knowledge → Events → Calendar feeds, "Follow a calendar": the actions add, sync, pause, resume and
 * delete feeds of the session's account only (owners and admins), each with its audit entry; the page
 * shows every feed's state and last sync.
 */

let server: Awaited<ReturnType<typeof feedServer>>;
const NOW = new Date("2026-11-26T12:00:00Z");
const body = calendar(vevent("UID:gig@venue", "DTSTART:20261205T190000Z", "SUMMARY:Friday Gig"));

beforeAll(async () => {
  server = await feedServer();
  server.serve("/venue.ics", body);
});
afterAll(async () => {
  await server.close();
});

async function feedsOf(accountId: string) {
  const { rows } = await db.pool.query<{ id: string; name: string; paused: boolean; interval_minutes: number }>(
    "SELECT id, name, paused, interval_minutes FROM calendar_feeds WHERE account_id = $1::uuid",
    [accountId],
  );
  return rows;
}

/** A feed's audit actions, in order, by their verbs. */
const feedAudit = (...verbs: string[]) => verbs.map((verb) => `calendar_feed.${verb}`);

async function auditActions(accountId: string) {
  const { rows } = await db.pool.query<{ action: string }>(
    `SELECT action FROM audit_log WHERE account_id = $1::uuid AND action LIKE 'calendar_feed.%'
       AND action <> 'calendar_feed.url_revealed' ORDER BY created_at`,
    [accountId],
  );
  return rows.map((row) => row.action);
}

describe("Follow a calendar", () => {
  it("adds, syncs, pauses, resumes and deletes a feed, keeping or removing its events", async () => {
    const context = await ownerContext();
    await signInAs(context.user);
    expect(renderedText(await CalendarFeedsPage())).toContain(`"initialFeeds":[]`);

    const added = await addCalendarFeedAction({ name: "Venue", url: server.url("/venue.ics"), intervalMinutes: "30" });
    expect(added).toMatchObject({ ok: true });
    const [feed] = await feedsOf(context.account.id);
    expect(feed).toMatchObject({ name: "Venue", paused: false, interval_minutes: 30 });
    expect(await syncFeed(feed.id, { now: NOW })).toMatchObject({ created: 1 });

    const page = renderedText(await CalendarFeedsPage());
    expect(page).toContain("Venue");
    expect(page).toContain("1 added");
    expect(page).toContain("Synced every 30 minutes");
    // The section reloads itself through an action, without a page render (which audits a view of the feed URL).
    const views = async () =>
      (
        await db.pool.query(
          "SELECT 1 FROM audit_log WHERE account_id = $1::uuid AND action = 'calendar_feed.url_revealed'",
          [context.account.id],
        )
      ).rowCount;
    const viewed = await views();
    const listed = await listCalendarFeedsAction({});
    expect(listed.ok && listed.data.map((row) => [row.name, row.state, row.eventCount, row.lastSync?.summary])).toEqual(
      [["Venue", "ok", 1, "1 added"]],
    );
    expect(await views()).toBe(viewed);

    expect(await syncCalendarFeedAction({ feedId: feed.id })).toMatchObject({ ok: true });
    expect(await pauseCalendarFeedAction({ feedId: feed.id, paused: true })).toMatchObject({ ok: true });
    expect(renderedText(await CalendarFeedsPage())).toContain('"state":"paused"');
    expect(await syncFeed(feed.id, { now: NOW })).toEqual({ ran: false });
    expect(await syncCalendarFeedAction({ feedId: feed.id })).toEqual({
      ok: false,
      error: "This feed is paused: resume it to sync.",
    });
    expect(await pauseCalendarFeedAction({ feedId: feed.id, paused: false })).toMatchObject({ ok: true });

    expect(await deleteCalendarFeedAction({ feedId: feed.id, events: "keep" })).toEqual({
      ok: true,
      data: { message: "Feed deleted; its 1 event stay as your own." },
    });
    expect(await feedsOf(context.account.id)).toEqual([]);
    const kept = await eventsOf(context.account.id);
    expect(kept.map((event) => [event.title, event.feed_key])).toEqual([["Friday Gig", null]]);
    expect(await auditActions(context.account.id)).toEqual(feedAudit("added", "paused", "resumed", "deleted"));
  });

  it("removes the feed's events, and only those, when asked to", async () => {
    const context = await ownerContext();
    await signInAs(context.user);
    await addCalendarFeedAction({ name: "Venue", url: server.url("/venue.ics"), intervalMinutes: "15" });
    const [feed] = await feedsOf(context.account.id);
    await syncFeed(feed.id, { now: NOW });
    await db.pool.query("INSERT INTO events (account_id, title, starts_at) VALUES ($1::uuid, 'Own event', now())", [
      context.account.id,
    ]);
    expect(await deleteCalendarFeedAction({ feedId: feed.id, events: "remove" })).toMatchObject({ ok: true });
    expect((await eventsOf(context.account.id)).map((event) => event.title)).toEqual(["Own event"]);
    expect(await messageTypes(context.account.id)).toEqual(["event.created", "event.deleted"]);
  });

  it("refuses URLs that are not public https with the reason on the URL field", async () => {
    const context = await ownerContext();
    await signInAs(context.user);
    const refused = await addCalendarFeedAction({ name: "Venue", url: "http://calendar.example.com/a.ics" });
    expect(refused).toEqual({
      ok: false,
      error: "Use an https:// feed URL: plain http, file: and other schemes are not allowed.",
      fieldErrors: { url: ["Use an https:// feed URL: plain http, file: and other schemes are not allowed."] },
    });
    expect(await addCalendarFeedAction({ name: "", url: "https://x.example/a.ics" })).toMatchObject({
      ok: false,
      fieldErrors: { name: ["Give the feed a name."] },
    });
    expect(
      await addCalendarFeedAction({ name: "Venue", url: server.url("/venue.ics"), intervalMinutes: "2" }),
    ).toMatchObject({
      ok: false,
      fieldErrors: { intervalMinutes: ["Sync at most every 5 minutes."] },
    });
  });

  it("lets members read the feeds but not change them, and never reaches another account's feed", async () => {
    const context = await ownerContext();
    await signInAs(context.user);
    await addCalendarFeedAction({ name: "Venue", url: server.url("/venue.ics") });
    const [feed] = await feedsOf(context.account.id);

    const member = await addMember(context.account.id, "member");
    await signInAs(member);
    expect(renderedText(await CalendarFeedsPage())).toContain("Venue");
    expect(await syncCalendarFeedAction({ feedId: feed.id })).toEqual({
      ok: false,
      error: "Only owners and admins can do this.",
    });

    const stranger = await ownerContext();
    await signInAs(stranger.user);
    expect(await deleteCalendarFeedAction({ feedId: feed.id, events: "remove" })).toMatchObject({ ok: false });
    expect(await pauseCalendarFeedAction({ feedId: feed.id, paused: true })).toMatchObject({ ok: false });
    expect(await feedsOf(context.account.id)).toHaveLength(1);
  });
});
