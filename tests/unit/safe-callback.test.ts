import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/app/(auth)/safe-callback";

describe("safeCallbackUrl", () => {
  it("follows a same-site path", () => {
    expect(safeCallbackUrl("/settings/api-keys?x=1")).toBe("/settings/api-keys?x=1");
  });
  it.each(["https://evil.example", "//evil.example", "/\\evil.example", "", undefined, 42])("refuses %s and goes to the dashboard", (value) => {
    expect(safeCallbackUrl(value)).toBe("/knowledge/events");
  });
});
