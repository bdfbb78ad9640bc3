import { describe, expect, it } from "vitest";
import { isPublicId, newPublicId, PUBLIC_IDS, type PublicIdKind } from "@/lib/platform/ids";

// Ids are stored and documented: these formats must never change.
const FORMATS: Record<PublicIdKind, RegExp> = {
  lead: /^lead_[0-9A-Za-z]{22}$/,
  conversation: /^conv_[0-9A-Za-z]{22}$/,
  chatMessage: /^msg_[0-9A-Za-z]{22}$/,
  widget: /^wid_[0-9A-Za-z]{22}$/,
  subscription: /^whsub_[0-9A-Za-z]{22}$/,
  notification: /^whmsg_[0-9A-Za-z]{22}$/,
  source: /^src_[0-9A-Za-z]{24}$/,
};

describe("public id registry", () => {
  it("draws every kind in its documented format and recognises only its own kind", () => {
    const kinds = Object.keys(PUBLIC_IDS) as PublicIdKind[];
    for (const kind of kinds) {
      const id = newPublicId(kind);
      expect(id).toMatch(FORMATS[kind]);
      expect(isPublicId(id, kind)).toBe(true);
      for (const other of kinds) if (other !== kind) expect(isPublicId(id, other)).toBe(false);
      expect(isPublicId(id.slice(0, -1), kind)).toBe(false);
      expect(isPublicId(id.slice(0, -1) + "-", kind)).toBe(false);
    }
  });

  it("accepts notification ids with and without the 11 hex digits of time drawn by SQL", () => {
    const random = "a".repeat(22);
    expect(isPublicId(`whmsg_0190f3a2b4c${random}`, "notification")).toBe(true);
    expect(isPublicId(`whmsg_${random}`, "notification")).toBe(true);
    expect(isPublicId(`whmsg_0190F3A2B4C${random}`, "notification")).toBe(false);
    expect(isPublicId(`whmsg_0190f3a2b4${random}`, "notification")).toBe(false);
    expect(isPublicId(`whsub_0190f3a2b4c${random}`, "subscription")).toBe(false);
  });
});
