import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, type DatabaseBefore } from "../support/migrate-to";

/*
 * Migration series_change_moves_exceptions on a populated database: removals that an earlier change of
 * their series' start left naming no occurrence are deleted; those that still name one stay as they are.
 */

const MIGRATION = "20261127121000_series_change_moves_exceptions";

let before: DatabaseBefore;
let seriesId: string;
beforeAll(async () => {
  before = await databaseBefore(MIGRATION);
  const db = before.client;
  const account = (
    await db.query("INSERT INTO accounts (name, timezone) VALUES ('Before', 'Europe/Berlin') RETURNING id")
  ).rows[0].id;
  // Every Saturday at 10:00 in Berlin from 3 October 2026 (moved there from 09:00 before the migration).
  seriesId = (
    await db.query(
      `INSERT INTO events (account_id, title, starts_at, recurring) VALUES ($1, 'Morning Yoga', '2026-10-03T08:00:00Z', 'weekly')
       RETURNING id`,
      [account],
    )
  ).rows[0].id;
  await db.query(
    `INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind) VALUES
       ($1, $2, '2026-12-05T09:00:00Z', 'cancelled'),  -- 10:00 on 5 December: an occurrence
       ($1, $2, '2026-12-12T08:00:00Z', 'cancelled'),  -- 09:00, from before the move: none
       ($1, $2, '2026-12-18T09:00:00Z', 'deleted')     -- a Friday: none`,
    [account, seriesId],
  );
  await before.migrate();
});

afterAll(async () => {
  await before?.drop();
});

describe("migration series_change_moves_exceptions", () => {
  it("deletes the removals that name no occurrence and keeps the others", async () => {
    const { rows } = await before.client.query(
      "SELECT occurs_at, kind FROM event_exceptions WHERE event_id = $1 ORDER BY occurs_at",
      [seriesId],
    );
    expect(rows.map((row) => [row.occurs_at.toISOString(), row.kind])).toEqual([
      ["2026-12-05T09:00:00.000Z", "cancelled"],
    ]);
  });
});
