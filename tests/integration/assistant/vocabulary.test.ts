import { describe, expect, it } from "vitest";
import { answerVisitor } from "@/lib/assistant/answer";
import { db } from "@/lib/platform/db/client";
import { createAccount } from "../../support/factories";

/* The account's vocabulary (event_words), which typos are corrected against, follows every writer of events. */

const words = async (accountId: string) =>
  (
    await db.pool.query<{ word: string }>("SELECT word FROM event_words WHERE account_id = $1 ORDER BY word", [
      accountId,
    ])
  ).rows.map((row) => row.word);

const addEvent = (accountId: string, title: string, location: string) =>
  db.pool.query<{ id: string }>(
    `INSERT INTO events (account_id, title, starts_at, location) VALUES ($1, $2, now() + interval '3 days', $3)
      RETURNING id`,
    [accountId, title, location],
  );

describe("the vocabulary of an account's events", () => {
  it("holds the letter words of 3+ characters of new titles and locations, lower-cased, without numbers", async () => {
    const { accountId } = await createAccount();
    await addEvent(accountId, "Pottery Workshop 2027", "Clay Studio, Neukölln");
    expect(await words(accountId)).toEqual(["clay", "neukölln", "pottery", "studio", "workshop"]);
  });

  it("learns the words of a renamed event, so a typo of the new title finds it", async () => {
    const { accountId } = await createAccount();
    const { rows } = await addEvent(accountId, "Open mic", "Cellar Bar");
    await db.pool.query("UPDATE events SET title = 'Harmonica evening' WHERE id = $1", [rows[0].id]);
    expect(await words(accountId)).toEqual(expect.arrayContaining(["harmonica", "evening"]));
    const reply = await answerVisitor({ accountId, timezone: "UTC", message: "harmonca" });
    expect(reply.events.map((event) => event.title)).toEqual(["Harmonica evening"]);
  });

  it("keeps each account's words to itself", async () => {
    const a = await createAccount();
    const b = await createAccount();
    await addEvent(a.accountId, "Zither recital", "Hall");
    expect(await words(b.accountId)).toEqual([]);
    const reply = await answerVisitor({ accountId: b.accountId, timezone: "UTC", message: "zithr" });
    expect(reply.events).toEqual([]);
  });
});

describe("the search words of an event", () => {
  const searchWords = async (id: string) =>
    (await db.pool.query<{ search_words: string[] }>("SELECT search_words FROM events WHERE id = $1", [id])).rows[0]
      .search_words;

  it("hold every word of title, location and description, lower-cased, with prefixes from three letters", async () => {
    const { accountId } = await createAccount();
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, location, description)
        VALUES ($1, 'Pottery Workshop', now() + interval '3 days', 'Café Müller', 'Aprons provided') RETURNING id`,
      [accountId],
    );
    const found = await searchWords(rows[0].id);
    expect(found).toEqual(
      expect.arrayContaining([
        "pot",
        "pott",
        "pottery",
        "workshop",
        "caf",
        "café",
        "müller",
        "apr",
        "aprons",
        "provided",
      ]),
    );
    expect(found).not.toContain("po");
  });

  it("follow a changed description: the assistant finds the event by its new words, not its old ones", async () => {
    const { accountId } = await createAccount();
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, description)
        VALUES ($1, 'Open studio', now() + interval '3 days', 'Aprons provided') RETURNING id`,
      [accountId],
    );
    await db.pool.query("UPDATE events SET description = 'Bring your own easel' WHERE id = $1", [rows[0].id]);
    expect(await searchWords(rows[0].id)).toEqual(expect.arrayContaining(["eas", "easel"]));
    expect(await searchWords(rows[0].id)).not.toContain("aprons");
    expect(
      (await answerVisitor({ accountId, timezone: "UTC", message: "easels" })).events.map((event) => event.title),
    ).toEqual(["Open studio"]);
    expect((await answerVisitor({ accountId, timezone: "UTC", message: "aprons" })).events).toEqual([]);
  });
});
