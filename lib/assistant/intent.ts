import { findDateRange, type DateRange } from "./dates";
import { followUpOf } from "./follow-up";
import { fold, MAX_MESSAGE_LENGTH, words } from "./text";

/*
 * What a visitor's message asks for, without a language model: a date range, topic words to search
 * events for, "free" as a price filter, a request for a person, or small talk. What counts is written
 * down in docs/assistant.md and pinned by the question table in tests/integration/assistant.
 */

export type SmallTalk = "greeting" | "thanks" | "help";

export type Intent = {
  /**
   * empty: nothing to read; handoff: asks for a person; smalltalk: greeting, thanks or help; search: look
   * up events; more: continue the last list ("show more", follow-up.ts).
   */
  kind: "empty" | "handoff" | "smalltalk" | "search" | "more";
  /** For "more": the message only said yes, which continues a list only when more were offered. */
  affirm: boolean;
  smalltalk: SmallTalk | null;
  range: DateRange | null;
  /** Folded topic words (at most MAX_TOPIC_WORDS), in the order written. */
  topic: string[];
  /** A topic word as typed, when folding changed it ("muller" → "müller"). */
  typed: Record<string, string>;
  /** Only events whose price says free (or 0). */
  free: boolean;
};

export const MAX_TOPIC_WORDS = 6;
/** Longer "words" are noise (a pasted token, a run of one letter), not topics. */
const MAX_WORD_LENGTH = 40;

const HANDOFF = [
  /\b(?:talk|speak|chat|connect|write|get in touch|put me through)\s+(?:to|with|me to|me with)\s+(?:a\s+|an\s+|the\s+|some\s+|real\s+|your\s+|someone\s+|somebody\s+)*(?:person|human|people|agent|staff|team|someone|somebody|representative|rep|operator|manager|organi[sz]er|member)\b/,
  /\b(?:real|actual|live)\s+(?:person|human|people|agent)\b/,
  /\b(?:someone|somebody|a person|a human)\s+(?:from|of|at|on)\s+(?:your|the)\s+(?:team|staff|company|office)\b/,
  /\b(?:human|agent|operator|representative)\s+please\b/,
  /\b(?:customer service|customer support|support team)\b/,
  /^\W*(?:a\s+)?(?:human|person|agent|operator|representative|real person)\W*$/,
  /\b(?:are you|is this)\s+a\s+(?:bot|robot|machine)\b/,
];

const GREETING = new Set([
  "hi",
  "hello",
  "hey",
  "hallo",
  "hiya",
  "howdy",
  "moin",
  "servus",
  "greetings",
  "morning",
  "evening",
  "afternoon",
  "good",
  "there",
  "yo",
]);
const THANKS = new Set([
  "thanks",
  "thank",
  "thx",
  "ty",
  "cheers",
  "great",
  "perfect",
  "awesome",
  "cool",
  "ok",
  "okay",
  "bye",
  "goodbye",
  "nice",
  "danke",
  "merci",
]);
const HELP = new Set(["help", "who", "what", "can", "do", "how", "does", "work", "you", "are", "assistant", "bot"]);

// Words that ask about events in general: with no topic they mean "what is coming up".
const EVENT_WORDS = new Set([
  "event",
  "events",
  "happening",
  "happens",
  "going",
  "on",
  "program",
  "programme",
  "schedule",
  "calendar",
  "upcoming",
  "next",
  "anything",
  "something",
  "things",
  "activities",
  "activity",
  "plans",
  "planned",
  "agenda",
  "whats",
  "what",
]);

