import crypto from "node:crypto";
import pg from "pg";
import { db } from "@/lib/platform/db/client";
import { handleCalendarFeedRequest } from "@/lib/events/calendar-feed-http";
import { generateFeedToken, hashFeedToken } from "@/lib/events/calendar-feed-token";
import { percentile, runInProcess } from "./harness";

/*
 * npm run bench:calendar-feed — the account's iCalendar feed (docs/calendar-feeds.md) for an account of
 * 10,000 events of which 2,000 are series (daily, weekly, monthly, yearly; one series in ten with three
 * exceptions), through the handler the route runs: the whole feed, and a 304 to its own ETag. Reference,
 * same run: a plain SELECT of the same rows and their exceptions, the floor for reading what the feed shows.
 * Targets: the feed in under 1 s, and the 304 answered without building it (a fraction of the feed's time).
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const SERIES = Number(process.env.BENCH_SERIES ?? 2_000);
const FEED_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const CONDITIONAL_SAMPLES = 200;
const TARGET_FEED_MS = 1_000;

async function seed(client: pg.Client): Promise<{ accountId: string; token: string; rotatedAway: string }> {
  const { rows } = await client.query<{ id: string }>(
    "INSERT INTO accounts (name, plan, timezone) VALUES ('Feed bench', 'pro', 'Europe/Berlin') RETURNING id",
  );
  const accountId = rows[0].id;
  // Series first (g < SERIES), spread over the last two years; one-off events over the next year.
  await client.query(
    `INSERT INTO events (account_id, title, starts_at, ends_at, description, location, url, price, recurring)
     SELECT $1, 'Event ' || g || ', edition ' || (g % 7), s, s + interval '90 minutes',
            'Description of event ' || g || E'\nwith a second line; commas, and semicolons.', 'Venue ' || (g % 50),
            'https://example.com/e/' || g, '€' || (g % 90),
            CASE WHEN g < $3 THEN (ARRAY['daily', 'weekly', 'monthly', 'yearly'])[g % 4 + 1] ELSE '' END
     FROM generate_series(0, $2::int - 1) AS g,
          LATERAL (SELECT CASE WHEN g < $3 THEN timestamptz '2025-01-01 18:00+01' + (g % 700) * interval '1 day'
                               ELSE timestamptz '2026-12-01 10:00+01' + (g % 365) * interval '1 day' + (g % 10) *
                                 interval '1 hour' END AS s) t`,
    [accountId, EVENTS, SERIES],
  );
  // Three exceptions on one series in ten: the 10th, 20th and 30th period after the start, by the series' own step.
  await client.query(
    `INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind)
     SELECT e.account_id, e.id, e.starts_at + k * CASE e.recurring WHEN 'daily' THEN interval '1 day' WHEN 'weekly'
       THEN interval '7 days'
                                                   WHEN 'monthly' THEN interval '1 month'
                                                     ELSE interval '1 year' END, 'cancelled'
     FROM events e, (VALUES (10), (20), (30)) AS p(k)
     WHERE e.account_id = $1 AND e.recurring <> '' AND (hashtext(e.id::text) % 10) = 0`,
    [accountId],
  );
  // The feed's first token is rotated away, as the dashboard's "Rotate feed URL" does: the old one must answer as a
  // wrong one.
  const rotatedAway = generateFeedToken();
  const token = generateFeedToken();
  await client.query(
    "INSERT INTO published_calendars (account_id, token_hash, token_sealed) VALUES ($1, $2, 'bench')",
    [accountId, hashFeedToken(rotatedAway)],
  );
  await client.query("UPDATE published_calendars SET token_hash = $2 WHERE account_id = $1", [
    accountId,
    hashFeedToken(token),
  ]);
  await client.query("ANALYZE events; ANALYZE event_exceptions; ANALYZE published_calendars");
  return { accountId, token, rotatedAway };
}

type Timing = { p50: number; p95: number; max: number; bytes: number; status: number };

async function time(count: number, work: () => Promise<{ status: number; bytes: number }>): Promise<Timing> {
  const samples: number[] = [];
  let last = { status: 0, bytes: 0 };
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    last = await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: samples[samples.length - 1], ...last };
}

runInProcess("calendar-feed", async (client) => {
  process.env.APP_BASE_URL = "https://app.example.com";
  const { accountId, token, rotatedAway } = await seed(client);
  const segment = `${token}.ics`;
  const request = (headers: Record<string, string> = {}) =>
    new Request(`https://app.example.com/api/v1/events/calendar/${segment}`, { headers });
  const feed = async () => {
    const response = await handleCalendarFeedRequest(request(), segment);
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };
  const first = await handleCalendarFeedRequest(request(), segment);
  const etag = first.headers.get("ETag") ?? "";
  const text = await first.text();
  const vevents = text.split("BEGIN:VEVENT").length - 1;
  const conditional = async () => {
    const response = await handleCalendarFeedRequest(request({ "If-None-Match": etag }), segment);
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };
  const wrongToken = async () => {
    const wrong = `${generateFeedToken()}.ics`;
    const response = await handleCalendarFeedRequest(request(), wrong);
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };
  const oldToken = async () => {
    const response = await handleCalendarFeedRequest(request(), `${rotatedAway}.ics`);
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };
  // The same rows and exceptions, read with plain SELECTs and nothing built.
  const reference = async () => {
    const events = await db.pool.query("SELECT * FROM events WHERE account_id = $1 ORDER BY starts_at, id", [
      accountId,
    ]);
    const exceptions = await db.pool.query("SELECT event_id, occurs_at FROM event_exceptions WHERE account_id = $1", [
      accountId,
    ]);
    return { status: 200, bytes: events.rowCount! + exceptions.rowCount! };
  };

  await time(3, feed);
  await time(20, conditional);
  await time(3, reference);
  const results: Array<[string, Timing]> = [
    ["Reference: plain SELECT of the rows", await time(FEED_SAMPLES, reference)],
    ["Whole feed (200)", await time(FEED_SAMPLES, feed)],
    ["If-None-Match with its ETag (304)", await time(CONDITIONAL_SAMPLES, conditional)],
    ["Wrong token (404)", await time(CONDITIONAL_SAMPLES, wrongToken)],
    ["Rotated-away token (404)", await time(CONDITIONAL_SAMPLES, oldToken)],
  ];

  const cell = (value: string | number, width: number) => String(value).padStart(width);
  const [referenceTiming, feedTiming, conditionalTiming, wrongTiming, oldTiming] = results.map(([, timing]) => timing);
  console.log(
    `\nCalendar feed benchmark: ${EVENTS.toLocaleString("en-US")} events ` +
      `(${SERIES.toLocaleString("en-US")} series), ${vevents} VEVENTs, ` +
      `${(text.length / 1024).toFixed(0)} KiB`,
  );
  console.log(
    "".padEnd(38) + cell("p50 ms", 9) + cell("p95 ms", 9) + cell("max ms", 9) + cell("status", 8) + cell("p50/ref", 9),
  );
  for (const [name, timing] of results) {
    const ratio = (timing.p50 / referenceTiming.p50).toFixed(2);
    console.log(
      name.padEnd(38) +
        cell(timing.p50.toFixed(1), 9) +
        cell(timing.p95.toFixed(1), 9) +
        cell(timing.max.toFixed(1), 9) +
        cell(timing.status, 8) +
        cell(ratio, 9),
    );
  }
  const feedOk = feedTiming.status === 200 && vevents === EVENTS && feedTiming.p95 < TARGET_FEED_MS;
  // Without building: the 304 takes a small fraction of the feed, with an empty body.
  const conditionalOk =
    conditionalTiming.status === 304 && conditionalTiming.bytes === 0 && conditionalTiming.p95 < feedTiming.p50 / 10;
  const wrongOk = wrongTiming.status === 404 && oldTiming.status === 404 && oldTiming.bytes === wrongTiming.bytes;
  console.log(`Target: the whole feed in under ${TARGET_FEED_MS} ms (p95): ${feedOk ? "✔ met" : "✖ missed"}`);
  console.log(
    `Target: 304 without building the feed (p95 under a tenth of the ` +
      `feed's p50): ${conditionalOk ? "✔ met" : "✖ missed"}`,
  );
  console.log(
    `Wrong tokens: 404 in ${wrongTiming.p50.toFixed(1)} ms p50, ` +
      `rotated-away ones in ${oldTiming.p50.toFixed(1)} ms, ` +
      `the same ${oldTiming.bytes} bytes ` +
      `(the 304 path costs ${conditionalTiming.p50.toFixed(1)} ms)`,
  );
  console.log(
    `Sanity: ETag ${etag}, sha256 of the feed ${crypto.createHash("sha256").update(text).digest("hex").slice(0, 12)}`,
  );
  return feedOk && conditionalOk && wrongOk ? 0 : 1;
});
