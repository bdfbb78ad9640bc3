import { randomBase62 } from "@/lib/platform/ids";

/*
 * Source ids are the last path segment of a public URL, so they must be unguessable: `src_` + 24
 * base62 characters (about 143 bits), drawn without modulo bias.
 */

const PUBLIC_ID = /^src_[0-9A-Za-z]{24}$/;

export function generatePublicId(): string {
  return "src_" + randomBase62(24);
}

/** Lets the webhook answer 404 to malformed ids without touching the database. */
export function isPublicIdFormat(value: string): boolean {
  return PUBLIC_ID.test(value);
}
