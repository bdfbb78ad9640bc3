import { describeRecurrence } from "@/lib/events/occurrences";
import type { Intent } from "./intent";
import type { FoundEvent, SearchResult } from "./search";

/*
 * The assistant's answer as text, built only from the search result: an event is named only when it
 * is in `result.events`. When nothing (or not everything) matched, the answer says so and offers a
 * person.
 */

export type ReplyEvent = { id: string; title: string; starts_at: string; url: string };

export type AssistantReply = {
  text: string;
  events: ReplyEvent[];
  /** The reply offers a person (nothing found, or only partial matches). */
  offerHandoff: boolean;
  /** The visitor asked for a person: the assistant stays silent from now on. */
  handoffRequested: boolean;
};

const CAPABILITIES =
  "I can look up our upcoming events for you: ask about a date (“this weekend”, “on Friday”, “in May”), a topic (“jazz”, “wine tasting”) or both. You can also ask to talk to a person.";
const OFFER = "Would you like to talk to a person?";

/** A price that says free or is zero ("Free", "0", "€0.00"); empty means unknown, not free. */
export function isFreePrice(price: string): boolean {
  return /\b(?:free|gratis|kostenlos)\b/i.test(price) || /^[^0-9]*0+(?:[.,]0+)?[^0-9]*$/.test(price.trim());
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** "Sat 14 June, 19:30" in the zone, with the year when it is not the current one. */
export function formatEventTime(instant: Date, timeZone: string, now: Date): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = (date: Date) => Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  const p = parts(instant);
  const year = p.year === parts(now).year ? "" : ` ${p.year}`;
  return `${p.weekday} ${p.day} ${p.month}${year}, ${p.hour}:${p.minute}`;
}

function eventLine(event: FoundEvent, timeZone: string, now: Date): string {
  const details = [formatEventTime(event.startsAt, timeZone, now)];
  if (event.recurring)
    details.push(describeRecurrence({ startsAt: event.seriesStartsAt, recurring: event.recurring, timeZone }));
  if (event.location.trim()) details.push(event.location.trim());
  if (isFreePrice(event.price)) details.push("Free");
  else if (event.price.trim()) details.push(event.price.trim());
  if (event.url) details.push(event.url);
  return `• ${event.title} — ${details.join(" · ")}`;
}

const reply = (text: string, extra: Partial<AssistantReply> = {}): AssistantReply => ({
  text,
  events: [],
  offerHandoff: false,
  handoffRequested: false,
  ...extra,
});

export function composeReply(intent: Intent, result: SearchResult | null, timeZone: string, now: Date): AssistantReply {
  switch (intent.kind) {
    case "empty":
      return reply(CAPABILITIES);
    case "handoff":
      return reply(
        "I’ll ask someone from our team to join this conversation. They will answer here as soon as they can.",
        {
          handoffRequested: true,
        },
      );
    case "smalltalk":
      if (intent.smalltalk === "greeting") return reply(`Hello! ${CAPABILITIES}`);
      if (intent.smalltalk === "thanks") return reply("You’re welcome! Ask me any time about other dates or topics.");
      return reply(CAPABILITIES);
  }
  const topic = intent.topic.join(" ");
  const when = intent.range ? ` ${intent.range.label}` : "";
  const events = result?.events ?? [];
  if (events.length === 0) {
    const what = topic
      ? `nothing for “${topic}”${intent.free ? " with free entry" : ""}`
      : `no ${intent.free ? "free " : ""}${intent.range ? "events" : "upcoming events"}`;
    return reply(`I found ${what}${when}. ${OFFER}`, { offerHandoff: true });
  }
  const list = events.map((event) => eventLine(event, timeZone, now)).join("\n");
  const payload = events.map((event) => ({
    id: event.id,
    title: event.title,
    starts_at: event.startsAt.toISOString(),
    url: event.url,
  }));
  if (result && !result.complete) {
    return reply(`I found nothing matching all of “${topic}”${when}. The closest matches:\n${list}\n${OFFER}`, {
      events: payload,
      offerHandoff: true,
    });
  }
  const heading = topic
    ? `Here is what I found for “${topic}”${intent.free ? " with free entry" : ""}${when}:`
    : `Here is what’s on${intent.free ? " with free entry" : ""}${when || " next"}:`;
  return reply(`${heading}\n${list}`, { events: payload });
}
