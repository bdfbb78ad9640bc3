import { z } from "zod";
import { isPublicId } from "@/lib/platform/ids";
import { cursorParam, dateTimeParam, limitParam, orderParam } from "@/lib/api/list";
import { CONVERSATION_STATUSES } from "./model";
import { checkMessageText, MAX_AUTHOR_NAME_LENGTH, MAX_MESSAGE_LENGTH } from "./text";

/*
 * The request schemas of the conversations API (docs/conversations.md); the same schemas describe the
 * API in its OpenAPI document (lib/openapi). Wire names are snake_case; unknown fields are ignored.
 * Pure: no server imports. Message text goes through checkMessageText, the one rule every writer of
 * messages shares, so the API refuses exactly what the widget and the inbox refuse.
 *
 * `.meta()` only annotates the document; it never changes what a schema accepts.
 */

/** Conversations page by (updated_at, id); the tag keeps cursors of other lists away from this one. */
export const CONVERSATION_CURSOR = { tag: "conversations", parts: ["timestamptz", "text"] } as const;
export type ConversationCursor = { updatedAt: string; id: string };
/** Messages page by their seq, oldest first. */
export const MESSAGE_CURSOR = { tag: "messages", parts: ["int8"] } as const;

const acceptConversationCursor = ([updatedAt, id]: string[]): ConversationCursor | null =>
  isPublicId(id, "conversation") ? { updatedAt, id } : null;

/** GET /api/public/conversations */
export const listConversationsQuerySchema = z.object({
  limit: limitParam,
  order: orderParam.meta({
    description: "desc: most recently active first (the default); asc: least recently active first.",
    default: "desc",
  }),
  cursor: cursorParam(CONVERSATION_CURSOR.tag, CONVERSATION_CURSOR.parts, acceptConversationCursor),
  status: z
    .enum(CONVERSATION_STATUSES, { error: `Must be one of ${CONVERSATION_STATUSES.join(", ")}.` })
    .optional()
    .meta({
      description: "Only conversations in this state. `handoff_requested`: waiting for a person.",
      example: "handoff_requested",
    }),
  updated_after: dateTimeParam
    .optional()
    .meta({ description: "Only conversations changed (a message, a state change) after this instant; for polling." }),
});

export type ListConversationsQuery = z.output<typeof listConversationsQuerySchema>;

/** GET /api/public/conversations/{id}/messages: always oldest first (a conversation reads top to bottom). */
export const listMessagesQuerySchema = z.object({
  limit: limitParam,
  cursor: cursorParam(MESSAGE_CURSOR.tag, MESSAGE_CURSOR.parts, ([seq]) => ({ afterSeq: Number(seq) })),
});

export type ListMessagesQuery = z.output<typeof listMessagesQuerySchema>;

const messageText = z
  .string({ error: (issue) => (issue.input === undefined ? "Write a message." : "Must be a string.") })
  .transform((value, ctx) => {
    const checked = checkMessageText(value);
    if (checked.ok) return checked.text;
    ctx.issues.push({
      code: "custom",
      message: checked.message,
      input: value,
      params: { reason: checked.code },
    });
    return z.NEVER;
  })
  .meta({
    minLength: 1,
    maxLength: MAX_MESSAGE_LENGTH,
    pattern: "\\S",
    description:
      `The message, stored as sent (trimmed) and always shown as plain text, never as HTML. ` +
      `1–${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters; control characters other than tab and line ` +
      `breaks are refused.`,
    example: "Hi, I'm Grace from the box office. Yes, there are still seats on Friday.",
  });

const authorName = z
  .string({ error: "Must be a string." })
  .nullish()
  .transform((value, ctx): string | null => {
    if (value == null) return null;
    const checked = checkMessageText(value);
    if (!checked.ok && checked.code === "empty") return null;
    if (!checked.ok) {
      ctx.issues.push({
        code: "custom",
        message: "The author name contains characters that are not text.",
        input: value,
      });
      return z.NEVER;
    }
    if ([...checked.text].length > MAX_AUTHOR_NAME_LENGTH) {
      ctx.issues.push({ code: "custom", message: `Use at most ${MAX_AUTHOR_NAME_LENGTH} characters.`, input: value });
      return z.NEVER;
    }
    return checked.text;
  })
  .meta({
    maxLength: MAX_AUTHOR_NAME_LENGTH,
    description:
      `The name the visitor sees above the message (trimmed, up to ${MAX_AUTHOR_NAME_LENGTH} characters). ` +
      `Missing, null or "": no name.`,
    example: "Grace",
  });

/** POST /api/public/conversations/{id}/messages */
export const postMessageSchema = z
  .object({ text: messageText, author_name: authorName }, { error: "The body must be a JSON object." })
  .meta({ id: "PostMessageRequest", description: "An agent's message to the visitor. Unknown fields are ignored." });

export type PostMessageBody = z.output<typeof postMessageSchema>;
