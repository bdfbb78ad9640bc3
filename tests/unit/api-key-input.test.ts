import { describe, expect, it } from "vitest";
import { parseCreateApiKey, parseExpiry } from "@/lib/api-keys/input";
import { keyState } from "@/lib/api-keys/keys";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SCOPE_DESCRIPTIONS, SCOPE_PRESETS, SCOPES } from "@/lib/api-keys/scopes";

const now = new Date("2026-06-15T12:00:00Z");

describe("create-key input", () => {
  it("trims the name, orders and de-duplicates scopes, and reads the expiry", () => {
    const result = parseCreateApiKey(
      {
        name: "  Zapier  ",
        scopes: ["webhooks", "read:leads", "webhooks"],
        expiresAt: "2026-07-01T23:59:59.999+02:00",
      },
      now,
    );
    expect(result).toEqual({
      ok: true,
      input: { name: "Zapier", scopes: ["read:leads", "webhooks"], expiresAt: new Date("2026-07-01T21:59:59.999Z") },
    });
  });

  it("accepts a 100-character name and no expiry", () => {
    const result = parseCreateApiKey({ name: "x".repeat(100), scopes: ["read:leads"], expiresAt: "" }, now);
    expect(result.ok && result.input.expiresAt).toBe(null);
  });

  it.each([
    [{ name: "", scopes: ["read:leads"], expiresAt: "" }, { name: "Enter a name for the key." }],
    [{ name: "   ", scopes: ["read:leads"], expiresAt: "" }, { name: "Enter a name for the key." }],
    [{ name: "x".repeat(101), scopes: ["read:leads"], expiresAt: "" }, { name: "Use at most 100 characters." }],
    [{ name: "ok", scopes: [], expiresAt: "" }, { scopes: "Choose at least one scope." }],
    [
      { name: "ok", scopes: ["read:leads", "admin"], expiresAt: "" },
      { scopes: expect.stringContaining('Unknown scope "admin"') },
    ],
    [{ name: "ok", scopes: ["read:leads"], expiresAt: "2026-06-14" }, { expiresAt: "Choose a date in the future." }],
    [
      { name: "ok", scopes: ["read:leads"], expiresAt: "2026-06-15T11:59:59Z" },
      { expiresAt: "Choose a date in the future." },
    ],
    [{ name: "ok", scopes: ["read:leads"], expiresAt: "2026-02-31" }, { expiresAt: "Enter a valid date." }],
    [{ name: "ok", scopes: ["read:leads"], expiresAt: "next week" }, { expiresAt: "Enter a valid date." }],
    [
      { name: null, scopes: [], expiresAt: "yesterday" },
      { name: "Enter a name for the key.", scopes: "Choose at least one scope.", expiresAt: "Enter a valid date." },
    ],
  ])("%j is refused with field errors", (raw, fieldErrors) => {
    expect(parseCreateApiKey(raw, now)).toEqual({ ok: false, fieldErrors });
  });

  it("reads a bare date as the end of that day in UTC", () => {
    expect(parseExpiry("2026-06-15")).toEqual(new Date("2026-06-15T23:59:59.999Z"));
    expect(parseCreateApiKey({ name: "ok", scopes: ["webhooks"], expiresAt: "2026-06-15" }, now).ok).toBe(true);
  });

  it("has one preset per row of the recommended-minimum table, using only known scopes", () => {
    expect(SCOPE_PRESETS.map((preset) => preset.label)).toEqual([
      "Automation tool, trigger only",
      "Automation tool, trigger plus lead actions",
      "Workflow tool, receive events",
      "Workflow tool, receive events and write leads",
      "Custom backend, read only",
    ]);
    for (const preset of SCOPE_PRESETS) for (const scope of preset.scopes) expect(SCOPES).toContain(scope);
  });
});

describe("scope descriptions", () => {
  // A webhooks key receives every notification it subscribes to, lead and conversation payloads included:
  // whoever makes a key for a trigger-only tool must see that it reads that data.
  const webhooksReads =
    "Create subscriptions and receive the notifications they carry, including lead and conversation data";

  it("say where keys are made that the webhooks scope receives lead and conversation data", () => {
    expect(SCOPE_DESCRIPTIONS.webhooks).toContain(webhooksReads);
  });

  it("match the scope table of docs/api-keys.md", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/api-keys.md"), "utf8");
    for (const scope of SCOPES) expect(doc).toContain(`| \`${scope}\` | ${SCOPE_DESCRIPTIONS[scope]} |`);
  });
});

describe("key state", () => {
  it("is exact to the millisecond, and revoked wins", () => {
    const expiresAt = new Date(now.getTime() + 1);
    expect(keyState({ revokedAt: null, expiresAt: null }, now)).toBe("active");
    expect(keyState({ revokedAt: null, expiresAt }, now)).toBe("active");
    expect(keyState({ revokedAt: null, expiresAt: now }, now)).toBe("expired");
    expect(keyState({ revokedAt: now, expiresAt }, now)).toBe("revoked");
  });
});
