import { describe, expect, it } from "vitest";
import { linkParts } from "@/app/chat/[widgetId]/_components/linked-text";

describe("links in the chat's answers", () => {
  it("makes http and https addresses links, leaving the sentence's punctuation outside", () => {
    expect(linkParts("Tickets: https://example.com/jazz?night=1. See you!")).toEqual([
      { text: "Tickets: " },
      { text: "https://example.com/jazz?night=1", href: "https://example.com/jazz?night=1" },
      { text: ". See you!" },
    ]);
    expect(linkParts("(http://example.org/a)")).toEqual([
      { text: "(" },
      { text: "http://example.org/a", href: "http://example.org/a" },
      { text: ")" },
    ]);
  });

  it("never links another scheme or markup", () => {
    for (const text of [
      "javascript:alert(1)",
      "data:text/html,<b>x</b>",
      '<a href="https://x.test">x</a>',
      "ftp://example.com/file",
    ]) {
      expect(linkParts(text).filter((part) => part.href && !part.href.startsWith("https://x.test"))).toEqual([]);
    }
    expect(linkParts("plain text")).toEqual([{ text: "plain text" }]);
  });
});
