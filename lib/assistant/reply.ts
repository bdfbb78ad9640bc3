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
  "I can look up our upcoming events for you: ask about a date (“this weekend”, “on Friday”, “in May”), " +
  "a topic (“jazz”, “wine tasting”) or both. You can also ask to talk to a person.";
const OFFER = "Would you like to talk to a person?";
const NEAR_OFFER = "If none of these fits, would you like to talk to a person?";
const TALK_HINT = "To talk to a person, press “Talk to a person” below; someone from the team will answer here.";

/** Events in a first answer; each "show more" adds PAGE; a question lists at most LISTED in all. */
export const SHOWN = 3;
export const PAGE = 5;
export const LISTED = 20;

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

/** "…and 4 more", with an offer to show them; "17+" when the search stopped counting. */
const moreLine = (count: number, uncounted: boolean): string[] =>
  count > 0
    ? [
        `…and ${count}${uncounted ? "+" : ""} more. ` +
          `Say “show more” to see ${count === 1 && !uncounted ? "it" : "them"}.`,
      ]
    : [];

const payload = (events: FoundEvent[]): ReplyEvent[] =>
  events.map((event) => ({
    id: event.id,
    title: event.title,
    starts_at: event.startsAt.toISOString(),
    url: event.url,
  }));

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
  if (intent.kind === "more") return reply(CAPABILITIES);
  const when = intent.range ? ` ${intent.range.label}` : "";
  const free = intent.free ? " with free entry" : "";
  const found = result?.events ?? [];
  // The visitor's words are never quoted back: they were folded and stripped of small words, and read
  // oddly ("for “jazz concerts”"); the question is right above the answer anyway.
  if (found.length === 0) {
    const what =
      intent.topic.length > 0
        ? `Sorry, I couldn’t find ${intent.range ? "anything" : "any upcoming events"} like that${free}${when}.`
        : `There’s nothing ${intent.free ? "free " : ""}on our calendar${when || " at the moment"}.`;
    return reply(`${what} ${OFFER}`, { offerHandoff: true });
  }
  const shown = found.slice(0, SHOWN);
  const lines = shown.map((event) => eventLine(event, timeZone, now));
  const more = moreLine(found.length - shown.length, result?.more ?? false);
  if (result && !result.complete) {
    const heading = `I couldn’t find an exact match${when}, but these come close:`;
    return reply([heading, ...lines, ...more, NEAR_OFFER].join("\n"), { events: payload(shown), offerHandoff: true });
  }
  // A day's label starts with "on" ("on Sat 28 November"): "what’s on on …" would say it twice.
  const whatsOn =
    when.startsWith(" on ") && !free ? `Here is what’s${when}:` : `Here is what’s on${free}${when || " next"}:`;
  const heading = intent.topic.length > 0 ? `Here is what I found${free}${when}:` : whatsOn;
  return reply([heading, ...lines, ...more].join("\n"), { events: payload(shown) });
}

/**
 * The answer to "show more" (or a "yes" to the offer to show more): the next PAGE of the earlier
 * question's list, from `offset`. `earlier` is null when there is no question to continue.
 */
export function composeFollowUp(
  intent: Intent,
  earlier: { intent: Intent; result: SearchResult; offset: number } | null,
  timeZone: string,
  now: Date,
): AssistantReply {
  if (!earlier) return reply(intent.affirm ? CAPABILITIES : `There is no list to continue yet. ${CAPABILITIES}`);
  const { result, offset } = earlier;
  const page = result.events.slice(offset, offset + PAGE);
  if (page.length === 0) {
    if (!intent.affirm) return reply("That’s everything I found. Ask me about another date or topic.");
    // A "yes" to "Would you like to talk to a person?" (the earlier answer offered one).
    const offeredPerson = result.events.length === 0 || !result.complete;
    return reply(offeredPerson ? TALK_HINT : CAPABILITIES);
  }
  const remaining = result.events.length - offset - page.length;
  const trailer =
    remaining > 0
      ? moreLine(remaining, result.more)
      : result.more
        ? [`Those are the first ${result.events.length}. Ask about a date or a topic to narrow it down.`]
        : ["That’s all of them."];
  const heading = page.length === 1 ? "Here is one more:" : `Here are ${page.length} more:`;
  const lines = page.map((event) => eventLine(event, timeZone, now));
  return reply([heading, ...lines, ...trailer].join("\n"), { events: payload(page) });
}
