import { beforeAll, describe, expect, it } from "vitest";
import { answerVisitor } from "@/lib/assistant/answer";
import type { AssistantReply } from "@/lib/assistant/reply";
import { db } from "@/lib/platform/db/client";
import { createAccount } from "../../support/factories";

/*
 * The assistant's behaviour, as a table: visitor questions over a fixed event set in one account, with
 * the events each must answer (in order), or "nothing" (an honest nothing-found that offers a person),
 * "handoff" (a request for a person) or "talk" (small talk, no search). docs/assistant.md quotes it.
 * "Now" is Wednesday 10 June 2026, 10:00 in Berlin.
 */

const NOW = new Date("2026-06-10T08:00:00Z");
const ZONE = "Europe/Berlin";

type Seed = {
  title: string;
  at: string;
  ends?: string;
  location?: string;
  description?: string;
  price?: string;
  status?: "cancelled";
};

const EVENTS: Seed[] = [
  {
    title: "Yoga in the park",
    at: "2026-06-10T18:30",
    location: "Görlitzer Park, Kreuzberg",
    description: "Bring a mat",
    price: "0",
  },
  { title: "Book club: The Hobbit", at: "2026-06-11T19:00", location: "Library, Prenzlauer Berg" },
  {
    title: "Jazz Night",
    at: "2026-06-12T20:00",
    location: "Old Mill, Kreuzberg",
    description: "Live jazz with the Anna Berg Trio",
    price: "€15",
  },
  {
    title: "Kids' pottery workshop",
    at: "2026-06-13T10:00",
    location: "Clay Studio, Neukölln",
    description: "For children aged 6 to 12; aprons provided",
    price: "€8",
  },
  {
    title: "Wine tasting at the Old Mill",
    at: "2026-06-13T18:00",
    location: "Old Mill, Kreuzberg",
    description: "Five natural wines from Brandenburg",
    price: "€25",
  },
  {
    title: "Sunday brunch concert",
    at: "2026-06-14T11:00",
    location: "Café Müller, Schöneberg",
    description: "Piano and strings over brunch",
    price: "Free",
  },
  {
    title: "Chess meetup",
    at: "2026-06-15T18:00",
    location: "Café Müller, Schöneberg",
    description: "All levels welcome",
    price: "Free",
  },
  {
    title: "Open mic",
    at: "2026-06-16T20:00",
    location: "Cellar Bar, Mitte",
    description: "Poetry, music, comedy",
    price: "Free",
  },
  {
    title: "Swing dance class",
    at: "2026-06-17T19:30",
    location: "Ballroom, Kreuzberg",
    description: "No partner needed",
    price: "€12",
  },
  {
    title: "Film screening: Metropolis",
    at: "2026-06-18T21:30",
    location: "Rooftop Cinema, Friedrichshain",
    description: "Silent film with live piano",
    price: "€9",
  },
  { title: "Craft beer tasting", at: "2026-06-19T19:00", location: "Brewery Yard, Wedding", price: "€20" },
  {
    title: "Salsa evening",
    at: "2026-06-20T21:00",
    location: "Markthalle, Kreuzberg",
    description: "Beginners' lesson at 20:30",
    price: "€10",
  },
  {
    title: "Street food market",
    at: "2026-06-21T12:00",
    location: "Markthalle, Kreuzberg",
    description: "Thirty stalls",
    price: "Free entry",
  },
  { title: "History talk: Berlin in 1920", at: "2026-06-23T19:00", location: "Town Hall, Mitte", price: "€5" },
  {
    title: "Jazz Night",
    at: "2026-06-26T20:00",
    location: "Old Mill, Kreuzberg",
    description: "Live jazz with the Anna Berg Trio",
    price: "€15",
  },
  { title: "Photography walk", at: "2026-06-27T09:00", location: "Riverside, Treptow", price: "€12" },
  {
    title: "Cheese and wine evening",
    at: "2026-07-03T19:00",
    location: "Old Mill, Kreuzberg",
    description: "Pairings from local farms",
    price: "€30",
  },
  { title: "Flea market", at: "2026-07-05T08:00", location: "Mauerpark, Prenzlauer Berg", price: "Free" },
  { title: "Pottery for adults", at: "2026-07-07T18:00", location: "Clay Studio, Neukölln", price: "€40" },
  { title: "Poetry slam", at: "2026-07-09T20:00", location: "Cellar Bar, Mitte", price: "€7" },
  {
    title: "Summer jazz festival",
    at: "2026-07-11T14:00",
    ends: "2026-07-12T22:00",
    location: "Riverside Park, Treptow",
    description: "Three stages",
    price: "€35",
  },
  { title: "Garden tour", at: "2026-07-18T10:00", location: "Botanic Garden, Dahlem", price: "€6" },
  { title: "Stand-up comedy night", at: "2026-07-24T20:30", location: "Cellar Bar, Mitte", price: "€14" },
  { title: "Choir concert", at: "2026-08-02T17:00", location: "St. Mary's Church, Mitte", price: "Pay what you can" },
  // Still running: started two hours before "now", and (a longer one) before "now", open until 21 June.
  {
    title: "Farmers' market",
    at: "2026-06-10T08:00",
    ends: "2026-06-10T14:00",
    location: "Winterfeldtplatz, Schöneberg",
    price: "Free",
  },
  {
    title: "Photo exhibition: Faces of Kreuzberg",
    at: "2026-06-01T10:00",
    ends: "2026-06-21T18:00",
    location: "Gallery Nord, Kreuzberg",
    price: "€4",
  },
  // Never answered: cancelled, and over.
  { title: "Jazz brunch", at: "2026-06-14T11:00", location: "Old Mill, Kreuzberg", price: "€20", status: "cancelled" },
  { title: "Jazz Night", at: "2026-06-05T20:00", location: "Old Mill, Kreuzberg", price: "€15" },
];

