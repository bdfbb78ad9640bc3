import { describe, expect, it } from "vitest";
import { mergeMessages } from "@/app/(dashboard)/conversations/[id]/_components/use-conversation-poll";
import type { MessageView } from "@/app/(dashboard)/conversations/view-model";

const message = (seq: number, id = `msg_${seq}`): MessageView => ({
  id,
  seq,
  author: "visitor",
  name: "Visitor",
  text: `m${seq}`,
  time: "",
  full: "",
  iso: "",
});

describe("the inbox's message merge", () => {
  it("adds what is new in seq order, once, even when the agent's own reply came first", () => {
    const shown = [message(1), message(2), message(5)];
    const merged = mergeMessages(shown, [message(3), message(4), message(5)]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("keeps the same array when nothing is new, so nothing re-renders", () => {
    const shown = [message(1)];
    expect(mergeMessages(shown, [])).toBe(shown);
    expect(mergeMessages(shown, [message(1)])).toBe(shown);
  });
});
