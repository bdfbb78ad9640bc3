import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { understand, type Intent } from "./intent";
import { composeFollowUp, composeReply, LISTED, PAGE, SHOWN, type AssistantReply } from "./reply";
import { searchEvents, type Queryable, type SearchResult } from "./search";

/*
 * The assistant: a visitor's message in, the answer out, from the account's events only (no language
 * model). Deterministic for a given message, `now` and event set; docs/assistant.md describes what it
 * understands.
 */

export type AnswerInput = {
  accountId: string;
  /** The account's IANA time zone; an unknown zone falls back to UTC. */
  timezone: string;
  message: string;
  now?: Date;
  /** Defaults to the app's pool; the benchmark passes its own. */
  client?: Queryable;
  /** The message already understood (the chat reads it first to spot a request for a person). */
  intent?: Intent;
  /**
   * The visitor's earlier messages in this conversation, newest first; "show more" continues the list of
   * the latest question among them. The chat reads them only for such a message.
   */
  earlier?: readonly string[];
};

/** How far back "show more" looks for the question it continues. */
export const EARLIER_MESSAGES = 10;

/**
 * The question a "show more" continues, and how many "show more"s already followed it: the latest
 * search among the earlier messages, passing over small talk; a request for a person ends the search.
 */
export function questionToContinue(
  earlier: readonly string[],
  now: Date,
  timeZone: string,
): { intent: Intent; pages: number } | null {
  let pages = 0;
  for (const message of earlier.slice(0, EARLIER_MESSAGES)) {
    const intent = understand(message, now, timeZone);
    if (intent.kind === "search") return { intent, pages };
    if (intent.kind === "handoff") return null;
    if (intent.kind === "more") pages += 1;
  }
  return null;
}

export async function answerVisitor({
  accountId,
  timezone,
  message,
  now = new Date(),
  client,
  intent: understood,
  earlier = [],
}: AnswerInput): Promise<AssistantReply> {
  const timeZone = safeTimeZone(timezone);
  const intent = understood ?? understand(message, now, timeZone);
  const search = async (question: Intent): Promise<SearchResult> =>
    isUuid(accountId)
      ? searchEvents(client ?? db.pool, {
          accountId,
          timeZone,
          now,
          range: question.range,
          topic: question.topic,
          typed: question.typed,
          free: question.free,
          // Every answer reads the whole list it may page through, so "and N more" and each page agree.
          limit: LISTED,
        })
      : { events: [], complete: false, more: false };
  if (intent.kind === "more") {
    const question = questionToContinue(earlier, now, timeZone);
    if (!question) return composeFollowUp(intent, null, timeZone, now);
    const result = await search(question.intent);
    return composeFollowUp(
      intent,
      { intent: question.intent, result, offset: SHOWN + question.pages * PAGE },
      timeZone,
      now,
    );
  }
  const result = intent.kind === "search" ? await search(intent) : null;
  return composeReply(intent, result, timeZone, now);
}