type Expect = string[] | "nothing" | "handoff" | "talk";
const JAZZ = ["Jazz Night", "Jazz Night", "Summer jazz festival"];

// [question, expected events in order or outcome, and optionally text the reply must contain]
const QUESTIONS: Array<[string, Expect, string?]> = [
  // Topics, exact and with typos
  ["jazz", JAZZ],
  [
    "Any jazz concerts?",
    ["Jazz Night", "Sunday brunch concert", "Jazz Night"],
    "I couldn’t find an exact match, but these come close:",
  ],
  ["jaz nite", JAZZ, "but these come close:"],
  ["wine tasting", ["Wine tasting at the Old Mill"]],
  // The typo is corrected against the account's words ("tastng" → "tasting"), so both words match.
  ["wine tastng", ["Wine tasting at the Old Mill"]],
  ["WINE", ["Wine tasting at the Old Mill", "Cheese and wine evening"]],
  ["pottery", ["Kids' pottery workshop", "Pottery for adults"]],
  ["potery", ["Kids' pottery workshop", "Pottery for adults"]],
  ["Pottery for kids", ["Kids' pottery workshop"]],
  ["tasting", ["Wine tasting at the Old Mill", "Craft beer tasting"]],
  // Events already running come after those still to start.
  ["markets", ["Street food market", "Flea market", "Farmers' market"]],
  ["farmers market", ["Farmers' market"]],
  ["comedy", ["Stand-up comedy night", "Open mic"]],
  ["poetry", ["Poetry slam", "Open mic"]],
  ["swing dancing", ["Swing dance class"]],
  ["the exhibition", ["Photo exhibition: Faces of Kreuzberg"]],
  ["salsa", ["Salsa evening"]],
  ["xyzzy", "nothing"],
  // Locations
  ["something in Kreuzberg", ["Photo exhibition: Faces of Kreuzberg", "Yoga in the park", "Jazz Night"]],
  ["jazz in Kreuzberg", ["Jazz Night", "Jazz Night"]],
  ["at the Old Mill", ["Wine tasting at the Old Mill", "Jazz Night", "Jazz Night"], "…and 1 more. Say “show more”"],
  ["Café Müller", ["Sunday brunch concert", "Chess meetup"]],
  ["events in Treptow", ["Photography walk", "Summer jazz festival"]],
  // Dates only
  ["What's on tonight?", ["Yoga in the park", "Photo exhibition: Faces of Kreuzberg"]],
  ["tomorrow", ["Book club: The Hobbit", "Photo exhibition: Faces of Kreuzberg"]],
  ["What's on this weekend?", ["Kids' pottery workshop", "Wine tasting at the Old Mill", "Sunday brunch concert"]],
  ["next week", ["Chess meetup", "Open mic", "Swing dance class"]],
  ["on Friday", ["Jazz Night", "Photo exhibition: Faces of Kreuzberg"]],
  // The exhibition started more than 14 days before Friday 19 June: no longer counted as running.
  ["next friday?", ["Craft beer tasting"]],
  ["in July", ["Cheese and wine evening", "Flea market", "Pottery for adults"], "…and 4 more."],
  ["anything on 12 June", ["Jazz Night", "Photo exhibition: Faces of Kreuzberg"]],
  ["June 26", ["Jazz Night"]],
  ["in May", "nothing", "There’s nothing on our calendar in May 2027."],
  // More than LISTED match: the count says so.
  ["What's happening?", ["Yoga in the park", "Book club: The Hobbit", "Jazz Night"], "…and 17+ more."],
  // Topic and date
  [
    "Any jazz this weekend?",
    "nothing",
    "Sorry, I couldn’t find anything like that this weekend, Sat 13 – Sun 14 June.",
  ],
  ["jazz on friday", ["Jazz Night"]],
  ["pottery in July", ["Pottery for adults"]],
  ["festival 11.7.", ["Summer jazz festival"]],
  ["history talk in two weeks", ["History talk: Berlin in 1920"]],
  ["history talk next Tuesday", "nothing", "Sorry, I couldn’t find anything like that on Tue 16 June."],
  ["salsa tomorrow", "nothing"],
  ["markets this weekend", "nothing"],
  // Prices
  ["free events this weekend", ["Sunday brunch concert"]],
  ["anything free next week?", ["Chess meetup", "Open mic", "Street food market"]],
  ["Is the yoga free?", ["Yoga in the park"], "Free"],
  ["How much is the wine tasting?", ["Wine tasting at the Old Mill"], "€25"],
  // A person, small talk, bad input
  ["Can I talk to a person?", "handoff"],
  ["I'd rather speak to someone from your team", "handoff"],
  ["human", "handoff"],
  ["hi", "talk", "Hello! I can look up our upcoming events"],
  ["thanks!", "talk", "You’re welcome!"],
  ["", "talk", "I can look up our upcoming events"],
  ["<script>alert('jazz')</script>", JAZZ],
  ["<img src=x onerror=alert(1)> pottery", ["Kids' pottery workshop", "Pottery for adults"]],
  [`Do you have jazz? ${"lorem ipsum dolor sit amet ".repeat(200)}`.slice(0, 4_000), JAZZ],
];

