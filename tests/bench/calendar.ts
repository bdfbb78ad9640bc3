import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import ICAL from "ical.js";
import { syncFeed } from "@/lib/calendar-feeds/sync";
import { runInProcess } from "./harness";

/*
 * npm run bench:calendar — calendar feeds in (docs/calendar-feeds.md, "Follow a calendar"): a feed of
 * 10,000 VEVENTs served from a local server, 2,000 of them recurring (1,800 simple weekly, daily, monthly
 * or yearly rules kept as series, one in ten with two EXDATEs; 200 rules with BYDAY and COUNT=10,
 * expanded), synced into an empty Pro account through syncFeed, as the worker runs it. Then the same feed
 * again, answered 304 to its ETag, and answered 200 with the same body. The first sync runs in a process
 * of its own (calendar-sync-process.ts), whose peak RSS is what a worker needs for it. Reference, same run: parsing the
 * file with ical.js alone (ICAL.parse and a walk over its VEVENTs). Targets: the first sync under 10 s
 * with a peak RSS under 250 MB; an unchanged 200 writes no event row and emits no notification.
 */

const VEVENTS = Number(process.env.BENCH_VEVENTS ?? 10_000);
const RECURRING = Number(process.env.BENCH_RECURRING ?? 2_000);
const TARGET_FIRST_MS = 10_000;
const TARGET_RSS_MB = 250;

const pad = (value: number) => String(value).padStart(2, "0");
const berlin = (day: Date, hour: number) =>
  `${day.getUTCFullYear()}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}T${pad(hour)}0000`;

