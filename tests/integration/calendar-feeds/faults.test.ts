import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFeeds } from "@/lib/calendar-feeds/list";
import { addFeed } from "@/lib/calendar-feeds/store";
import { syncFeed } from "@/lib/calendar-feeds/sync";
import { parseFeed } from "@/lib/calendar-feeds/parse";
import { writeFeedEvents } from "@/lib/events/feed-writer";
import { db } from "@/lib/platform/db/client";
import { calendar, eventsOf, feedServer, followFeed, messageTypes, ownerContext, syncLog, vevent } from "./support";

/*
 * Bad input and faults of calendar feeds (issue 28), on loopback receivers: each failed or malformed fetch
 * leaves its sync-log error in words and changes nothing the feed brought in before; a VEVENT that cannot
 * be read is skipped and named while the rest is written; URLs that are not public https are refused with
 * their code.
 */

const NOW = new Date("2026-11-26T12:00:00Z");
let server: Awaited<ReturnType<typeof feedServer>>;

const concert = vevent("UID:concert@venue", "DTSTART:20261205T190000Z", "SUMMARY:Winter Concert");
const good = calendar(concert, vevent("UID:market@venue", "DTSTART;VALUE=DATE:20261212", "SUMMARY:Christmas Market"));

beforeAll(async () => {
  server = await feedServer();
});
afterAll(async () => {
  await server.close();
});

/** A feed that synced `good` once; then its server answers with `fault`. */
async function afterGoodSync(fault: Parameters<typeof server.answers.set>[1]) {
  const context = await ownerContext();
  const path = `/feed-${Math.random().toString(36).slice(2)}.ics`;
  server.answers.set(path, (_request, response) =>
    response.writeHead(200, { "content-type": "text/calendar" }).end(good),
  );
  const feedId = await followFeed(context, server.url(path));
  expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 2 });
  const before = await eventsOf(context.account.id);
  const messages = await messageTypes(context.account.id);
  server.answers.set(path, fault);
  return { context, feedId, path, before, messages };
}

const HUGE = 20 * 1024 * 1024;

const faults: Array<[string, Parameters<typeof server.answers.set>[1], RegExp, number | null]> = [
  ["a 404", (_q, r) => r.writeHead(404).end("gone"), /^The server answered 404 \(Not Found\)\.$/, 404],
  ["a 500", (_q, r) => r.writeHead(500).end("oops"), /^The server answered 500 \(Internal Server Error\)\.$/, 500],
  [
    "a stall",
    (_q, r) => r.writeHead(200).write("BEGIN:VCALENDAR\r\n"),
    /did not send the feed within 0\.5 seconds/,
    200,
  ],
  [
    "an HTML page",
    (_q, r) => r.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>Sign in</p>"),
    /^This is not an iCalendar file: the server sent a web page \(HTML\)\.$/,
    200,
  ],
  ["plain text", (_q, r) => r.writeHead(200).end("hello"), /^This is not an iCalendar file\.$/, 200],
  [
    "a truncated file",
    (_q, r) => r.writeHead(200).end(good.slice(0, good.length - 30)),
    /^The feed is incomplete: it ends before END:VCALENDAR/,
    200,
  ],
  [
    "invalid UTF-8",
    (_q, r) =>
      r
        .writeHead(200)
        .end(Buffer.concat([Buffer.from(good.slice(0, 60)), Buffer.from([0xc3, 0x28]), Buffer.from(good.slice(60))])),
    /^The feed is not valid UTF-8 text/,
    200,
  ],
  [
    "a 20 MB body sent in chunks",
    (_q, r) => {
      r.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, "A");
      let sent = 0;
      const more = () => {
        while (sent < HUGE && !r.destroyed) {
          sent += chunk.length;
          if (!r.write(chunk)) return void r.once("drain", more);
        }
        r.end();
      };
      more();
    },
    /^The feed is over 5 MiB\.$/,
    200,
  ],
  [
    "a 20 MB body announced by Content-Length",
    (_q, r) => r.writeHead(200, { "content-length": String(HUGE) }).write("BEGIN:VCALENDAR"),
    /^The feed is over 5 MiB \(the server announced 20 MiB\)\.$/,
    200,
  ],
  [
    "a redirect to a private address",
    (_q, r) => r.writeHead(302, { location: "http://10.0.0.1/feed.ics" }).end(),
    /^Refused: the feed redirected to http:\/\/10\.0\.0\.1, which is not a public https address\.$/,
    302,
  ],
  [
    "a redirect to the cloud metadata address",
    (_q, r) => r.writeHead(301, { location: "https://169.254.169.254/latest/meta-data" }).end(),
    /^Refused: the feed redirected to https:\/\/169\.254\.169\.254/,
    301,
  ],
  [
    "a redirect loop",
    (q, r) => r.writeHead(307, { location: q.url ?? "/" }).end(),
    /^The feed redirected more than 3 times\.$/,
    307,
  ],
];

