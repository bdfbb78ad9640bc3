/*
 * What the benchmark's 50 visitors ask, in turn: date-only, topic-only (some with typos) and topic +
 * date questions over the events of tests/bench/chat-seed.ts. Both servers get the question's index.
 */
export const CHAT_QUESTIONS = [
  "What's on tonight?",
  "Any jazz this weekend?",
  "pottery workshop",
  "wine tastng",
  "What's happening tomorrow?",
  "yoga next week",
  "events in Kreuzberg",
  "something on Friday?",
  "quiz night in Pankow",
  "free events this weekend",
  "salsa",
  "in May",
  "board games",
  "film screening next Friday",
  "craft beer",
  "next weekend",
  "comedy in Mitte",
  "poetry slam on 12 June",
  "kids' cooking class",
  "this month",
];
