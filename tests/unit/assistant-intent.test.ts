import { describe, expect, it } from "vitest";
import { understand } from "@/lib/assistant/intent";
import { composeFollowUp, composeReply, formatEventTime, isFreePrice } from "@/lib/assistant/reply";

const NOW = new Date("2026-06-10T10:00:00Z");
const read = (message: string) => understand(message, NOW, "Europe/Berlin");
/** An event as the search finds it: Saturday 13 June, 19:30 in Berlin. */
const JAZZ_NIGHT = {
  id: "e1",
  title: "Jazz Night",
  startsAt: new Date("2026-06-13T17:30:00Z"),
  endsAt: null,
  location: "Old Mill",
  url: "https://example.test/jazz",
  price: "0",
  matched: 1,
  recurring: "" as const,
  seriesStartsAt: new Date("2026-06-13T17:30:00Z"),
};

describe("what a visitor's message asks for", () => {
  it.each([
    ["Any jazz this weekend?", ["jazz"], "this weekend, Sat 13 – Sun 14 June"],
    ["Wine tastng at the Old Mill", ["wine", "tastng", "old", "mill"], null],
    ["What's on on Friday?", [], "on Fri 12 June"],
    ["Is there something for the kids' pottery class in May", ["kids", "pottery", "class"], "in May 2027"],
    ["CAFÉ Müller concerts", ["cafe", "muller", "concerts"], null],
    ["<script>alert('x')</script> jazz", ["alert", "jazz"], null],
    ["<b>Yoga</b> tomorrow", ["yoga"], "tomorrow, Thu 11 June"],
  ])("reads %j as topic %j and date %j", (message, topic, label) => {
    const intent = read(message);
    expect(intent.kind).toBe("search");
    expect(intent.topic).toEqual(topic);
    expect(intent.range?.label ?? null).toBe(label);
  });

  it.each([
    "Can I talk to a person?",
    "I'd like to speak with a real person please",
    "human",
    "Agent please",
    "Could someone from your team call me back?",
    "connect me to a human",
    "are you a bot?",
  ])("hears a request for a person in %j", (message) => {
    expect(read(message).kind).toBe("handoff");
  });

  it.each([
    ["hi", "greeting"],
    ["Hello there!", "greeting"],
    ["thanks!", "thanks"],
    ["ok thank you", "thanks"],
    ["help", "help"],
    ["what can you do?", "help"],
    ["???", "help"],
  ])("answers small talk %j as %s", (message, kind) => {
    expect(read(message)).toMatchObject({ kind: "smalltalk", smalltalk: kind });
  });

  it("treats a message with a greeting and a question as a question", () => {
    expect(read("Hi! Anything on tonight?")).toMatchObject({
      kind: "search",
      topic: [],
      range: { label: "tonight, Wed 10 June" },
    });
  });

  it("reads free as a price filter, not a topic word", () => {
    expect(read("free events next week")).toMatchObject({ kind: "search", topic: [], free: true });
  });

  it("keeps at most six topic words from a very long message", () => {
    const intent = read(`jazz ${"lorem ipsum dolor sit amet consectetur adipiscing elit ".repeat(80)}`.slice(0, 4_000));
    expect(intent.topic).toEqual(["jazz", "lorem", "ipsum", "dolor", "sit", "amet"]);
  });

  it.each(["", "   ", "\u0000\u0001"])("treats %j as empty", (message) => {
    expect(read(message).kind).toBe("empty");
  });
});

