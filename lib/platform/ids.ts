import crypto from "node:crypto";

/*
 * Identifiers shared across domains: random base62 strings (webhook source ids, API keys) and the
 * UUID check that keeps malformed ids from URLs and forms away from uuid columns (which would raise
 * 22P02 instead of matching nothing).
 */

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/** `length` characters drawn uniformly from BASE62 (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/*
 * Public ids of API resources: a type prefix ("lead_", "conv_", …) and 22 base62 characters (about
 * 131 bits), so ids are unguessable and tell their type at a glance.
 */
export const PUBLIC_ID_LENGTH = 22;

export function generatePublicId(prefix: string): string {
  return prefix + randomBase62(PUBLIC_ID_LENGTH);
}

/** Lets a route answer 404 to an id that cannot exist without asking the database. */
export function isPublicId(value: string, prefix: string): boolean {
  return value.length === prefix.length + PUBLIC_ID_LENGTH && value.startsWith(prefix) && /^[0-9A-Za-z]+$/.test(value.slice(prefix.length));
}
