import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { nextOccurrence, occurrencesBetween, type Series } from "@/lib/events/occurrences";
import { wallClockInstant } from "@/lib/platform/format/zoned-time";
import { createAccount, type TestAccount } from "../support/factories";

/*
 * next_occurrence_at in event notifications is computed inside the writers' statements by the SQL
 * function event_next_occurrence_at (migration next_occurrence_in_notifications). It must say exactly
 * what lib/events/occurrences.ts says: random series over zones with DST (including the 30-minute shift of
 * Lord Howe and times inside the gaps and overlaps), durations, instants and removed occurrences.
 */

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/Sao_Paulo",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
];
const DAY = 86_400_000;
let account: TestAccount;

beforeAll(async () => {
  account = await createAccount("Next Occurrence Venue");
});

const sampleArbitrary = fc.record({
  zone: fc.constantFrom(...ZONES),
  recurring: fc.constantFrom("daily", "weekly", "monthly", "yearly") as fc.Arbitrary<
    "daily" | "weekly" | "monthly" | "yearly"
  >,
  year: fc.integer({ min: 1975, max: 2060 }),
  month: fc.integer({ min: 0, max: 11 }),
  day: fc.oneof(fc.integer({ min: 1, max: 27 }), fc.integer({ min: 28, max: 31 })),
  // Every minute of the day, the DST edges between 00:00 and 04:00 included.
  minuteOfDay: fc.oneof(fc.integer({ min: 0, max: 24 * 60 - 1 }), fc.integer({ min: 0, max: 4 * 60 })),
  durationMinutes: fc.option(fc.integer({ min: 0, max: 3 * 24 * 60 }), { nil: null }),
  atDays: fc.integer({ min: -30, max: 12_000 }),
  atMinutes: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  removed: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
});

