import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { isPublicId, newPublicId } from "@/lib/platform/ids";
import { decryptSecret, encryptSecret, generateSecret, isSecretFormat } from "@/lib/platform/crypto/secrets";
import { computeSignature, isFreshTimestamp, verifySignature } from "@/lib/events-webhook/signature";
import { SIGNING_TEST_VECTOR } from "@/lib/events-webhook/test-vector";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the published signing test vector", () => {
  it("signs timestamp + '.' + body with the secret string as HMAC-SHA256 key to the documented signature", () => {
    const { secret, timestamp, body, signature, signedPayload } = SIGNING_TEST_VECTOR;
    expect(signedPayload).toBe(`${timestamp}.${body}`);
    expect(computeSignature(secret, timestamp, body)).toBe(signature);
    expect(signature).toBe("sha256=6cbe5e3afdac3102ccf64a95717856e8f9205b5a4515fbdcff830acff5a08c82");
    // Independent of our helper: plain node:crypto over the signed payload.
    expect("sha256=" + crypto.createHmac("sha256", secret).update(signedPayload).digest("hex")).toBe(signature);
  });

  it("verifies the vector and rejects any change to timestamp, body or secret", () => {
    const { secret, timestamp, body, signature } = SIGNING_TEST_VECTOR;
    expect(verifySignature(secret, timestamp, bytes(body), signature)).toBe(true);
    expect(verifySignature(secret, "1767225601", bytes(body), signature)).toBe(false);
    expect(verifySignature(secret, timestamp, bytes(body + " "), signature)).toBe(false);
    expect(verifySignature(secret.slice(0, -1) + "A", timestamp, bytes(body), signature)).toBe(false);
  });

  it("uses a secret of the issued format", () => {
    expect(isSecretFormat(SIGNING_TEST_VECTOR.secret)).toBe(true);
  });
});

describe("signature header format", () => {
  const { secret, timestamp, body, signature } = SIGNING_TEST_VECTOR;
  const hex = signature.slice(7);

  it.each([
    ["uppercase hex", "sha256=" + hex.toUpperCase()],
    ["a different prefix", "sha1=" + hex],
    ["no prefix", hex],
    ["63 hex digits", "sha256=" + hex.slice(1)],
    ["65 hex digits", "sha256=" + hex + "0"],
    ["surrounding spaces", ` ${signature} `],
    ["two signatures", `${signature}, ${signature}`],
  ])("rejects %s", (_, header) => {
    expect(verifySignature(secret, timestamp, bytes(body), header)).toBe(false);
  });

  it("rejects a missing header", () => {
    expect(verifySignature(secret, timestamp, bytes(body), null)).toBe(false);
  });
});

describe("timestamp window", () => {
  const now = 1_767_225_600_000;
  it.each([
    ["exactly now", "1767225600", true],
    ["300 seconds old", "1767225300", true],
    ["300 seconds ahead", "1767225900", true],
    ["301 seconds old", "1767225299", false],
    ["301 seconds ahead", "1767225901", false],
    ["13 digits (milliseconds)", "1767225600000", false],
    ["non-numeric", "1767225600a", false],
    ["a decimal", "1767225600.0", false],
    ["negative", "-1767225600", false],
    ["empty", "", false],
  ])("%s → %s", (_, value, fresh) => {
    expect(isFreshTimestamp(value, now)).toBe(fresh);
  });

  it("treats a missing header as invalid", () => {
    expect(isFreshTimestamp(null, now)).toBe(false);
  });
});

describe("secrets and source ids", () => {
  it("generates whsec_ + 43 base64url characters from 32 random bytes", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), "base64url")).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it("encrypts with AES-256-GCM: ciphertext hides the secret, decrypts back, and fails when tampered", () => {
    const secret = generateSecret();
    const stored = encryptSecret(secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(encryptSecret(secret)).not.toBe(stored);
    expect(decryptSecret(stored)).toBe(secret);
    const raw = Buffer.from(stored, "base64url");
    raw[raw.length - 1] ^= 1;
    expect(() => decryptSecret(raw.toString("base64url"))).toThrow();
  });

  it("makes unguessable public source ids: src_ + 24 base62 characters", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newPublicId("source")));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isPublicId(id, "source")).toBe(true);
    expect(isPublicId("src_short", "source")).toBe(false);
    expect(isPublicId("src_../../../etc/passwd0000", "source")).toBe(false);
  });
});
