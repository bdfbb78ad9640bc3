import ICAL from "ical.js";
import { formatWithOffset } from "@/lib/events/datetime";
import { EVENT_LIMITS, parseEventFields, type EventInput, type Recurrence } from "@/lib/events/schema";
import { formatOffset, zoneOffsetMinutes } from "@/lib/platform/format/zoned-time";
import { placeTime } from "./zones";

/* One VEVENT's times and fields, read for the mapping of parse.ts. */

export type MapContext = { timeZone: string; now: Date };
export type Skip = (uid: string, message: string) => void;
export type Timing = { start: Date; end: Date | null; startTime: ICAL.Time; tzid: string | null };

// A control character no UID keeps (textOf removes it): PostgreSQL text cannot hold NUL.
export const SEPARATOR = "\u001f";

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
export const textOf = (component: ICAL.Component, name: string) => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === "string" ? value.replace(/[\u0000\u001f]/g, "").trim() : "";
};

export function name(uid: string, vevent: ICAL.Component) {
  const summary = textOf(vevent, "summary");
  return summary ? `"${clip(summary, 60)}" (UID ${clip(uid, 60)})` : `UID ${clip(uid, 60)}`;
}

export function timingOf(uid: string, vevent: ICAL.Component, context: MapContext, skip: Skip): Timing | null {
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

export const offsetIn = (instant: Date, zone: string) => formatOffset(zoneOffsetMinutes(instant, zone));

/** The event's fields through the writers' own schema; null (and a problem) when they do not pass it. */
export function inputOf(
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
