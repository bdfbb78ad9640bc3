/*
 * What a chat message may contain (docs/conversations.md, "Limits"). Pure, shared by the widget's
 * endpoints, the inbox and the public API. Text is stored as typed and rendered as text everywhere
 * (never as HTML), so markup needs no escaping here; what is refused is what cannot be a message:
 * nothing, too much, or bytes that are not text.
 */

import { fail, type Failure } from "@/lib/platform/result";

export const MAX_MESSAGE_LENGTH = 4_000;
export const MAX_AUTHOR_NAME_LENGTH = 100;

/** Why a text cannot be a message; the visitor endpoints send it as the field's `code`. */
export type TextProblem = "empty" | "too_long" | "not_text";

const EMPTY = fail("empty", "Write a message.");

// C0 controls other than tab, newline and carriage return, DEL, C1 controls, and non-characters.
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
// A UTF-16 surrogate without its partner: what decoding binary as text leaves behind.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message as stored (trimmed), or why it cannot be one. */
export function checkMessageText(value: unknown): { ok: true; text: string } | Failure<TextProblem> {
  if (typeof value !== "string") return EMPTY;
  if (NOT_TEXT.test(value) || LONE_SURROGATE.test(value) || value.includes("\uFFFD")) {
    return fail("not_text", "The message contains characters that are not text.");
  }
  const text = value.trim();
  if (text.length === 0) return EMPTY;
  if ([...text].length > MAX_MESSAGE_LENGTH) {
    return fail("too_long", `A message can be at most ${MAX_MESSAGE_LENGTH.toLocaleString("en")} characters.`);
  }
  return { ok: true, text };
}