describe("a feed fetch that fails", () => {
  it.each(faults)("leaves its error in the sync log and changes nothing: %s", async (_name, fault, error, status) => {
    const { context, feedId, before, messages } = await afterGoodSync(fault);
    const outcome = await syncFeed(feedId, { now: NOW, timeoutMs: 500 });
    expect(outcome).toMatchObject({ ran: true, result: "failed", httpStatus: status, created: 0, deleted: 0 });
    const log = await syncLog(feedId);
    expect(log).toHaveLength(2);
    expect(log[1].error).toMatch(error);
    expect(await eventsOf(context.account.id)).toEqual(before);
    expect(await messageTypes(context.account.id)).toEqual(messages);
    const { rows } = await db.pool.query(
      "SELECT consecutive_failures, last_result, sync_lease FROM calendar_feeds WHERE id = $1::uuid",
      [feedId],
    );
    expect(rows[0]).toEqual({ consecutive_failures: 1, last_result: "failed", sync_lease: null });
    const [view] = await listFeeds(context.account.id);
    expect(view).toMatchObject({ state: "failing", lastError: log[1].error, eventCount: 2 });
  });

  it("refuses a loopback feed at connect time without OUTBOUND_ALLOW_LOOPBACK_TARGETS=1", async () => {
    const { context, feedId, before } = await afterGoodSync((_q, r) => r.writeHead(200).end(good));
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    try {
      const outcome = await syncFeed(feedId, { now: NOW });
      expect(outcome).toMatchObject({ result: "failed", httpStatus: null });
      expect(outcome.ran && outcome.error).toBe("Refused: the feed's address is a private or local network address.");
    } finally {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    }
    expect(await eventsOf(context.account.id)).toEqual(before);
  });
});

describe("a VEVENT that cannot be read", () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      "no DTSTART",
      vevent("UID:broken@venue", "SUMMARY:Mystery"),
      /"Mystery" \(UID broken@venue\) has no start \(DTSTART\)/,
    ],
    [
      "FREQ=SECONDLY",
      vevent("UID:broken@venue", "DTSTART:20261201T100000Z", "RRULE:FREQ=SECONDLY", "SUMMARY:Ticker"),
      /"Ticker" \(UID broken@venue\) repeats every second \(FREQ=SECONDLY\), which is not supported/,
    ],
    [
      "a time zone nobody defines",
      vevent("UID:broken@venue", "DTSTART;TZID=Mars/Olympus_Mons:20261201T100000", "SUMMARY:Launch"),
      /"Launch" \(UID broken@venue\) uses the time zone "Mars\/Olympus_Mons", which the feed does not define/,
    ],
  ];

  it.each(cases)(
    "is skipped and named (%s), the rest is written, and what it brought in before stays",
    async (_n, broken, error) => {
      const context = await ownerContext();
      const path = `/partial-${Math.random().toString(36).slice(2)}.ics`;
      const earlier = vevent("UID:broken@venue", "DTSTART:20261201T100000Z", "SUMMARY:Earlier version");
      server.serve(path, calendar(earlier));
      const feedId = await followFeed(context, server.url(path));
      expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 1 });

      server.serve(path, calendar(concert, broken));
      const outcome = await syncFeed(feedId, { now: NOW });
      expect(outcome).toMatchObject({ result: "partial", created: 1, deleted: 0, skipped: 1 });
      expect(outcome.ran && outcome.error).toMatch(error);
      const titles = (await eventsOf(context.account.id)).map((event) => event.title);
      expect(titles).toEqual(["Earlier version", "Winter Concert"]);
      expect((await listFeeds(context.account.id))[0].state).toBe("attention");
    },
  );

  it("honours a VTIMEZONE definition the tz database does not know", () => {
    const body = calendar(
      [
        "BEGIN:VTIMEZONE",
        "TZID:Custom Venue Time",
        "BEGIN:STANDARD",
        "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0530",
        "TZOFFSETTO:+0530",
        "END:STANDARD",
        "END:VTIMEZONE",
      ],
      vevent("UID:custom@venue", "DTSTART;TZID=Custom Venue Time:20261201T100000", "SUMMARY:Custom"),
    );
    const parsed = parseFeed(Buffer.from(body), "text/calendar", { timeZone: "UTC", now: NOW });
    expect(parsed.ok && parsed.items.map((item) => item.input.startsAt.toISOString())).toEqual([
      "2026-12-01T04:30:00.000Z",
    ]);
  });
});

describe("a large feed", () => {
  it("of 10,000 VEVENTs is written in full, and again without a write when unchanged", async () => {
    const context = await ownerContext();
    const path = "/large.ics";
    const day = (index: number) => new Date(Date.UTC(2026, 11, 1) + (index % 365) * 86_400_000);
    const body = calendar(
      ...Array.from({ length: 10_000 }, (_, index) =>
        vevent(
          `UID:large-${index}@venue`,
          `DTSTART:${day(index).toISOString().slice(0, 10).replace(/-/g, "")}T${String(index % 24).padStart(2, "0")}0000Z`,
          `SUMMARY:Large ${index}`,
        ),
      ),
    );
    server.serve(path, body);
    const feedId = await followFeed(context, server.url(path));
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 10_000, skipped: 0 });
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "unchanged", httpStatus: 304 });
    const { rows } = await db.pool.query("SELECT event_count FROM accounts WHERE id = $1::uuid", [context.account.id]);
    expect(rows[0].event_count).toBe(10_000);
  }, 60_000);
});

