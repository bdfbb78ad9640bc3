import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestSync } from "@/lib/calendar-feeds/store";
import { enqueueDueFeeds } from "@/lib/calendar-feeds/worker";
import type { JobRunner } from "@/lib/platform/db/job-runner";
import { startBackgroundJobs } from "@/lib/server/background-jobs";
import { db } from "@/lib/platform/db/client";
import { calendar, eventsOf, feedServer, followFeed, ownerContext, syncLog, vevent } from "./support";

/*
 * Feeds are synced by graphile-worker jobs (lib/calendar-feeds/worker.ts): due feeds are queued, each is
 * synced once with a log row, a feed that fails leaves the worker running, and "Sync now" is picked up.
 */

let server: Awaited<ReturnType<typeof feedServer>>;
let worker: JobRunner;

beforeAll(async () => {
  server = await feedServer();
  worker = await startBackgroundJobs({ connectionString: process.env.DATABASE_URL, pollIntervalMs: 100 });
});
afterAll(async () => {
  await worker.stop();
  await server.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the calendar feed worker", () => {
  it("syncs due feeds on the job queue, keeps running after a failing one, and picks up Sync now", async () => {
    const context = await ownerContext();
    server.serve("/good.ics", calendar(vevent("UID:a@venue", "DTSTART:20261205T190000Z", "SUMMARY:Gig")));
    server.answers.set("/broken.ics", (_q, r) => r.writeHead(500).end());
    const broken = await followFeed(context, server.url("/broken.ics"), "Broken");
    const good = await followFeed(context, server.url("/good.ics"), "Good");
    await enqueueDueFeeds();

    expect(
      (
        await until(
          () => syncLog(broken),
          (rows) => rows.length > 0,
        )
      )[0],
    ).toMatchObject({ result: "failed" });
    expect(
      (
        await until(
          () => syncLog(good),
          (rows) => rows.length > 0,
        )
      )[0],
    ).toMatchObject({ result: "ok", created: 1 });
    expect(await eventsOf(context.account.id)).toHaveLength(1);

    // Not due again for 15 minutes: queuing due feeds leaves them alone.
    await enqueueDueFeeds();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await syncLog(good)).toHaveLength(1);

    server.serve("/good.ics", calendar(vevent("UID:a@venue", "DTSTART:20261205T190000Z", "SUMMARY:Gig (sold out)")));
    expect(await requestSync(context, good)).toEqual({ ok: true });
    const rows = await until(
      () => syncLog(good),
      (list) => list.length > 1,
    );
    expect(rows[1]).toMatchObject({ result: "ok", updated: 1 });
    const { rows: feeds } = await db.pool.query("SELECT sync_lease FROM calendar_feeds WHERE id = ANY($1::uuid[])", [
      [good, broken],
    ]);
    expect(feeds).toEqual([{ sync_lease: null }, { sync_lease: null }]);
  });
});
