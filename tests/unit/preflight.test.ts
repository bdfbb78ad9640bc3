import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { encryptionKeyProblem, encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";
import { preflightProblems } from "@/lib/server/preflight";

const KEY = crypto.randomBytes(32).toString("base64");
const valid = { NEXTAUTH_URL: "https://app.example.com", APP_ENCRYPTION_KEY: KEY, NEXTAUTH_SECRET: "s".repeat(43) };
const savedKey = process.env.APP_ENCRYPTION_KEY;
afterEach(() => {
  process.env.APP_ENCRYPTION_KEY = savedKey;
});

describe("production start-up checks", () => {
  it("accept an https public URL and valid secrets", () => {
    expect(preflightProblems(valid)).toEqual([]);
  });

  it("refuse a plain-http NEXTAUTH_URL unless ALLOW_INSECURE_HTTP=1", () => {
    const http = { ...valid, NEXTAUTH_URL: "http://app.example.com" };
    expect(preflightProblems(http)).toEqual([expect.stringMatching(/not an https URL.*ALLOW_INSECURE_HTTP=1/)]);
    expect(preflightProblems({ ...http, ALLOW_INSECURE_HTTP: "1" })).toEqual([]);
    expect(preflightProblems({ ...http, ALLOW_INSECURE_HTTP: "true" })).toHaveLength(1);
  });

  it("refuse OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 when the public URL is https", () => {
    const loopback = { ...valid, OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1" };
    const refusal = /OUTBOUND_ALLOW_LOOPBACK_TARGETS=1.*https.*local development and tests/;
    expect(preflightProblems(loopback)).toEqual([expect.stringMatching(refusal)]);
    const local = { NEXTAUTH_URL: "http://127.0.0.1:3000", ALLOW_INSECURE_HTTP: "1" };
    const httpsBase = { ...loopback, ...local, APP_BASE_URL: "https://app.example.com" };
    expect(preflightProblems(httpsBase)).toHaveLength(1);
    // A local http server (npm start's own URL, the end-to-end tests) keeps it.
    expect(preflightProblems({ ...httpsBase, APP_BASE_URL: "http://127.0.0.1:3000" })).toEqual([]);
    expect(preflightProblems({ ...valid, OUTBOUND_ALLOW_LOOPBACK_TARGETS: "0" })).toEqual([]);
  });

  it("refuse a missing NEXTAUTH_URL, NEXTAUTH_SECRET or APP_ENCRYPTION_KEY, naming each", () => {
    const problems = preflightProblems({ ALLOW_INSECURE_HTTP: "1" });
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(
      /NEXTAUTH_URL is not set[\s\S]*APP_ENCRYPTION_KEY is not set[\s\S]*NEXTAUTH_SECRET is not set/,
    );
  });
});

describe("APP_ENCRYPTION_KEY", () => {
  it("accepts 32 bytes of base64, with or without its padding", () => {
    expect(encryptionKeyProblem(KEY)).toBeNull();
    expect(encryptionKeyProblem(KEY.replace(/=$/, ""))).toBeNull();
  });

  it.each([
    ["31 bytes", crypto.randomBytes(31).toString("base64")],
    ["33 bytes", crypto.randomBytes(33).toString("base64")],
    ["64 hex characters", crypto.randomBytes(32).toString("hex")],
    ["base64url alphabet", "-_" + KEY.slice(2).replace(/=$/, "")],
    ["a stray character", KEY.slice(0, 20) + "!" + KEY.slice(21)],
    ["non-canonical last character", KEY.slice(0, 42) + "B="],
  ])("rejects %s", (_label, value) => {
    expect(encryptionKeyProblem(value)).toMatch(/exactly 32 bytes in base64/);
  });

  it("stops encryption with that message instead of using a wrong key", () => {
    process.env.APP_ENCRYPTION_KEY = crypto.randomBytes(32).toString("hex");
    expect(() => encryptSecret(generateSecret())).toThrow(/APP_ENCRYPTION_KEY must be exactly 32 bytes in base64/);
  });
});
