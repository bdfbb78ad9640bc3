import crypto from "node:crypto";
import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readBearerToken } from "@/lib/api-keys/authenticate";
import {
  API_KEY_LENGTH,
  checksum,
  crc32,
  displayParts,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "@/lib/api-keys/key-format";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("API key format", () => {
  it("is ik_live_ + 32 base62 + a 6-character base62 checksum, and passes its own check", () => {
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey();
      expect(key).toMatch(/^ik_live_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(checksum(key.slice(0, 40))).toBe(key.slice(40));
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("never repeats and uses every base62 character", () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
    const used = new Set([...keys].flatMap((key) => [...key.slice(8, 40)]));
    expect(used.size).toBe(62);
  });

  it("rejects every single-character typo by checksum", () => {
    const key = generateApiKey();
    for (let position = 8; position < key.length; position++) {
      for (const replacement of ["0", "Z", "z", "q"]) {
        if (key[position] === replacement) continue;
        const typo = key.slice(0, position) + replacement + key.slice(position + 1);
        expect(isWellFormedApiKey(typo), typo).toBe(false);
      }
    }
  });

  it("rejects swapped neighbours, truncation, other prefixes and stray characters", () => {
    const key = generateApiKey();
    const swapAt =
      [...key.slice(8)].findIndex((char, index, chars) => chars[index + 1] !== undefined && chars[index + 1] !== char) +
      8;
    const swapped = key.slice(0, swapAt) + key[swapAt + 1] + key[swapAt] + key.slice(swapAt + 2);
    for (const bad of [
      swapped,
      key.slice(0, -1),
      key + "a",
      key.replace("ik_live_", "ik_test_"),
      key.replace("ik_live_", "IK_LIVE_"),
      ` ${key}`,
      `${key}\n`,
      key.slice(0, 20) + "-" + key.slice(21),
      "",
    ]) {
      expect(isWellFormedApiKey(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("accepts random base62 bodies exactly when the checksum matches (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...BASE62), minLength: 32, maxLength: 32 }),
        fc.string({ unit: fc.constantFrom(...BASE62), minLength: 6, maxLength: 6 }),
        (body, tail) => {
          const text = `ik_live_${body}`;
          expect(isWellFormedApiKey(text + checksum(text))).toBe(true);
          expect(isWellFormedApiKey(text + tail)).toBe(tail === checksum(text));
        },
      ),
    );
  });
});

describe("checksum", () => {
  it("is standard CRC-32 (check value of '123456789' is 0xCBF43926) and agrees with zlib", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-ascii" }), (text) => {
        expect(crc32(text)).toBe(zlib.crc32(text));
      }),
    );
  });

  it("is always six base62 characters, zero-padded", () => {
    expect(checksum("123456789")).toHaveLength(6);
    for (let i = 0; i < 500; i++) expect(checksum(crypto.randomBytes(8).toString("hex"))).toMatch(/^[0-9A-Za-z]{6}$/);
  });
});

describe("hashing and display", () => {
  it("stores the hex SHA-256 of the full key", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(crypto.createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("shows the first 12 characters and the last 4", () => {
    const key = generateApiKey();
    expect(displayParts(key)).toEqual({ prefix: key.slice(0, 12), last4: key.slice(-4) });
    expect(displayParts(key).prefix.startsWith("ik_live_")).toBe(true);
  });
});

describe("reading the Authorization header", () => {
  const key = generateApiKey();
  const typo = key.slice(0, -1) + (key.endsWith("x") ? "y" : "x");
  it.each([
    [null, "missing"],
    ["", "missing"],
    ["   ", "missing"],
    ["Bearer", "empty"],
    ["Bearer    ", "empty"],
    [`Basic ${Buffer.from(`user:${key}`).toString("base64")}`, "wrong_scheme"],
    [`Token ${key}`, "wrong_scheme"],
    [key, "wrong_scheme"],
    [`Bearer ${typo}`, "malformed"],
    [`Bearer ${key} extra`, "malformed"],
  ] as const)("%j → %s", (header, failure) => {
    expect(readBearerToken(header)).toMatchObject({ ok: false, code: failure });
  });

  it("accepts the Bearer scheme in any case, with surrounding spaces", () => {
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER  ${key} `])
      expect(readBearerToken(header)).toEqual({ ok: true, token: key });
  });
});
