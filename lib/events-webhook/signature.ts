import crypto from "node:crypto";

/*
 * The signing rule (docs/webhook.md, "Signing"): X-Service-Signature = "sha256=" + lowercase hex of
 * HMAC-SHA256(key = the secret string's UTF-8 bytes, message = timestamp + "." + raw body bytes).
 * No server-only marker: the rule is public, and the benchmark's reference server uses it too.
 */

export const TIMESTAMP_HEADER = "x-service-timestamp";
export const SIGNATURE_HEADER = "x-service-signature";
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;
const TIMESTAMP_FORMAT = /^[0-9]{1,12}$/;

export function signatureDigest(secret: string, timestamp: string, body: Uint8Array | string): Buffer {
  return crypto
    .createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(timestamp, "utf8")
    .update(".")
    .update(body)
    .digest();
}

/** The header value a sender puts in X-Service-Signature. */
export function computeSignature(secret: string, timestamp: string, body: Uint8Array | string): string {
  return "sha256=" + signatureDigest(secret, timestamp, body).toString("hex");
}

/** 1-12 decimal digits within ±300 s of `nowMs`; anything else is invalid_timestamp. */
export function isFreshTimestamp(value: string | null, nowMs: number): value is string {
  if (value === null || !TIMESTAMP_FORMAT.test(value)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(value)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

export function isSignatureFormat(value: string | null): value is string {
  return value !== null && SIGNATURE_FORMAT.test(value);
}

/**
 * Constant-time comparison of the received signature with the expected one. The format check first is
 * not secret-dependent; after it both sides are exactly 32 bytes, as timingSafeEqual requires.
 */
export function verifySignature(secret: string, timestamp: string, body: Uint8Array, header: string | null): boolean {
  if (!isSignatureFormat(header)) return false;
  const received = Buffer.from(header.slice("sha256=".length), "hex");
  return crypto.timingSafeEqual(received, signatureDigest(secret, timestamp, body));
}
