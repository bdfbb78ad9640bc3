/*
 * What the visitor's browser tells us besides messages: the page the chat was opened on, its referrer,
 * the browser's language and user agent (docs/chat-widget.md, "Session data"). Pure. These come from
 * query parameters and headers anyone can write, and the inbox shows them, so only what is plausible is
 * kept: the origin and path of http(s) URLs, a language tag, a bounded user agent. Anything else becomes
 * null rather than refusing the visitor's message.
 */

export const MAX_SESSION_URL_LENGTH = 2_048;
export const MAX_USER_AGENT_LENGTH = 512;
const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/;
// Control characters and lone surrogates would make a header or URL unreadable in the inbox.
const UNPRINTABLE =
  /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * An absolute http(s) URL's origin and path; null for anything else. A page's query and fragment often
 * carry tokens and personal data (reset links, OAuth answers, search terms) that the team, its inbox and
 * its conversation.started subscribers have no business with, and widget.js does not send them; a
 * hostile client can, so they are dropped here too, with the user name and password.
 */
export function sessionUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_SESSION_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const text = url.origin + url.pathname;
  return text.length <= MAX_SESSION_URL_LENGTH ? text : null;
}

/** A BCP 47-looking language tag ("en", "de-CH", "zh-Hant-TW"); null otherwise. */
export function sessionLocale(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const tag = value.split(",", 1)[0]!.split(";", 1)[0]!.trim();
  return tag.length <= 35 && LOCALE.test(tag) ? tag : null;
}

export function sessionUserAgent(value: string | null): string | null {
  const text = (value ?? "").replace(UNPRINTABLE, "").trim();
  return text ? [...text].slice(0, MAX_USER_AGENT_LENGTH).join("") : null;
}

/** The polling cursor `after`: a message seq (0 for "from the start"); null when it is not one. */
export function parseAfter(value: string | null): number | null {
  if (value === null || value === "") return 0;
  if (!/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
