import ICAL from "ical.js";
import { formatWithOffset } from "@/lib/events/datetime";
import { occurrenceAt } from "@/lib/events/occurrences";
import { EVENT_LIMITS, parseEventFields, type EventInput, type Recurrence } from "@/lib/events/schema";
import type { FeedEventItem } from "@/lib/events/feed-writer";
import { formatOffset, zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";
import { expandOccurrences, simpleRecurrence } from "./recurrence";
import { placeTime, seriesZone, keepsAccountWallClock } from "./zones";

/*
 * A feed's VEVENTs as the account's events (docs/calendar-feeds.md, "How a feed maps to events"), parsed
 * with ical.js, never with patterns. The key of an event within its feed is its UID, plus its
 * RECURRENCE-ID or its expanded occurrence's start. A VEVENT that cannot be read (no DTSTART, a rule that
 * repeats every second, a zone nobody defines) is skipped and named in `problems`; its UID is kept in
 * `skippedUids`, so what it brought in before stays. Whole-file problems (not UTF-8, a web page,
 * truncated, unparsable) fail the sync and change nothing.
 */

export type MapContext = { timeZone: string; now: Date };
export type ParsedFeed =
  | { ok: true; items: FeedEventItem[]; problems: string[]; skippedUids: Set<string>; vevents: number }
  | { ok: false; error: string };

// A control character no UID keeps (textOf removes it): PostgreSQL text cannot hold NUL.
const SEPARATOR = "\u001f";
export const keyUid = (key: string) => key.split(SEPARATOR)[0];

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const textOf = (component: ICAL.Component, name: string) => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === "string" ? value.replace(/[\u0000\u001f]/g, "").trim() : "";
};

/** The file as text, or why it is not an iCalendar file. */
export function decodeFeed(
  body: Buffer,
  contentType: string,
): { ok: true; text: string } | { ok: false; error: string } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return { ok: false, error: "The feed is not valid UTF-8 text, so it cannot be read as an iCalendar file." };
  }
  const start = text.trimStart();
  if (/^text\/html/i.test(contentType) || start.startsWith("<")) {
    return { ok: false, error: "This is not an iCalendar file: the server sent a web page (HTML)." };
  }
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(start)) return { ok: false, error: "This is not an iCalendar file." };
  if (!/END:VCALENDAR\s*$/i.test(start)) {
    return { ok: false, error: "The feed is incomplete: it ends before END:VCALENDAR (the file was cut off)." };
  }
  return { ok: true, text: start };
}

export function parseFeed(body: Buffer, contentType: string, context: MapContext): ParsedFeed {
  const decoded = decodeFeed(body, contentType);
  if (!decoded.ok) return decoded;
  let root: ICAL.Component;
  try {
    const parsed = ICAL.parse(decoded.text);
    root = new ICAL.Component(Array.isArray(parsed[0]) ? parsed[0] : parsed);
  } catch (error) {
    return { ok: false, error: `This is not a valid iCalendar file (${(error as Error).message}).` };
  }
  const vevents = root.getAllSubcomponents("vevent");
  const masters = new Map<string, ICAL.Component>();
  const overrides = new Map<string, ICAL.Component[]>();
  const problems: string[] = [];
  const skippedUids = new Set<string>();
  for (const vevent of vevents) {
    const uid = textOf(vevent, "uid");
    if (!uid) {
      problems.push(`A VEVENT without UID ("${clip(textOf(vevent, "summary"), 60)}") was skipped.`);
      continue;
    }
    if (vevent.hasProperty("recurrence-id")) overrides.set(uid, [...(overrides.get(uid) ?? []), vevent]);
    else if (masters.has(uid)) problems.push(`UID ${uid} appears twice; the second was skipped.`);
    else masters.set(uid, vevent);
  }
  const items: FeedEventItem[] = [];
  const skip = (uid: string, message: string) => {
    problems.push(message);
    skippedUids.add(uid);
  };
  for (const [uid, master] of masters) mapMaster(uid, master, overrides.get(uid) ?? [], context, items, skip);
  // Instances whose series is not in the feed are events of their own.
  for (const [uid, list] of overrides) {
    if (masters.has(uid)) continue;
    for (const vevent of list) mapSingle(uid, vevent, context, items, skip);
  }
  return { ok: true, items: dropIdentityDuplicates(items, problems), problems, skippedUids, vevents: vevents.length };
}

type Skip = (uid: string, message: string) => void;
type Timing = { start: Date; end: Date | null; startTime: ICAL.Time; tzid: string | null };

