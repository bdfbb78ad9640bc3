import "server-only";
import crypto from "node:crypto";
import { TZDate } from "@date-fns/tz";
import ical, { ICalEventRepeatingFreq, ICalEventStatus, type ICalCalendar } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { db } from "@/lib/platform/db/client";
import { wallClockOf } from "@/lib/platform/format/zoned-time";
import { foldLongLines } from "./ical-fold";
import type { Recurrence } from "./schema";
import type { EventRow } from "./sql";

/*
 * The account's events as an RFC 5545 calendar (docs/calendar-feeds.md), written with ical-generator:
 * one VEVENT per event with a stable UID. One-off events are in UTC; a series is in the account's zone
 * (TZID with its VTIMEZONE) with RRULE FREQ=…, so calendar apps keep its wall-clock time across DST as
 * lib/events/occurrences.ts does, and every exception is an EXDATE.
 *
 * The feed is written in pages of PAGE_SIZE events, so memory stays bounded at any account size, and its
 * version (the ETag) comes from one aggregate statement that builds nothing.
 */

export type PublishedFeed = { accountId: string; accountName: string; timeZone: string; etag: string };

/** Bumped when the output for the same data changes, so calendar apps fetch the new form. */
const FORMAT_VERSION = "1";
const PAGE_SIZE = 1_000;

const FREQUENCIES: Record<Exclude<Recurrence, "">, ICalEventRepeatingFreq> = {
  daily: ICalEventRepeatingFreq.DAILY,
  weekly: ICalEventRepeatingFreq.WEEKLY,
  monthly: ICalEventRepeatingFreq.MONTHLY,
  yearly: ICalEventRepeatingFreq.YEARLY,
};

type Vtimezone = { block: string; tzid: string };

/*
 * The zone's VTIMEZONE and the TZID it declares, or null for UTC or a zone without a definition. The
 * library answers an alias (Asia/Calcutta, Europe/Kiev) with the canonical zone's block (TZID:Asia/Kolkata),
 * and Intl keeps the alias, so the events must use the block's own TZID: RFC 5545 requires a VTIMEZONE
 * for every TZID, and readers show an undefined one as floating time.
 */
function vtimezoneOf(timeZone: string): Vtimezone | null {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return null;
  try {
    const [block] = tzlib_get_ical_block(timeZone) as string[];
    if (typeof block !== "string" || !block.startsWith("BEGIN:VTIMEZONE")) return null;
    const tzid = /^TZID:(.+?)\r?$/m.exec(block)?.[1]?.trim();
    return tzid ? { block, tzid } : null;
  } catch {
    return null;
  }
}

/*
 * The token's account and the version of everything the feed shows, in one statement: one lookup by the
 * token's hash (unique index), then per table a count and a sum of per-row hashes. A row's hash covers its
 * id and updated_at, which every write of an event moves (exceptions included), so any insert, update or
 * delete changes the sum. Nothing is built here: a 304 costs this statement alone.
 */
const tableVersion = (table: string, key: string, moment: string) => `(
    SELECT count(*)::int AS n,
           coalesce(sum(hashtextextended(
             r.${key}::text || '/' || (extract(epoch FROM r.${moment}) * 1000)::bigint, 0)), 0)::text
             AS fingerprint
    FROM ${table} r WHERE r.account_id = p.account_id
  )`;

const FEED_SQL = `
  SELECT p.account_id, a.name, a.timezone, ev.n AS events, ev.fingerprint AS events_fingerprint,
         ex.n AS exceptions, ex.fingerprint AS exceptions_fingerprint
  FROM published_calendars p
  JOIN accounts a ON a.id = p.account_id
  CROSS JOIN LATERAL ${tableVersion("events", "id", "updated_at")} ev
  CROSS JOIN LATERAL ${tableVersion("event_exceptions", "event_id", "occurs_at")} ex
  WHERE p.token_hash = $1
  LIMIT 2`;

type FeedRow = {
  account_id: string;
  name: string;
  timezone: string;
  events: number;
  events_fingerprint: string;
  exceptions: number;
  exceptions_fingerprint: string;
};

/**
 * The feed of the token with this hash and its ETag, or null. Every token, right, wrong or rotated away,
 * costs the same lookup by hash first; nothing about the token's shape is checked before it.
 */
export async function findPublishedFeed(tokenHash: string, baseUrl: string): Promise<PublishedFeed | null> {
  const { rows } = await db.pool.query<FeedRow>(FEED_SQL, [tokenHash]);
  // The hash is indexed, not unique (docs/scaling.md): two rows would be a collision, answered as none.
  const row = rows.length === 1 ? rows[0] : undefined;
  if (!row) return null;
  const version = [
    FORMAT_VERSION,
    row.account_id,
    row.name,
    row.timezone,
    baseUrl,
    row.events,
    row.events_fingerprint,
    row.exceptions,
    row.exceptions_fingerprint,
    vtimezoneOf(row.timezone)?.block ?? "",
  ].join("\n");
  const etag = `"${crypto.createHash("sha256").update(version).digest("base64url").slice(0, 32)}"`;
  return { accountId: row.account_id, accountName: row.name, timeZone: row.timezone, etag };
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 has it for GET), or is `*`. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

type EventPageRow = Omit<EventRow, "starts_at_offset" | "created_at"> & {
  /** Start instants (epoch ms) of the series' removed occurrences; null for one-off events. */
  exceptions: number[] | null;
};

