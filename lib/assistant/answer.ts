import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { understand, type Intent } from "./intent";
import { composeReply, type AssistantReply } from "./reply";
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
};

export async function answerVisitor({
  accountId,
  timezone,
  message,
  now = new Date(),
  client,
  intent: understood,
}: AnswerInput): Promise<AssistantReply> {
  const timeZone = safeTimeZone(timezone);
  const intent = understood ?? understand(message, now, timeZone);
  let result: SearchResult | null = null;
  if (intent.kind === "search") {
    result = isUuid(accountId)
      ? await searchEvents(client ?? db.pool, {
          accountId,
          timeZone,
          now,
          range: intent.range,
          topic: intent.topic,
          typed: intent.typed,
          free: intent.free,
        })
      : { events: [], complete: false };
  }
  return composeReply(intent, result, timeZone, now);
}
