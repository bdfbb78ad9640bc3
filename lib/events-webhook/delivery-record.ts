import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./signature";

/*
 * What the delivery log keeps of a request: the headers that matter for debugging an integration and
 * the first 16 KiB of the body. Never the secret, and not the signature either (only whether one was
 * present and whether it matched). PostgreSQL text and jsonb cannot hold NUL, so it is replaced.
 */

export const LOGGED_BODY_BYTES = 16 * 1024;
const MAX_HEADER_CHARS = 512;

const lenientUtf8 = new TextDecoder("utf-8", { fatal: false });

export const storable = (text: string, max: number) => text.replaceAll("\u0000", "\uFFFD").slice(0, max);

export type LoggedHeaders = {
  content_type: string | null;
  user_agent: string | null;
  content_length: string | null;
  timestamp: string | null;
  signature_present: boolean;
  signature_valid: boolean | null;
};

export function loggedHeaders(headers: Headers): LoggedHeaders {
  const pick = (name: string) => {
    const value = headers.get(name);
    return value === null ? null : storable(value, MAX_HEADER_CHARS);
  };
  return {
    content_type: pick("content-type"),
    user_agent: pick("user-agent"),
    content_length: pick("content-length"),
    timestamp: pick(TIMESTAMP_HEADER),
    signature_present: headers.has(SIGNATURE_HEADER),
    signature_valid: null,
  };
}

/** The first 16 KiB, decoded leniently (a cut multi-byte character or invalid UTF-8 shows as U+FFFD). */
export function bodyExcerpt(bytes: Uint8Array): string {
  return storable(lenientUtf8.decode(bytes.subarray(0, LOGGED_BODY_BYTES)), LOGGED_BODY_BYTES);
}

/** An event title from an unverified or invalid body, made safe to store. */
export function loggedTitle(title: string | null): string | null {
  if (title === null) return null;
  const clean = storable(title, 1_000)
    .replace(/[\uD800-\uDFFF]/g, "\uFFFD")
    .trim();
  return [...clean].slice(0, 300).join("");
}
