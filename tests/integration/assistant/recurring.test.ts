import { beforeAll, describe, expect, it } from "vitest";
import { answerVisitor } from "@/lib/assistant/answer";
import { db } from "@/lib/platform/db/client";
import { createAccount } from "../../support/factories";

/*
 * The assistant answers with occurrences of recurring series. "Now" is Thursday 3 December 2026, 10:00
 * in Berlin; Morning Yoga began on Saturday 31 October, five weeks earlier, and repeats weekly at 09:00.
 */

const NOW = new Date("2026-12-03T09:00:00Z");
const ZONE = "Europe/Berlin";

let accountId = "";

async function insert(
  title: string,
  startsAt: string,
  recurring: string,
  extra: { endsAt?: string; status?: string; location?: string } = {},
) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO events (account_id, title, starts_at, starts_at_offset, ends_at, location, recurring, status)
     VALUES ($1, $2, $3, '+01:00', $4, $5, $6, $7::"EventStatus") RETURNING id`,
    [accountId, title, startsAt, extra.endsAt ?? null, extra.location ?? "", recurring, extra.status ?? "upcoming"],
  );
  return rows[0].id;
}

const ask = (message: string) => answerVisitor({ accountId, timezone: ZONE, message, now: NOW });

describe("the assistant and recurring events", () => {
  let yogaId = "";

  beforeAll(async () => {
    ({ accountId } = await createAccount("Recurring Venue"));
    yogaId = await insert("Morning Yoga", "2026-10-31T09:00:00+01:00", "weekly", { location: "Studio 2" });
    await insert("Evening pottery", "2026-11-02T18:00:00+01:00", "weekly", { endsAt: "2026-11-02T20:00:00+01:00" });
    await insert("Book club", "2026-01-31T19:00:00+01:00", "monthly");
    await insert("Choir rehearsal", "2026-11-05T19:30:00+01:00", "weekly", { status: "cancelled" });
    await insert("Christmas market opening", "2025-12-05T17:00:00+01:00", "yearly");
  });

  it("lists this Saturday's yoga class among this weekend's events", async () => {
    const reply = await ask("What is on this weekend?");
    expect(reply.events.map((event) => [event.title, event.starts_at])).toEqual(
      [
        ["Christmas market opening", "2026-12-05T16:00:00.000Z"],
        ["Morning Yoga", "2026-12-05T08:00:00.000Z"],
      ].sort((a, b) => a[1].localeCompare(b[1])),
    );
    expect(reply.text).toContain("Morning Yoga — Sat 5 December, 09:00 · every Saturday, 09:00 · Studio 2");
  });

  it("answers a topic question with the next occurrence and how it repeats", async () => {
    const reply = await ask("when is the next yoga?");
    expect(reply.events).toEqual([
      expect.objectContaining({ id: yogaId, title: "Morning Yoga", starts_at: "2026-12-05T08:00:00.000Z" }),
    ]);
    expect(reply.text).toContain("every Saturday, 09:00");
  });

  it("keeps a monthly series on the 31st to the months that have one", async () => {
    const reply = await ask("book club in December");
    expect(reply.events.map((event) => event.starts_at)).toEqual(["2026-12-31T18:00:00.000Z"]);
    expect((await ask("book club next month")).events.map((event) => event.starts_at)).toEqual([
      "2027-01-31T18:00:00.000Z",
    ]);
    expect((await ask("book club in February")).events).toEqual([]);
  });

  it("lists each occurrence of a series in a longer range, up to three", async () => {
    const reply = await ask("pottery next week");
    expect(reply.events.map((event) => event.starts_at)).toEqual(["2026-12-07T17:00:00.000Z"]);
    const december = await ask("yoga in December");
    expect(december.events.map((event) => event.starts_at)).toEqual([
      "2026-12-05T08:00:00.000Z",
      "2026-12-12T08:00:00.000Z",
      "2026-12-19T08:00:00.000Z",
    ]);
  });

  it("never offers a removed occurrence or a cancelled series", async () => {
    await db.pool.query(
      "INSERT INTO event_exceptions (account_id, event_id, occurs_at, " +
        "kind) VALUES ($1, $2, '2026-12-05T08:00:00Z', 'cancelled')",
      [accountId, yogaId],
    );
    try {
      const reply = await ask("when is the next yoga?");
      expect(reply.events.map((event) => event.starts_at)).toEqual(["2026-12-12T08:00:00.000Z"]);
      expect((await ask("choir")).events).toEqual([]);
    } finally {
      await db.pool.query("DELETE FROM event_exceptions WHERE event_id = $1", [yogaId]);
    }
  });

  it("counts an occurrence that is still running", async () => {
    const during = await answerVisitor({
      accountId,
      timezone: ZONE,
      message: "pottery",
      now: new Date("2026-12-07T18:00:00Z"),
    });
    expect(during.events.map((event) => event.starts_at)).toEqual(["2026-12-07T17:00:00.000Z"]);
  });
});
