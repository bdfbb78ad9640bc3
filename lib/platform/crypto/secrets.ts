import "server-only";
import crypto from "node:crypto";

/*
 * Secrets at rest: AES-256-GCM ciphertext, base64url(iv | tag | ciphertext), under APP_ENCRYPTION_KEY
 * (base64 of 32 bytes). GCM authenticates, so a tampered or foreign ciphertext fails to decrypt instead
 * of yielding a wrong value. The signing secrets of both webhook directions (the events webhook's sources
 * and the outbound subscriptions) share one format: `whsec_` + 43 base64url characters (32 random bytes).
 */

export const SECRET_PREFIX = "whsec_";
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds ciphertexts to their purpose: a value encrypted for something else under the same key fails.
const SECRET_PURPOSE = "webhook-signing-secret:v1";

export function generateSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString("base64url");
}

export function isSecretFormat(value: string): boolean {
  return /^whsec_[A-Za-z0-9_-]{43}$/.test(value);
}

let cachedKey: { source: string; key: Buffer } | null = null;

/*
 * Node's base64 decoder skips characters it does not know and stops at the first "=", so a mistyped key
 * would silently become a different (or shorter) one. The key must be canonical base64 of 32 bytes:
 * 43 characters and one "=" (the padding may be left out), as `openssl rand -base64 32` prints it.
 */
const KEY_FORMAT = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

/** Why APP_ENCRYPTION_KEY cannot be used, or null when it is a valid key. */
export function encryptionKeyProblem(value: string | undefined): string | null {
  if (!value)
    return (
      "APP_ENCRYPTION_KEY is not set. Set it to 32 random bytes in base64, e.g. the output of: " +
      "openssl rand -base64 32"
    );
  if (!KEY_FORMAT.test(value.trim())) {
    return (
      'APP_ENCRYPTION_KEY must be exactly 32 bytes in base64 (44 characters ending in "=", e.g. the output of: ' +
      "openssl rand -base64 32)."
    );
  }
  return null;
}

function encryptionKey(): Buffer {
  const source = process.env.APP_ENCRYPTION_KEY ?? "";
  if (cachedKey?.source === source) return cachedKey.key;
  const problem = encryptionKeyProblem(source);
  if (problem) throw new Error(problem);
  const key = Buffer.from(source.trim(), "base64");
  cachedKey = { source, key };
  return key;
}

/**
 * Any text under APP_ENCRYPTION_KEY, in the format of the secrets, bound to `purpose` (the GCM additional
 * data): it opens only with the same purpose. For other values that carry a secret, e.g. a stored answer.
 */
export function sealText(text: string, purpose: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/** The text sealText sealed for `purpose`; throws when it was tampered with or sealed for something else. */
export function openSealedText(sealed: string, purpose: string): string {
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("The sealed value is malformed");
  const decipher = crypto.createDecipheriv("aes-256-gcm", encryptionKey(), raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(purpose, "utf8"));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

export function encryptSecret(secret: string): string {
  return sealText(secret, SECRET_PURPOSE);
}

/*
 * Every webhook request reads the ciphertext from the database (so a rotation is seen by the very next
 * request on every instance) but need not pay for decryption each time: results are memoised by
 * ciphertext, which changes on rotation. Bounded so that many sources cannot grow it without limit.
 */
const MEMO_LIMIT = 1_000;
const memo = new Map<string, string>();

export function decryptSecret(stored: string): string {
  const known = memo.get(stored);
  if (known !== undefined) return known;
  const malformed = Buffer.from(stored, "base64url").length <= IV_BYTES + TAG_BYTES;
  if (malformed) throw new Error("The stored secret is malformed");
  const secret = openSealedText(stored, SECRET_PURPOSE);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(stored, secret);
  return secret;
}