let accountId = "";
const allowed = new Set<string>();
const titles = new Map<string, string>();

beforeAll(async () => {
  ({ accountId } = await createAccount("Assistant Venue"));
  const other = await createAccount("Other Venue");
  const insert = async (account: string, event: Seed) => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, starts_at_offset, ends_at, location, description, price, url, status)
       VALUES ($1, $2, $3, '+02:00', $4, $5, $6, $7, $8, $9::"EventStatus") RETURNING id`,
      [
        account,
        event.title,
        `${event.at}:00+02:00`,
        event.ends ? `${event.ends}:00+02:00` : null,
        event.location ?? "",
        event.description ?? "",
        event.price ?? "",
        `https://venue.example/${encodeURIComponent(event.title)}`,
        event.status ?? "upcoming",
      ],
    );
    return rows[0].id;
  };
  for (const event of EVENTS) {
    const id = await insert(accountId, event);
    titles.set(id, event.title);
    if (event.status !== "cancelled" && new Date(`${event.ends ?? event.at}:00+02:00`) >= NOW) allowed.add(id);
  }
  // Another account's matching event must never be answered.
  await insert(other.accountId, {
    title: "Jazz Night",
    at: "2026-06-13T20:00",
    location: "Old Mill, Kreuzberg",
    price: "€10",
  });
});

const ask = (message: string) => answerVisitor({ accountId, timezone: ZONE, message, now: NOW });

function assertHonest(reply: AssistantReply) {
  for (const event of reply.events)
    expect(allowed.has(event.id), `${event.title} is not an upcoming event of this account`).toBe(true);
  // Every title the text names belongs to an event it returned.
  const named = [...new Set(titles.values())].filter((title) => reply.text.includes(`• ${title} —`));
  expect(named.sort()).toEqual([...new Set(reply.events.map((event) => event.title))].sort());
}

