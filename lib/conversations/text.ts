/*
 * What a chat message may contain (docs/conversations.md, "Limits"). Pure, shared by the widget's
 * endpoints, the inbox and the public API. Text is stored as typed and rendered as text everywhere
 * (never as HTML), so markup needs no escaping here; what is refused is what cannot be a message:
 * nothing, too much, or bytes that are not text.
 */

export const MAX_MESSAGE_LENGTH = 4_000;
export const MAX_AUTHOR_NAME_LENGTH = 100;

export type TextProblem = { code: "empty" | "too_long" | "not_text"; message: string };

// C0 controls other than tab, newline and carriage return, DEL, C1 controls, and non-characters.
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
// A UTF-16 surrogate without its partner: what decoding binary as text leaves behind.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message as stored (trimmed), or why it cannot be one. */
export function checkMessageText(value: unknown): { ok: true; text: string } | { ok: false; problem: TextProblem } {
  if (typeof value !== "string") return { ok: false, problem: { code: "empty", message: "Write a message." } };
  if (NOT_TEXT.test(value) || LONE_SURROGATE.test(value) || value.includes("\uFFFD")) {
    return { ok: false, problem: { code: "not_text", message: "The message contains characters that are not text." } };
  }
  const text = value.trim();
  if (text.length === 0) return { ok: false, problem: { code: "empty", message: "Write a message." } };
  if ([...text].length > MAX_MESSAGE_LENGTH) {
    return {
      ok: false,
      problem: {
        code: "too_long",
        message: `A message can be at most ${MAX_MESSAGE_LENGTH.toLocaleString("en")} characters.`,
      },
    };
  }
  return { ok: true, text };
}
