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
 * The registry of public id prefixes: every id the app hands out (stored in the database, written in
 * docs/*.md, read back from URLs) is a prefix from this table followed by base62 characters. Ids are
 * unguessable and tell their type at a glance. Changing a prefix or a length breaks stored ids. API keys
 * (lib/api-keys/key-format.ts) and signing secrets are secrets, not ids, and keep their own formats.
 */
export const PUBLIC_IDS = {
  /** A lead (API and dashboard). */
  lead: { prefix: "lead_", length: 22 },
  /** A chat conversation. */
  conversation: { prefix: "conv_", length: 22 },
  /** A message of a chat conversation. */
  chatMessage: { prefix: "msg_", length: 22 },
  /** An account's chat widget (the id in its embed snippet). */
  widget: { prefix: "wid_", length: 22 },
  /** An outbound webhook subscription. */
  subscription: { prefix: "whsub_", length: 22 },
  /**
   * An outbound webhook notification (the webhook-id receivers de-duplicate on). Drawn in SQL by
   * outbound_public_id: 11 hex digits of milliseconds then 22 random characters; ids written before
   * that migration have only the 22 random ones, so both stay valid.
   */
  notification: { prefix: "whmsg_", length: 22 },
  /** An inbound events-webhook source: the last segment of its public URL, hence 24 characters. */
  source: { prefix: "src_", length: 24 },
} as const;

export type PublicIdKind = keyof typeof PUBLIC_IDS;

/** A new random id of the kind: its prefix and `length` base62 characters (22 carry about 131 bits). */
export function newPublicId(kind: PublicIdKind): string {
  const { prefix, length } = PUBLIC_IDS[kind];
  return prefix + randomBase62(length);
}

const BASE62_ONLY = /^[0-9A-Za-z]+$/;
const NOTIFICATION_TIME = /^[0-9a-f]{11}$/;

/** Lets a route answer 404 to an id that cannot exist without asking the database. */
export function isPublicId(value: string, kind: PublicIdKind): boolean {
  const { prefix, length } = PUBLIC_IDS[kind];
  if (typeof value !== "string" || !value.startsWith(prefix)) return false;
  let rest = value.slice(prefix.length);
  if (kind === "notification" && rest.length === length + 11) {
    if (!NOTIFICATION_TIME.test(rest.slice(0, 11))) return false;
    rest = rest.slice(11);
  }
  return rest.length === length && BASE62_ONLY.test(rest);
}