function name(uid: string, vevent: ICAL.Component) {
  const summary = textOf(vevent, "summary");
  return summary ? `"${clip(summary, 60)}" (UID ${clip(uid, 60)})` : `UID ${clip(uid, 60)}`;
}

function timingOf(uid: string, vevent: ICAL.Component, context: MapContext, skip: Skip): Timing | null {
  const dtstart = vevent.getFirstProperty("dtstart");
  const startTime = dtstart?.getFirstValue() as ICAL.Time | null | undefined;
  if (!dtstart || !startTime) {
    skip(uid, `${name(uid, vevent)} has no start (DTSTART) and was skipped.`);
    return null;
  }
  const tzid = (dtstart.getParameter("tzid") as string | undefined) ?? null;
  const start = placeTime(startTime, tzid, context.timeZone);
  if (!start.ok) {
    skip(
      uid,
      `${name(uid, vevent)} uses the time zone "${clip(start.tzid, 60)}", which the feed does not define; skipped.`,
    );
    return null;
  }
  let end: Date | null = null;
  const dtend = vevent.getFirstProperty("dtend");
  const duration = vevent.getFirstPropertyValue("duration") as ICAL.Duration | null;
  if (dtend?.getFirstValue()) {
    const placed = placeTime(
      dtend.getFirstValue() as ICAL.Time,
      (dtend.getParameter("tzid") as string) ?? null,
      context.timeZone,
    );
    if (placed.ok) end = placed.at;
  } else if (duration) {
    end = new Date(start.at.getTime() + duration.toSeconds() * 1000);
  } else if (startTime.isDate) {
    const next = startTime.clone();
    next.adjust(1, 0, 0, 0);
    const placed = placeTime(next, null, context.timeZone);
    if (placed.ok) end = placed.at;
  }
  if (end && end.getTime() < start.at.getTime()) end = null;
  return { start: start.at, end, startTime, tzid };
}

const offsetIn = (instant: Date, zone: string) => formatOffset(zoneOffsetMinutes(instant, zone));

