import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/app/(auth)/safe-callback";

describe("safeCallbackUrl", () => {
  it.each(["/settings/api-keys?x=1", "/knowledge/events#upcoming", "/"])("follows the same-site path %s", (path) => {
    expect(safeCallbackUrl(path)).toBe(path);
  });

  it("follows a same-site path with dot segments as the browser resolves it", () => {
    expect(safeCallbackUrl("/knowledge/../settings/api-keys")).toBe("/settings/api-keys");
  });

  it.each([
    ["an absolute URL", "https://evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a slash and backslash", "/\\evil.example"],
    ["a backslash and slash", "\\/evil.example"],
    ["a tab browsers strip", "/\t/evil.example"],
    ["a newline browsers strip", "/\n/evil.example"],
    ["a carriage return browsers strip", "/\r/evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["a scheme without slashes", "https:evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a path that normalises to two slashes", "/.//evil.example"],
    ["an empty string", ""],
    ["a non-string", 42],
    ["no value", undefined],
  ])("refuses %s and goes to the dashboard's Overview", (_label, value) => {
    expect(safeCallbackUrl(value)).toBe("/");
  });
});
