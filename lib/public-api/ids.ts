import crypto from "node:crypto";

/*
 * Public ids of API resources: a type prefix ("lead_", "conv_", …) and 22 base62 characters (about
 * 131 bits), drawn without modulo bias, so ids are unguessable and tell their type at a glance.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const PUBLIC_ID_LENGTH = 22;

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function generatePublicId(prefix: string): string {
  return prefix + randomBase62(PUBLIC_ID_LENGTH);
}

/** Lets a route answer 404 to an id that cannot exist without asking the database. */
export function isPublicId(value: string, prefix: string): boolean {
  return value.length === prefix.length + PUBLIC_ID_LENGTH && value.startsWith(prefix) && /^[0-9A-Za-z]+$/.test(value.slice(prefix.length));
}