async function sqlNext(series: Series, at: Date, exceptions: number[]): Promise<Date | null> {
  await db.pool.query("UPDATE accounts SET timezone = $2 WHERE id = $1", [account.accountId, series.timeZone]);
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, ends_at, recurring) VALUES ($1, 'Series', $2, $3, $4)
        RETURNING id`,
      [account.accountId, series.startsAt, series.endsAt, series.recurring],
    );
    for (const occursAt of exceptions) {
      await client.query(
        `INSERT INTO event_exceptions (account_id, occurs_at, event_id, kind) VALUES ($1, $2, $3, 'cancelled')`,
        [account.accountId, new Date(occursAt), inserted.rows[0].id],
      );
    }
    const found = await client.query<{ next: Date | null }>(
      `SELECT event_next_occurrence_at(e, $2) AS next FROM events e WHERE id = $1`,
      [inserted.rows[0].id, at],
    );
    return found.rows[0].next;
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** A recurring event of the account, which is set to Berlin time; its id. */
async function berlinSeries(title: string, startsAt: string, recurring: string): Promise<string> {
  await db.pool.query("UPDATE accounts SET timezone = 'Europe/Berlin' WHERE id = $1", [account.accountId]);
  const inserted = await db.pool.query<{ id: string }>(
    "INSERT INTO events (account_id, title, starts_at, recurring) VALUES ($1, $2, $3, $4) RETURNING id",
    [account.accountId, title, startsAt, recurring],
  );
  return inserted.rows[0].id;
}

describe("next_occurrence_at computed in SQL", () => {
  it("is the occurrence lib/events/occurrences.ts names, over random series, zones, instants, exceptions", async () => {
    await fc.assert(
      fc.asyncProperty(sampleArbitrary, async (sample) => {
        const lastDay = new Date(Date.UTC(sample.year, sample.month + 1, 0)).getUTCDate();
        const wallStart =
          Date.UTC(sample.year, sample.month, Math.min(sample.day, lastDay)) + sample.minuteOfDay * 60_000;
        const startsAt = wallClockInstant(wallStart, sample.zone);
        const endsAt =
          sample.durationMinutes === null ? null : new Date(startsAt.getTime() + sample.durationMinutes * 60_000);
        const series: Series = { startsAt, endsAt, recurring: sample.recurring, timeZone: sample.zone };
        const at = new Date(startsAt.getTime() + sample.atDays * DAY + sample.atMinutes * 60_000);
        // Remove some of the occurrences around `at`, so the answer must skip them.
        const near = occurrencesBetween(series, at, new Date(at.getTime() + 4_000 * DAY), 4);
        const exceptions = [
          ...new Set(
            sample.removed.map((index) => near[index]?.startsAt.getTime()).filter((value) => value !== undefined),
          ),
        ];
        const expected = nextOccurrence({ ...series, exceptions: new Set(exceptions) }, at);
        expect(await sqlNext(series, at, exceptions)).toEqual(expected?.startsAt ?? null);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it("resolves a daily 02:30 across DST changes as RFC 5545 does (gap: offset before; overlap: first)", async () => {
    const id = await berlinSeries("Night shift", "2026-01-10T01:30:00Z", "daily");
    const next = (at: string) =>
      db.pool
        .query<{ next: Date }>(`SELECT event_next_occurrence_at(e, $2) AS next FROM events e WHERE id = $1`, [id, at])
        .then((result) => result.rows[0].next.toISOString());
    // 29 March 2026: 02:30 does not exist in Berlin; it is read as 02:30 CET, i.e. 03:30 CEST.
    expect(await next("2026-03-29T00:00:00Z")).toBe("2026-03-29T01:30:00.000Z");
    // 25 October 2026: 02:30 happens twice; the first (CEST) is the occurrence.
    expect(await next("2026-10-25T00:00:00Z")).toBe("2026-10-25T00:30:00.000Z");
  });

  it("skips the occurrence the statement itself removes and offers the one it restores", async () => {
    const id = await berlinSeries("Yoga", "2026-10-31T08:00:00Z", "weekly");
    await db.pool.query(
      `INSERT INTO event_exceptions (account_id, occurs_at, event_id, kind)
        VALUES ($1, '2026-12-05T08:00:00Z', $2, 'cancelled')`,
      [account.accountId, id],
    );
    const next = (removed: string | null, restored: string | null) =>
      db.pool
        .query<{ next: Date }>(
          `SELECT event_next_occurrence_at(e, '2026-12-01T00:00:00Z', $2, $3) AS next FROM events e WHERE id = $1`,
          [id, removed, restored],
        )
        .then((result) => result.rows[0].next.toISOString());
    expect(await next(null, null)).toBe("2026-12-12T08:00:00.000Z");
    expect(await next(null, "2026-12-05T08:00:00Z")).toBe("2026-12-05T08:00:00.000Z");
    expect(await next("2026-12-12T08:00:00Z", null)).toBe("2026-12-19T08:00:00.000Z");
  });

  it("is null for a cancelled series and for a series whose next occurrence would be past year 9999", async () => {
    const row = (fields: Record<string, string>) =>
      `jsonb_populate_record(null::events, jsonb_build_object('id', gen_random_uuid(), 'account_id', $1::uuid,
        'title', 'S', 'location', '',
        ${Object.entries(fields)
          .map(([key, value]) => `'${key}', '${value}'`)
          .join(", ")}))`;
    const cancelled = row({ starts_at: "2020-01-01T10:00:00Z", recurring: "weekly", status: "cancelled" });
    const late = row({ starts_at: "2020-02-29T10:00:00Z", recurring: "yearly", status: "upcoming" });
    const running = row({
      starts_at: "2020-01-01T10:00:00Z",
      ends_at: "2020-01-01T12:00:00Z",
      recurring: "daily",
      status: "upcoming",
    });
    const found = await db.pool.query<{ cancelled: Date | null; late: Date | null; running: Date | null }>(
      `SELECT event_next_occurrence_at(${cancelled}, now()) AS cancelled,
              event_next_occurrence_at(${late}, '9996-03-01T00:00:00Z') AS late,
              event_next_occurrence_at(${running}, '2026-12-01T11:00:00Z') AS running`,
      [account.accountId],
    );
    // A running occurrence has not ended: it is still the one named.
    expect(found.rows[0]).toEqual({ cancelled: null, late: null, running: new Date("2026-12-01T10:00:00Z") });
  });
});

describe("a change of the account's zone", () => {
  it("moves removed occurrences with the series, so each still removes the occurrence it named", async () => {
    const moved = await createAccount("Moving Venue");
    await db.pool.query("UPDATE accounts SET timezone = 'Europe/Berlin' WHERE id = $1", [moved.accountId]);
    const inserted = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, recurring)
        VALUES ($1, 'Yoga', '2026-10-31T08:00:00Z', 'weekly') RETURNING id`,
      [moved.accountId],
    );
    // Saturday 5 December, 09:00 in Berlin.
    await db.pool.query(
      `INSERT INTO event_exceptions (account_id, occurs_at, event_id, kind)
        VALUES ($1, '2026-12-05T08:00:00Z', $2, 'cancelled')`,
      [moved.accountId, inserted.rows[0].id],
    );
    await db.pool.query("UPDATE accounts SET timezone = 'America/New_York' WHERE id = $1", [moved.accountId]);
    const { rows } = await db.pool.query<{ occurs_at: Date }>(
      "SELECT occurs_at FROM event_exceptions WHERE account_id = $1",
      [moved.accountId],
    );
    // The series now keeps its first start's New York wall clock, 04:00 (08:00Z on 31 October, EDT): the
    // removed fifth Saturday is 5 December 04:00 EST, 09:00Z.
    expect(rows.map((row) => row.occurs_at.toISOString())).toEqual(["2026-12-05T09:00:00.000Z"]);
    const series = {
      startsAt: new Date("2026-10-31T08:00:00Z"),
      endsAt: null,
      recurring: "weekly" as const,
      timeZone: "America/New_York",
    };
    const december = occurrencesBetween(series, new Date("2026-12-01T00:00:00Z"), new Date("2026-12-08T00:00:00Z"));
    expect(december.map((occurrence) => occurrence.startsAt.toISOString())).toContain("2026-12-05T09:00:00.000Z");
  });
});