// Keyset pages over events_account_id_starts_at_id_idx; a series' exceptions come along from their index.
const PAGE_COLUMNS = `
  e.id, e.title, e.starts_at, e.ends_at, e.description, e.location, e.url, e.price, e.recurring, e.status, e.updated_at,
  CASE WHEN e.recurring <> '' THEN ARRAY(
    SELECT (extract(epoch FROM x.occurs_at) * 1000)::float8 FROM event_exceptions x
    WHERE x.event_id = e.id AND x.account_id = e.account_id ORDER BY x.occurs_at
  ) END AS exceptions`;
const FIRST_PAGE_SQL = `SELECT ${PAGE_COLUMNS} FROM events e WHERE e.account_id = $1::uuid ORDER BY e.starts_at, e.id
  LIMIT $2`;
const NEXT_PAGE_SQL = `SELECT ${PAGE_COLUMNS} FROM events e
  WHERE e.account_id = $1::uuid AND (e.starts_at, e.id) > ($3::timestamptz, $4::uuid) ORDER BY e.starts_at, e.id
    LIMIT $2`;

async function eventPage(accountId: string, after: EventPageRow | null, limit: number): Promise<EventPageRow[]> {
  const { rows } = after
    ? await db.pool.query<EventPageRow>(NEXT_PAGE_SQL, [accountId, limit, after.starts_at.toISOString(), after.id])
    : await db.pool.query<EventPageRow>(FIRST_PAGE_SQL, [accountId, limit]);
  return rows;
}

type Writer = { calendar: ICalCalendar; zone: string | null; host: string };

/** The calendar's properties, shared by the header and every page's events. */
function newCalendar(feed: PublishedFeed): ICalCalendar {
  return ical({
    prodId: { company: "Integration Access", product: "Events feed", language: "EN" },
    name: feed.accountName ? `${feed.accountName} events` : "Events",
    ttl: 60 * 60,
  });
}

function descriptionOf(row: EventPageRow): string | null {
  const price = row.price.trim() ? `Price: ${row.price.trim()}` : "";
  return [row.description, price].filter(Boolean).join("\n\n") || null;
}

/*
 * RFC 5545 skips the months without a monthly series' day (29th–31st) and the common years of a yearly
 * series on 29 February, as lib/events/occurrences.ts does, but some readers move such an occurrence to
 * the next valid day instead (ical.js gives 1 March). Naming the day (and month) in BYMONTHDAY / BYMONTH
 * means the same rule to RFC readers and leaves the others nothing to move.
 */
function shortMonthDays(
  recurring: Exclude<Recurrence, "">,
  startsAt: Date,
  zone: string,
): { byMonthDay?: number[]; byMonth?: number[] } {
  const wall = new Date(wallClockOf(startsAt, zone));
  const day = wall.getUTCDate();
  if (recurring === "monthly" && day >= 29) return { byMonthDay: [day] };
  if (recurring === "yearly" && wall.getUTCMonth() === 1 && day === 29) return { byMonth: [2], byMonthDay: [29] };
  return {};
}

/** One event as its folded VEVENT lines (CRLF-terminated). */
function vevent(row: EventPageRow, writer: Writer): string {
  const series = row.recurring !== "" && row.recurring in FREQUENCIES;
  const zone = series ? writer.zone : null;
  const at = (instant: Date | number) => (zone ? new TZDate(new Date(instant).getTime(), zone) : new Date(instant));
  const event = writer.calendar.createEvent({
    id: `${row.id}@${writer.host}`,
    stamp: row.updated_at,
    start: at(row.starts_at),
    end: row.ends_at ? at(row.ends_at) : null,
    timezone: zone,
    summary: row.title,
    description: descriptionOf(row),
    location: row.location || null,
    url: row.url || null,
    status: row.status === "cancelled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    repeating: series
      ? {
          freq: FREQUENCIES[row.recurring as Exclude<Recurrence, "">],
          ...shortMonthDays(row.recurring as Exclude<Recurrence, "">, row.starts_at, zone ?? "UTC"),
          ...(row.exceptions?.length
            ? { exclude: row.exceptions.map(at), ...(zone ? { excludeTimezone: zone } : {}) }
            : {}),
        }
      : null,
  });
  return foldLongLines(event.toString());
}

/**
 * The feed's text in chunks: the calendar's head (with the account zone's VTIMEZONE), then one chunk per
 * page of events, then its end. A fresh calendar object per page keeps memory bounded by the page.
 */
export async function* calendarFeedChunks(
  feed: PublishedFeed,
  baseUrl: string,
  pageSize = PAGE_SIZE,
): AsyncGenerator<string> {
  const vtimezone = vtimezoneOf(feed.timeZone);
  const head = newCalendar(feed)
    .toString()
    .replace(/END:VCALENDAR$/, "");
  yield vtimezone ? `${head}${vtimezone.block.replace(/\r?\n/g, "\r\n")}\r\n` : head;
  const host = new URL(baseUrl).hostname;
  let after: EventPageRow | null = null;
  for (;;) {
    const rows = await eventPage(feed.accountId, after, pageSize);
    if (rows.length === 0) break;
    // A series in an account zone without a VTIMEZONE is written in UTC rather than with an undefined TZID.
    const writer: Writer = { calendar: newCalendar(feed), zone: vtimezone?.tzid ?? null, host };
    yield rows.map((row) => vevent(row, writer)).join("");
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1];
  }
  yield "END:VCALENDAR\r\n";
}