describe("the assistant's answers to visitor questions", () => {
  it.each(QUESTIONS)("answers %j with %j", async (question, expected, contains) => {
    const reply = await ask(question);
    assertHonest(reply);
    if (contains) expect(reply.text).toContain(contains);
    if (expected === "handoff") {
      expect(reply).toMatchObject({ handoffRequested: true, events: [] });
    } else if (expected === "talk") {
      expect(reply).toMatchObject({ handoffRequested: false, offerHandoff: false, events: [] });
    } else if (expected === "nothing") {
      expect(reply.events).toEqual([]);
      expect(reply.text).toMatch(
        /^(Sorry, I couldn’t find any(thing| upcoming events) like that|There’s nothing on our calendar)/,
      );
      expect(reply.text).toContain("Would you like to talk to a person?");
      expect(reply.offerHandoff).toBe(true);
    } else {
      expect(reply.events.map((event) => event.title)).toEqual(expected);
      expect(reply.handoffRequested).toBe(false);
    }
    expect(reply.text).not.toMatch(/<script|<img/i);
    // The visitor's words are never quoted back, and no answer opens with "found nothing".
    expect(reply.text).not.toMatch(/found nothing|closest matches|for “/);
    if (Array.isArray(expected) && reply.text.includes("more. Say “show more”")) expect(expected).toHaveLength(3);
  });

  it("answers with local date and time, location, price and link", async () => {
    const reply = await ask("jazz on friday");
    expect(reply.text).toBe(
      "Here is what I found on Fri 12 June:\n" +
        "• Jazz Night — Fri 12 June, 20:00 · Old Mill, Kreuzberg · €15 · https://venue.example/Jazz%20Night",
    );
  });

  it("answers nothing for an account id that is not a uuid, without querying", async () => {
    const reply = await answerVisitor({ accountId: "not-a-uuid", timezone: ZONE, message: "jazz", now: NOW });
    expect(reply).toMatchObject({ events: [], offerHandoff: true });
  });

  it("falls back to UTC for an unknown time zone", async () => {
    const reply = await answerVisitor({ accountId, timezone: "Mars/Olympus", message: "jazz on friday", now: NOW });
    expect(reply.text).toContain("Fri 12 June, 18:00");
  });
});

describe("following up on a list with “show more”", () => {
  const follow = (message: string, earlier: string[]) =>
    answerVisitor({ accountId, timezone: ZONE, message, now: NOW, earlier });
  const titlesOf = (reply: AssistantReply) => reply.events.map((event) => event.title);

  it("shows the next five of the same list, then the five after those", async () => {
    const first = await ask("What's happening?");
    const second = await follow("show more", ["What's happening?"]);
    assertHonest(second);
    expect(second.text.split("\n")[0]).toBe("Here are 5 more:");
    expect(titlesOf(second)).toEqual([
      "Kids' pottery workshop",
      "Wine tasting at the Old Mill",
      "Sunday brunch concert",
      "Chess meetup",
      "Open mic",
    ]);
    const third = await follow("the rest", ["show more", "What's happening?"]);
    expect(titlesOf(third)).toEqual([
      "Swing dance class",
      "Film screening: Metropolis",
      "Craft beer tasting",
      "Salsa evening",
      "Street food market",
    ]);
    const shown = [first, second, third].flatMap((reply) => reply.events.map((event) => event.id));
    expect(new Set(shown).size).toBe(13);
  });

  it("takes a “yes” to the offer as “show more”, and says when the list is complete", async () => {
    const reply = await follow("yes please", ["at the Old Mill"]);
    expect(reply.text).toBe(
      "Here is one more:\n" +
        "• Cheese and wine evening — Fri 3 July, 19:00 · Old Mill, Kreuzberg · €30 · " +
        "https://venue.example/Cheese%20and%20wine%20evening\n" +
        "That’s all of them.",
    );
    // Passing over small talk in between.
    expect(titlesOf(await follow("show more", ["thanks!", "at the Old Mill"]))).toEqual(["Cheese and wine evening"]);
  });

  it("says there is nothing more, or explains how to reach a person after offering one", async () => {
    expect((await follow("show more", ["jazz"])).text).toBe(
      "That’s everything I found. Ask me about another date or topic.",
    );
    expect((await follow("yes", ["Any jazz this weekend?"])).text).toBe(
      "To talk to a person, press “Talk to a person” below; someone from the team will answer here.",
    );
    expect((await follow("show more", [])).text).toMatch(/^There is no list to continue yet\. I can look up/);
    expect((await follow("yes", [])).text).toMatch(/^I can look up our upcoming events/);
  });

  it("reads “more jazz” as a new question", async () => {
    expect(titlesOf(await follow("more jazz", ["Café Müller"]))).toEqual(JAZZ);
  });
});
