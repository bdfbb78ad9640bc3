import { describe, expect, it } from "vitest";
import { describeBrowser } from "@/lib/platform/format/browser";

describe("a visitor's browser, as the inbox names it", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
      "Chrome 156 on Linux",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 " +
        "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari 18 on iOS",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox 140 on Windows"],
  ])("names %s", (agent, expected) => {
    expect(describeBrowser(agent)).toBe(expected);
  });

  it("shows an agent it cannot name as sent, cut short", () => {
    expect(describeBrowser("curl/8.5.0")).toMatch(/curl/i);
    expect(describeBrowser("x".repeat(500))).toHaveLength(120);
  });
});