const STOP_WORDS = new Set([
  ...GREETING,
  ...THANKS,
  ...EVENT_WORDS,
  "a",
  "an",
  "the",
  "and",
  "or",
  "but",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "am",
  "do",
  "does",
  "did",
  "have",
  "has",
  "had",
  "i",
  "im",
  "me",
  "my",
  "we",
  "us",
  "our",
  "you",
  "your",
  "it",
  "its",
  "this",
  "that",
  "these",
  "those",
  "there",
  "theres",
  "here",
  "which",
  "who",
  "whom",
  "when",
  "where",
  "why",
  "how",
  "any",
  "some",
  "all",
  "of",
  "in",
  "on",
  "at",
  "to",
  "for",
  "from",
  "with",
  "about",
  "by",
  "into",
  "near",
  "around",
  "between",
  "during",
  "after",
  "before",
  "until",
  "till",
  "please",
  "pls",
  "plz",
  "can",
  "could",
  "would",
  "will",
  "shall",
  "should",
  "may",
  "might",
  "must",
  "tell",
  "show",
  "give",
  "find",
  "search",
  "look",
  "looking",
  "know",
  "want",
  "wanna",
  "like",
  "love",
  "need",
  "get",
  "go",
  "see",
  "visit",
  "attend",
  "join",
  "book",
  "booking",
  "up",
  "soon",
  "also",
  "just",
  "maybe",
  "other",
  "more",
  "much",
  "many",
  "recommend",
  "suggest",
  "offer",
  "offers",
  "is",
  "there",
  "time",
  "times",
  "date",
  "dates",
  "day",
  "days",
  "night",
  "nights",
  "week",
  "weeks",
  "month",
  "months",
  "weekend",
  "morning",
  "evening",
  "afternoon",
  "price",
  "prices",
  "cost",
  "costs",
  "ticket",
  "tickets",
  "entry",
  "admission",
  "fee",
  "fees",
  "much",
  "if",
  "so",
  "then",
  "let",
  "lets",
  "fun",
  "stuff",
  "kind",
  "sort",
  "type",
  "else",
  "hows",
  "wheres",
  "whens",
  "yes",
  "no",
  "not",
  "dont",
  "ll",
  "ve",
  "re",
  "s",
  "t",
  "d",
  "m",
  "one",
  "ones",
  "ask",
  "asking",
  "help",
  "question",
  "wondering",
  "hear",
  "heard",
  "interested",
  "happen",
  "coming",
  "take",
  "place",
  "held",
  "organised",
  "organized",
  "really",
]);

const FREE = /\b(?:free(?:\s+of\s+charge)?|gratis|kostenlos|no\s+charge|no\s+cost|without\s+charge)\b/g;

function blank(text: string, spans: Array<[number, number]>): string {
  let out = text;
  for (const [start, end] of spans) out = out.slice(0, start) + " ".repeat(end - start) + out.slice(end);
  return out;
}

function smallTalk(all: string[]): SmallTalk | null {
  if (all.length === 0 || all.includes("help") || all.every((word) => HELP.has(word) || word.length === 1))
    return "help";
  if (all.some((word) => EVENT_WORDS.has(word))) return null;
  if (all.some((word) => THANKS.has(word)) && all.every((word) => THANKS.has(word) || STOP_WORDS.has(word)))
    return "thanks";
  if (all.some((word) => GREETING.has(word))) return "greeting";
  return "help";
}

export function understand(message: string, now: Date, timeZone: string): Intent {
  const none = { smalltalk: null, range: null, topic: [], typed: {}, free: false, affirm: false };
  const folded = fold(message);
  if (!/[\p{L}\p{N}\p{S}\p{P}]/u.test(folded)) return { kind: "empty", ...none };
  if (HANDOFF.some((pattern) => pattern.test(folded))) return { kind: "handoff", ...none };
  const followUp = followUpOf(folded);
  if (followUp) return { kind: "more", ...none, affirm: followUp === "affirm" };

  const date = findDateRange(folded, now, timeZone);
  const withoutDates = date ? blank(folded, date.spans) : folded;
  const free = new RegExp(FREE.source).test(withoutDates);
  const rest = withoutDates.replace(FREE, " ");
  const topic = [
    ...new Set(
      words(rest).filter((word) => word.length >= 3 && word.length <= MAX_WORD_LENGTH && !STOP_WORDS.has(word)),
    ),
  ].slice(0, MAX_TOPIC_WORDS);
  const range = date?.range ?? null;

  if (topic.length === 0 && !range && !free) {
    const talk = smallTalk(words(folded));
    if (talk) return { kind: "smalltalk", ...none, smalltalk: talk };
  }
  const typed: Record<string, string> = {};
  for (const word of words(message.slice(0, MAX_MESSAGE_LENGTH).toLowerCase())) {
    const plain = words(fold(word))[0];
    if (plain && plain !== word && topic.includes(plain)) typed[plain] = word;
  }
  return { kind: "search", smalltalk: null, range, topic, typed, free, affirm: false };
}