describe("the reply text", () => {
  it("says what it can do for a greeting and never offers events", () => {
    const reply = composeReply(read("hello"), null, "Europe/Berlin", NOW);
    expect(reply).toMatchObject({ events: [], offerHandoff: false, handoffRequested: false });
    expect(reply.text).toMatch(/^Hello! I can look up our upcoming events/);
  });

  it("marks a request for a person", () => {
    expect(composeReply(read("talk to a human"), null, "UTC", NOW)).toMatchObject({
      handoffRequested: true,
      events: [],
    });
  });

  it("says nothing was found, with the date, not quoting the visitor's words, and offers a person", () => {
    const none = { events: [], complete: false, more: false };
    const reply = composeReply(read("any salsa classes this weekend"), none, "Europe/Berlin", NOW);
    expect(reply.text).toBe(
      "Sorry, I couldn’t find anything like that this weekend, Sat 13 – Sun 14 June. " +
        "Would you like to talk to a person?",
    );
    expect(reply.offerHandoff).toBe(true);
    expect(composeReply(read("salsa"), none, "UTC", NOW).text).toBe(
      "Sorry, I couldn’t find any upcoming events like that. Would you like to talk to a person?",
    );
    expect(composeReply(read("free events in May"), none, "UTC", NOW).text).toBe(
      "There’s nothing free on our calendar in May 2027. Would you like to talk to a person?",
    );
  });

  it("lists an event with local time, location, price and link", () => {
    const reply = composeReply(
      read("jazz"),
      { events: [JAZZ_NIGHT], complete: true, more: false },
      "Europe/Berlin",
      NOW,
    );
    expect(reply.text).toBe(
      "Here is what I found:\n• Jazz Night — Sat 13 June, 19:30 · Old Mill · Free · https://example.test/jazz",
    );
    expect(reply.events).toEqual([
      { id: "e1", title: "Jazz Night", starts_at: "2026-06-13T17:30:00.000Z", url: "https://example.test/jazz" },
    ]);
  });

  it("says what is on a day without saying “on” twice", () => {
    const found = { events: [JAZZ_NIGHT], complete: true, more: false };
    const heading = (question: string) => composeReply(read(question), found, "Europe/Berlin", NOW).text.split("\n")[0];
    expect(heading("What is on on Saturday?")).toBe("Here is what’s on Sat 13 June:");
    expect(heading("what's on this Saturday?")).toBe("Here is what’s on Sat 13 June:");
    expect(heading("What's on this weekend?")).toBe("Here is what’s on this weekend, Sat 13 – Sun 14 June:");
    expect(heading("anything free on Saturday?")).toBe("Here is what’s on with free entry on Sat 13 June:");
  });

  it("lists three of more events, says how many more, and shows them five at a time on “show more”", () => {
    const events = Array.from({ length: 9 }, (_, index) => ({
      id: `e${index + 1}`,
      title: `Concert ${index + 1}`,
      startsAt: new Date(Date.UTC(2026, 5, 11 + index, 18)),
      endsAt: null,
      location: "",
      url: "",
      price: "",
      matched: 1,
      recurring: "" as const,
      seriesStartsAt: new Date(Date.UTC(2026, 5, 11 + index, 18)),
    }));
    const result = { events, complete: true, more: false };
    const first = composeReply(read("concerts"), result, "UTC", NOW);
    expect(first.events.map((event) => event.id)).toEqual(["e1", "e2", "e3"]);
    expect(first.text.split("\n").at(-1)).toBe("…and 6 more. Say “show more” to see them.");

    const more = read("show more");
    const second = composeFollowUp(more, { intent: read("concerts"), result, offset: 3 }, "UTC", NOW);
    expect(second.events.map((event) => event.id)).toEqual(["e4", "e5", "e6", "e7", "e8"]);
    expect(second.text.split("\n")[0]).toBe("Here are 5 more:");
    expect(second.text.split("\n").at(-1)).toBe("…and 1 more. Say “show more” to see it.");
    const third = composeFollowUp(more, { intent: read("concerts"), result, offset: 8 }, "UTC", NOW);
    expect(third.text).toBe("Here is one more:\n• Concert 9 — Fri 19 June, 18:00\nThat’s all of them.");
    const fourth = composeFollowUp(more, { intent: read("concerts"), result, offset: 13 }, "UTC", NOW);
    expect(fourth).toMatchObject({
      events: [],
      text: "That’s everything I found. Ask me about another date or topic.",
    });

    // A search that stopped counting says so.
    expect(composeReply(read("concerts"), { ...result, more: true }, "UTC", NOW).text).toContain("…and 6+ more.");
  });

  it.each([
    ["show more", "more"],
    ["Show me more please", "more"],
    ["the rest", "more"],
    ["and the rest?", "more"],
    ["more", "more"],
    ["any more?", "more"],
    ["Yes, show them", "more"],
    ["what else?", "more"],
    ["others", "more"],
    ["yes", "affirm"],
    ["Yes please!", "affirm"],
    ["sure", "affirm"],
  ])("reads %j as a follow-up (%s)", (message, kind) => {
    expect(read(message)).toMatchObject({ kind: "more", affirm: kind === "affirm" });
  });

  it.each(["more jazz", "show me jazz", "what else is on this weekend", "the rest of June"])(
    "reads %j as a new question, not a follow-up",
    (message) => {
      expect(read(message).kind).toBe("search");
    },
  );

  it.each([
    ["Free", true],
    ["free entry", true],
    ["0", true],
    ["€0.00", true],
    ["0 EUR", true],
    ["€10", false],
    ["€0.50", false],
    ["", false],
    ["Freedom ticket €5", false],
  ])("reads the price %j as free: %s", (price, free) => {
    expect(isFreePrice(price)).toBe(free);
  });

  it("formats times in the account's zone and adds the year only when it is not this year", () => {
    expect(formatEventTime(new Date("2026-06-13T17:30:00Z"), "America/New_York", NOW)).toBe("Sat 13 June, 13:30");
    expect(formatEventTime(new Date("2027-01-02T09:00:00Z"), "Europe/Berlin", NOW)).toBe("Sat 2 January 2027, 10:00");
  });
});
