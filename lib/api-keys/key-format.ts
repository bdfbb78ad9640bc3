import "server-only";
import crypto from "node:crypto";
import { BASE62, randomBase62 } from "@/lib/platform/ids";

/*
 * API key format: `ik_live_` + 32 random base62 characters + 6 base62 characters of CRC32 over
 * everything before them. The checksum lets a mistyped or truncated key be rejected without touching
 * the database; it is not a secret and adds no strength (the 32 random characters carry ~190 bits).
 */

export const KEY_PREFIX = "ik_live_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** Characters shown in the dashboard list: `ik_live_` plus the first four random characters. */
export const DISPLAY_PREFIX_LENGTH = 12;
export const API_KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;

const SHAPE = /^ik_live_[0-9A-Za-z]{38}$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the zlib polynomial) of an ASCII string. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Fixed-width base62: 62^6 exceeds 2^32, so six characters hold any CRC-32. */
export function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(): string {
  const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when the text has the key's shape and its checksum matches; no database work. */
export function isWellFormedApiKey(text: string): boolean {
  if (text.length !== API_KEY_LENGTH || !SHAPE.test(text)) return false;
  const split = text.length - CHECKSUM_LENGTH;
  return checksum(text.slice(0, split)) === text.slice(split);
}

/** Hex SHA-256: the only form in which a key is stored. Keys are random, so no salt or slow hash is needed. */
export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key, "utf8").digest("hex");
}

/** What the dashboard may show about a key after creation. */
export function displayParts(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), last4: key.slice(-4) };
}