describe("a sync interrupted half way", () => {
  it("by a database failure is logged, and the next sync completes without duplicating anything", async () => {
    const context = await ownerContext();
    const path = "/database-failure.ics";
    const body = calendar(
      ...Array.from({ length: 1_000 }, (_, index) =>
        vevent(`UID:db-${index}@venue`, "DTSTART:20261210T100000Z", `SUMMARY:Item ${index}`),
      ),
    );
    server.serve(path, body);
    const feedId = await followFeed(context, server.url(path));
    // The second batch of 500 fails in the database, after the first was committed.
    await db.pool.query(`CREATE FUNCTION test_fail_feed_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.title = 'Item 700' THEN RAISE EXCEPTION 'the database went away'; END IF; RETURN NEW; END $$`);
    await db.pool.query(`CREATE TRIGGER test_fail_feed_insert BEFORE INSERT ON events FOR EACH ROW
      WHEN (NEW.feed_id = '${feedId}') EXECUTE FUNCTION test_fail_feed_insert()`);
    try {
      const failed = await syncFeed(feedId, { now: NOW });
      expect(failed).toMatchObject({ result: "failed" });
      expect(failed.ran && failed.error).toBe("The sync stopped (the database went away); it is tried again.");
    } finally {
      await db.pool.query("DROP TRIGGER test_fail_feed_insert ON events; DROP FUNCTION test_fail_feed_insert()");
    }
    expect(await eventsOf(context.account.id)).toHaveLength(500);
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 500, unchanged: 500 });
    const { rows } = await db.pool.query<{ events: number; keys: number }>(
      "SELECT count(*)::int AS events, count(DISTINCT feed_key)::int AS keys FROM events WHERE account_id = $1::uuid",
      [context.account.id],
    );
    expect(rows[0]).toEqual({ events: 1_000, keys: 1_000 });
  });

  it("completes on the next sync without duplicating anything", async () => {
    const context = await ownerContext();
    const path = "/interrupted.ics";
    const body = calendar(
      ...Array.from({ length: 40 }, (_, index) =>
        vevent(
          `UID:item-${index}@venue`,
          `DTSTART:202612${String(1 + (index % 28)).padStart(2, "0")}` +
            `T${String(8 + (index % 10)).padStart(2, "0")}0000Z`,
          `SUMMARY:Item ${index}`,
        ),
      ),
    );
    server.serve(path, body);
    const feedId = await followFeed(context, server.url(path));
    // What a sync had written when the database went away: the first half of the feed.
    const parsed = parseFeed(Buffer.from(body), "text/calendar", { timeZone: "Europe/Berlin", now: NOW });
    if (!parsed.ok) throw new Error(parsed.error);
    await writeFeedEvents(context.account.id, feedId, parsed.items.slice(0, 20), () => true);
    expect(await syncFeed(feedId, { now: NOW })).toMatchObject({ result: "ok", created: 20, unchanged: 20 });
    expect(await eventsOf(context.account.id)).toHaveLength(40);
  });
});

describe("a feed URL", () => {
  const refused: Array<[string, string, string]> = [
    ["plain http", "http://calendar.example.com/feed.ics", "scheme_not_allowed"],
    ["file:", "file:///etc/passwd", "scheme_not_allowed"],
    ["a private address", "https://192.168.1.20/feed.ics", "private_address"],
    ["a private address over http", "http://10.0.0.1/feed.ics", "private_address"],
    ["3,000 characters", `https://calendar.example.com/${"a".repeat(3_000)}.ics`, "url_too_long"],
    ["not a URL", "calendar please", "invalid_url"],
  ];

  it.each(refused)("is refused with a clear code: %s", async (_name, url, code) => {
    const context = await ownerContext();
    const added = await addFeed(context, { name: "Feed", url, intervalMinutes: 15 });
    expect(added).toMatchObject({ ok: false, code });
    expect(added.ok || added.message.length > 20).toBe(true);
    const { rows } = await db.pool.query("SELECT 1 FROM calendar_feeds WHERE account_id = $1::uuid", [
      context.account.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("on loopback is refused without OUTBOUND_ALLOW_LOOPBACK_TARGETS=1", async () => {
    const context = await ownerContext();
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    try {
      const added = await addFeed(context, {
        name: "Feed",
        url: "http://127.0.0.1:8080/feed.ics",
        intervalMinutes: 15,
      });
      expect(added).toMatchObject({ ok: false, code: "private_address" });
    } finally {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    }
  });
});