function buildFeed(): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Bench//Calendar feeds in//EN",
    "BEGIN:VTIMEZONE",
    "TZID:Europe/Berlin",
    "BEGIN:DAYLIGHT",
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "DTSTART:19700329T020000",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "END:DAYLIGHT",
    "BEGIN:STANDARD",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "DTSTART:19701025T030000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD",
    "END:VTIMEZONE",
  ];
  const freqs = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
  for (let index = 0; index < VEVENTS; index++) {
    const recurring = index < RECURRING;
    const simple = index < RECURRING * 0.9;
    // Simple series began in the last two years; expanded rules and one-off events lie ahead.
    const day = new Date(Date.UTC(simple ? 2025 : 2026, simple ? 0 : 11, 1 + (index % (simple ? 700 : 365))));
    const hour = 8 + (index % 12);
    lines.push(
      "BEGIN:VEVENT",
      `UID:event-${index}@bench.example`,
      "DTSTAMP:20261126T100000Z",
      `DTSTART;TZID=Europe/Berlin:${berlin(day, hour)}`,
      `DTEND;TZID=Europe/Berlin:${berlin(day, hour + 1)}`,
      `SUMMARY:Event ${index}\\, edition ${index % 7}`,
      `DESCRIPTION:Description of event ${index}\\nwith a second line\\; commas\\, and semicolons.`,
      `LOCATION:Venue ${index % 50}`,
      `URL:https://example.com/e/${index}`,
    );
    if (simple) {
      lines.push(`RRULE:FREQ=${freqs[index % 4]}`);
      if (index % 10 === 0) {
        const step = [1, 7, 31, 366][index % 4];
        for (const k of [10, 20]) {
          const removed = new Date(day.getTime() + k * step * 86_400_000);
          if (index % 4 < 2) lines.push(`EXDATE;TZID=Europe/Berlin:${berlin(removed, hour)}`);
        }
      }
    } else if (recurring) {
      lines.push("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10");
    }
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR", "");
  return lines.join("\r\n");
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

type SyncOutcome = Awaited<ReturnType<typeof syncFeed>>;

/** The first sync in a process of its own (calendar-sync-process.ts), as the worker runs it. */
function syncInOwnProcess(feedId: string, databaseUrl: string) {
  return new Promise<{ result: SyncOutcome; ms: number; peakRss: number }>((resolve, reject) => {
    const tsx = "node_modules/.bin/tsx";
    const args = ["--conditions=react-server", "tests/bench/calendar-sync-process.ts", feedId];
    const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" };
    execFile(tsx, args, { env, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the syncing process failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"));
    });
  });
}

runInProcess("calendar", async (client, database) => {
  process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
  const body = Buffer.from(buildFeed());
  const etag = `"bench-${body.length}"`;
  let honourEtag = true;
  const server = http.createServer((request, response) => {
    if (honourEtag && request.headers["if-none-match"] === etag) return void response.writeHead(304, { etag }).end();
    response.writeHead(200, { "content-type": "text/calendar; charset=utf-8", etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const account = await client.query<{ id: string }>(
      "INSERT INTO accounts (name, plan, timezone) VALUES ('Calendar bench', 'pro', 'Europe/Berlin') RETURNING id",
    );
    const accountId = account.rows[0].id;
    const feed = await client.query<{ id: string }>(
      "INSERT INTO calendar_feeds (account_id, name, url) VALUES ($1, 'Bench', $2) RETURNING id",
      [accountId, `http://127.0.0.1:${port}/feed.ics`],
    );
    const feedId = feed.rows[0].id;
    const writes = async () => {
      const { rows } = await client.query<{ events: number; changed: string | null; messages: number }>(
        `SELECT (SELECT count(*)::int FROM events WHERE account_id = $1) AS events,
           (SELECT max(updated_at)::text FROM events WHERE account_id = $1) AS changed,
           (SELECT count(*)::int FROM outbound_messages WHERE account_id = $1) AS messages`,
        [accountId],
      );
      return rows[0];
    };

    const { result: first, ms: firstMs, peakRss } = await syncInOwnProcess(feedId, database.url);
    const afterFirst = await writes();

    let started = performance.now();
    const notModified = await syncFeed(feedId);
    const notModifiedMs = performance.now() - started;

    honourEtag = false;
    started = performance.now();
    const sameBody = await syncFeed(feedId);
    const sameBodyMs = performance.now() - started;
    const afterSame = await writes();

    started = performance.now();
    const parsed = new ICAL.Component(ICAL.parse(body.toString("utf8")));
    let titles = 0;
    for (const vevent of parsed.getAllSubcomponents("vevent")) {
      if (vevent.getFirstPropertyValue("summary")) titles++;
      vevent.getFirstPropertyValue("dtstart");
      vevent.getFirstPropertyValue("rrule");
    }
    const parseMs = performance.now() - started;

    const row = (name: string, ms: number, detail: string) =>
      console.log(`${name.padEnd(40)}${ms.toFixed(0).padStart(8)} ms   ${detail}`);
    console.log(
      `\nCalendar feeds in: ${VEVENTS.toLocaleString("en-US")} VEVENTs ` +
        `(${RECURRING.toLocaleString("en-US")} recurring), ${(body.length / 1024).toFixed(0)} KiB`,
    );
    row("Reference: ical.js parse alone", parseMs, `${titles.toLocaleString("en-US")} VEVENTs read`);
    row(
      "First sync",
      firstMs,
      `${JSON.stringify(first)}; peak RSS of the syncing process ${mb(peakRss)} MB; ${afterFirst.events} events`,
    );
    row("Unchanged, 304 to the ETag", notModifiedMs, JSON.stringify(notModified));
    row("Unchanged, 200 with the same body", sameBodyMs, JSON.stringify(sameBody));
    const firstOk =
      first.ran && first.result === "ok" && firstMs < TARGET_FIRST_MS && peakRss < TARGET_RSS_MB * 1024 * 1024;
    const unchangedOk =
      notModified.ran &&
      notModified.result === "unchanged" &&
      sameBody.ran &&
      sameBody.result === "unchanged" &&
      afterSame.events === afterFirst.events &&
      afterSame.changed === afterFirst.changed &&
      afterSame.messages === afterFirst.messages;
    console.log(
      `Target: first sync under ${TARGET_FIRST_MS / 1000} s and ` +
        `${TARGET_RSS_MB} MB RSS: ${firstOk ? "✔ met" : "✖ missed"}`,
    );
    console.log(
      `Target: an unchanged 200 writes no event row and no notification: ${unchangedOk ? "✔ met" : "✖ missed"}`,
    );
    return firstOk && unchangedOk ? 0 : 1;
  } finally {
    server.close();
  }
});
