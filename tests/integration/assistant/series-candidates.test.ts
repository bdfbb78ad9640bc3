import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { seriesOccurrences } from "@/lib/assistant/series";
import { db } from "@/lib/platform/db/client";
import { occurrencesBetween, type Series } from "@/lib/events/occurrences";
import type { Recurrence } from "@/lib/events/schema";
import { createAccount } from "../../support/factories";

/*
 * The assistant reads only the series whose phase can fall in a window (lib/assistant/series.ts). That
 * narrowing must never lose an occurrence: over 400 random series in a DST zone, for random windows, the
 * soonest occurrences it finds are those found by expanding every series with lib/events/occurrences.ts.
 */

const ZONE = "America/New_York";
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 15);
const KINDS: Exclude<Recurrence, "">[] = ["daily", "weekly", "monthly", "yearly"];

type Seeded = Series & { id: string };
let accountId = "";
let all: Seeded[] = [];

beforeAll(async () => {
  ({ accountId } = await createAccount("Series Oracle"));
  await db.pool.query("UPDATE accounts SET timezone = $2 WHERE id = $1", [accountId, ZONE]);
  const random = fc.sample(
    fc.record({
      kind: fc.constantFrom(...KINDS),
      // From three years back to two months ahead; minutes, so local times fall anywhere (DST nights too).
      minutes: fc.integer({ min: -3 * 366 * 1440, max: 60 * 1440 }),
      duration: fc.oneof(fc.constant(null), fc.integer({ min: 15, max: 240 }), fc.integer({ min: 1500, max: 5000 })),
    }),
    { numRuns: 400, seed: 26 },
  );
  for (const [index, sample] of random.entries()) {
    const startsAt = new Date(NOW + sample.minutes * 60_000);
    const endsAt = sample.duration === null ? null : new Date(startsAt.getTime() + sample.duration * 60_000);
    const { rows } = await db.pool.query<{ id: string }>(
      "INSERT INTO events (account_id, title, starts_at, ends_at, recurring) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [accountId, `Series ${index}`, startsAt, endsAt, sample.kind],
    );
    all.push({ id: rows[0].id, startsAt, endsAt, recurring: sample.kind, timeZone: ZONE });
  }
  // One coming occurrence removed from every seventh series.
  for (const series of all.filter((_, index) => index % 7 === 0)) {
    const [next] = occurrencesBetween(series, new Date(NOW), new Date(NOW + 400 * DAY), 1);
    if (!next) continue;
    await db.pool.query(
      "INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind) VALUES ($1, $2, $3, 'cancelled')",
      [accountId, series.id, next.startsAt],
    );
    series.exceptions = new Set([next.startsAt.getTime()]);
  }
  all = all.map((series) => ({ ...series, exceptions: series.exceptions ?? new Set() }));
});

const key = (id: string, at: Date) => `${id}@${at.toISOString()}`;

// Every seeded title has the word "series": as a topic, it takes the statement for topic words.
const TOPIC = { words: [["series"]], exact: [["series"]], every: true };

describe("the series the assistant reads for a window", () => {
  it("hold the soonest occurrences of every series, for random windows, with and without a topic", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -2 * 1440, max: 380 * 1440 }),
        fc.oneof(fc.integer({ min: 30, max: 40 * 1440 }), fc.constant(null)),
        fc.boolean(),
        async (startMinutes, lengthMinutes, topic) => {
          const from = new Date(NOW + startMinutes * 60_000);
          const to = lengthMinutes === null ? null : new Date(from.getTime() + lengthMinutes * 60_000);
          const input = { accountId, timeZone: ZONE, now: from, range: null, topic: [], free: false };
          const found = await seriesOccurrences(db.pool, input, topic ? TOPIC : null, { from, to }, 3, 3);
          const horizon = to ?? new Date(from.getTime() + 400 * DAY);
          const expected = all
            .flatMap((series) =>
              occurrencesBetween(series, from, horizon, to ? 3 : 1).map((occurrence) => ({
                id: series.id,
                ...occurrence,
              })),
            )
            .filter((occurrence) => occurrence.startsAt >= from)
            .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
            .slice(0, 3)
            .map((occurrence) => key(occurrence.id, occurrence.startsAt));
          const starting = found
            .filter((row) => row.part === 0)
            .sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime())
            .map((row) => key(row.id, row.starts_at));
          for (const each of expected) expect(starting).toContain(each);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