/** The event's fields through the writers' own schema; null (and a problem) when they do not pass it. */
function inputOf(
  uid: string,
  vevent: ICAL.Component,
  timing: { start: Date; end: Date | null },
  recurring: Recurrence,
  context: MapContext,
  skip: Skip,
): EventInput | null {
  const url = textOf(vevent, "url");
  const fields = {
    title: clip(textOf(vevent, "summary") || "(No title)", EVENT_LIMITS.title),
    starts_at: formatWithOffset(timing.start, offsetIn(timing.start, context.timeZone)),
    ends_at: timing.end ? formatWithOffset(timing.end, offsetIn(timing.end, context.timeZone)) : null,
    description: clip(textOf(vevent, "description"), EVENT_LIMITS.description),
    location: clip(textOf(vevent, "location"), EVENT_LIMITS.location),
    url: /^https?:\/\/[^\s/?#]/i.test(url) && url.length <= EVENT_LIMITS.url && URL.canParse(url) ? url : "",
    recurring,
    status: textOf(vevent, "status").toUpperCase() === "CANCELLED" ? "cancelled" : "upcoming",
  };
  const parsed = parseEventFields(fields);
  if (parsed.ok) return parsed.value;
  const detail = parsed.details[0];
  skip(uid, `${name(uid, vevent)} was skipped: ${detail ? `${detail.field}: ${detail.message}` : "invalid fields"}.`);
  return null;
}

function mapSingle(uid: string, vevent: ICAL.Component, context: MapContext, items: FeedEventItem[], skip: Skip) {
  const timing = timingOf(uid, vevent, context, skip);
  if (!timing) return;
  const input = inputOf(uid, vevent, timing, "", context, skip);
  if (!input) return;
  const rid = vevent.getFirstProperty("recurrence-id");
  let key = uid;
  if (rid) {
    const placed = placeTime(
      rid.getFirstValue() as ICAL.Time,
      (rid.getParameter("tzid") as string) ?? null,
      context.timeZone,
    );
    key = `${uid}${SEPARATOR}${placed.ok ? placed.at.toISOString() : String(rid.getFirstValue())}`;
  }
  items.push({ key, input, exceptions: null });
}

function mapMaster(
  uid: string,
  master: ICAL.Component,
  overrides: ICAL.Component[],
  context: MapContext,
  items: FeedEventItem[],
  skip: Skip,
) {
  const rule = master.getFirstPropertyValue("rrule") as ICAL.Recur | null;
  const hasRdate = master.hasProperty("rdate");
  if (!rule && !hasRdate) {
    mapSingle(uid, master, context, items, skip);
    for (const vevent of overrides) mapSingle(uid, vevent, context, items, skip);
    return;
  }
  const timing = timingOf(uid, master, context, skip);
  if (!timing) return;
  if (rule && (rule.freq === "SECONDLY" || rule.freq === "MINUTELY")) {
    const every = rule.freq === "SECONDLY" ? "second" : "minute";
    skip(uid, `${name(uid, master)} repeats every ${every} (FREQ=${rule.freq}), which is not supported; skipped.`);
    return;
  }
  const recurring = rule && !hasRdate ? simpleRecurrence(rule, timing.startTime) : null;
  const zone = seriesZone(timing.startTime, timing.tzid, context.timeZone);
  if (recurring && zone && keepsAccountWallClock(zone, context.timeZone, timing.start, context.now)) {
    mapSeries(uid, master, overrides, timing, recurring, context, items, skip);
    return;
  }
  const expanded = expandOccurrences(master, timing, context, (message) =>
    skip(uid, `${name(uid, master)} ${message}`),
  );
  if (!expanded) return;
  const input = inputOf(uid, master, timing, "", context, skip);
  if (!input) return;
  const replaced = new Set<number>();
  for (const vevent of overrides) {
    const rid = vevent.getFirstProperty("recurrence-id");
    const placed = placeTime(
      rid!.getFirstValue() as ICAL.Time,
      (rid!.getParameter("tzid") as string) ?? null,
      context.timeZone,
    );
    if (placed.ok) replaced.add(placed.at.getTime());
    mapSingle(uid, vevent, context, items, skip);
  }
  const duration = timing.end ? timing.end.getTime() - timing.start.getTime() : null;
  for (const at of expanded) {
    if (replaced.has(at.getTime())) continue;
    const end = duration === null ? null : new Date(at.getTime() + duration);
    const occurrence = { ...input, startsAt: at, startsAtOffset: offsetIn(at, context.timeZone), endsAt: end };
    items.push({ key: `${uid}${SEPARATOR}${at.toISOString()}`, input: occurrence, exceptions: null });
  }
}

function mapSeries(
  uid: string,
  master: ICAL.Component,
  overrides: ICAL.Component[],
  timing: Timing,
  recurring: Recurrence,
  context: MapContext,
  items: FeedEventItem[],
  skip: Skip,
) {
  const input = inputOf(uid, master, timing, recurring, context, skip);
  if (!input) return;
  const series = { startsAt: input.startsAt, endsAt: input.endsAt, recurring, timeZone: context.timeZone };
  const exceptions = new Map<number, "cancelled" | "deleted">();
  const except = (at: Date, kind: "cancelled" | "deleted") => {
    const occurrence = occurrenceAt(series, at);
    if (occurrence && !occurrence.first) exceptions.set(at.getTime(), kind);
  };
  for (const property of master.getAllProperties("exdate")) {
    const tzid = (property.getParameter("tzid") as string) ?? timing.tzid;
    for (const value of property.getValues() as ICAL.Time[]) {
      const placed = placeTime(value, tzid, context.timeZone);
      if (placed.ok) except(placed.at, "deleted");
    }
  }
  for (const vevent of overrides) {
    const rid = vevent.getFirstProperty("recurrence-id")!;
    const placed = placeTime(
      rid.getFirstValue() as ICAL.Time,
      (rid.getParameter("tzid") as string) ?? null,
      context.timeZone,
    );
    if (!placed.ok) continue;
    // A cancelled instance is an exception; a changed one replaces its occurrence with an event of its own.
    if (textOf(vevent, "status").toUpperCase() === "CANCELLED") except(placed.at, "cancelled");
    else {
      except(placed.at, "deleted");
      mapSingle(uid, vevent, context, items, skip);
    }
  }
  const list = [...exceptions].map(([at, kind]) => ({ occursAt: new Date(at), kind }));
  items.push({ key: uid, input, exceptions: list });
}

const identity = (input: EventInput) =>
  `${input.title}${SEPARATOR}${input.startsAt.toISOString()}${SEPARATOR}${input.location}`;

/** Two entries of one feed with the same title, start and location would be one event: the first is kept. */
function dropIdentityDuplicates(items: FeedEventItem[], problems: string[]): FeedEventItem[] {
  const seen = new Set<string>();
  const keys = new Set<string>();
  return items.filter((item) => {
    const id = identity(item.input);
    if (keys.has(item.key)) return false;
    if (seen.has(id)) {
      problems.push(
        `"${clip(item.input.title, 60)}" at ${item.input.startsAt.toISOString()} appears twice in the feed; kept once.`,
      );
      return false;
    }
    seen.add(id);
    keys.add(item.key);
    return true;
  });
}
