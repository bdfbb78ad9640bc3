import ICAL from "ical.js";
import { occurrenceAt } from "@/lib/events/occurrences";
import type { EventInput, Recurrence } from "@/lib/events/schema";
import type { FeedEventItem } from "@/lib/events/feed-writer";
import { decodeFeed } from "./decode";
import { expandOccurrences, simpleRecurrence } from "./recurrence";
import {
  clip,
  inputOf,
  name,
  offsetIn,
  SEPARATOR,
  textOf,
  timingOf,
  type MapContext,
  type Skip,
  type Timing,
} from "./vevent";
import { keepsAccountWallClock, placeTime, seriesZone } from "./zones";

export type { MapContext } from "./vevent";

/*
 * A feed's VEVENTs as the account's events (docs/calendar-feeds.md, "How a feed maps to events"), parsed
 * with ical.js, never with patterns. The key of an event within its feed is its UID, plus its
 * RECURRENCE-ID or its expanded occurrence's start. A VEVENT that cannot be read (no DTSTART, a rule that
 * repeats every second, a zone nobody defines) is skipped and named in `problems`; its UID is kept in
 * `skippedUids`, so what it brought in before stays. Whole-file problems (not UTF-8, a web page,
 * truncated, unparsable) fail the sync and change nothing.
 */

export type ParsedFeed =
  | { ok: true; items: FeedEventItem[]; problems: string[]; skippedUids: Set<string>; vevents: number }
  | { ok: false; error: string };

export const keyUid = (key: string) => key.split(SEPARATOR)[0];

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
