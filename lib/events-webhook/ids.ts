import crypto from "node:crypto";

/*
 * Source ids are the last path segment of a public URL, so they must be unguessable: `src_` + 24
 * base62 characters (about 143 bits), drawn without modulo bias.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PUBLIC_ID = /^src_[0-9A-Za-z]{24}$/;

export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function generatePublicId(): string {
  return "src_" + randomBase62(24);
}

/** Lets the webhook answer 404 to malformed ids without touching the database. */
export function isPublicIdFormat(value: string): boolean {
  return PUBLIC_ID.test(value);
}
