import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { updateEvent } from "@/lib/events/repository";
import { createAccount, type TestAccount } from "../support/factories";

/*
 * A series whose first start or rule changes keeps its removed occurrences by their day on the account's
 * clock, and drops those whose day no longer has an occurrence (the events_move_exceptions trigger,
 * docs/recurring-events.md). Account zone Europe/Berlin; the series is every Saturday at 09:00 from
 * 3 October 2026, with Saturday 12 December cancelled and 19 December deleted.
 */

const SERIES = { title: "Morning Yoga", location: "Studio 2", recurring: "weekly" };
const DEC_12 = "2026-12-12T08:00:00.000Z"; // 09:00 in Berlin (CET).
const DEC_19 = "2026-12-19T08:00:00.000Z";
/** The removals as beforeEach writes them. */
const AS_SET = [
  [DEC_12, "cancelled"],
  [DEC_19, "deleted"],
];

let owner: TestAccount;
let seriesId: string;

const exceptions = async () =>
  (
    await db.pool.query("SELECT occurs_at, kind FROM event_exceptions WHERE event_id = $1 ORDER BY occurs_at", [
      seriesId,
    ])
  ).rows.map((row) => [row.occurs_at.toISOString(), row.kind]);

/** A removal written straight to the table, as data from before the trigger may hold it. */
const removal = (occursAt: string, kind: "cancelled" | "deleted") =>
  db.pool.query("INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind) VALUES ($1, $2, $3, $4)", [
    owner.accountId,
    seriesId,
    occursAt,
    kind,
  ]);

const edit = async (fields: Record<string, unknown>) => {
  const result = await updateEvent(owner.accountId, seriesId, { ...SERIES, ...fields });
  expect(result.ok).toBe(true);
};

beforeEach(async () => {
  owner = await createAccount("Yoga Studio", "Europe/Berlin");
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO events (account_id, title, starts_at, location, recurring)
     VALUES ($1, $2, '2026-10-03T07:00:00Z', $3, 'weekly') RETURNING id`,
    [owner.accountId, SERIES.title, SERIES.location],
  );
  seriesId = rows[0].id;
  await removal(DEC_12, "cancelled");
  await removal(DEC_19, "deleted");
});

describe("changing a series' first start or rule", () => {
  it("moves each removed occurrence to the new time on its day (09:00 → 10:00)", async () => {
    await edit({ starts_at: "2026-10-03T10:00:00+02:00" });
    expect(await exceptions()).toEqual([
      ["2026-12-12T09:00:00.000Z", "cancelled"],
      ["2026-12-19T09:00:00.000Z", "deleted"],
    ]);
  });

  it("keeps removals on their day when the series starts a week later", async () => {
    await edit({ starts_at: "2026-10-10T09:00:00+02:00" });
    expect(await exceptions()).toEqual(AS_SET);
  });

  it("keeps a removal on a day the new rule still meets, and drops the others (weekly → daily)", async () => {
    await edit({ starts_at: "2026-10-03T09:00:00+02:00", recurring: "daily" });
    expect(await exceptions()).toEqual(AS_SET);
    await edit({ starts_at: "2026-10-04T09:00:00+02:00", recurring: "weekly" }); // Sundays now.
    expect(await exceptions()).toEqual([]);
  });

  it("drops every removal when the event stops repeating", async () => {
    await edit({ starts_at: "2026-10-03T09:00:00+02:00", recurring: "" });
    expect(await exceptions()).toEqual([]);
  });

  it("keeps one of two removals on one day (one left over from an earlier start), never two on one instant", async () => {
    // 12 December 10:00 Berlin, beside the 09:00 one: as an edit to 10:00 before this rule existed left them.
    await removal("2026-12-12T09:00:00Z", "cancelled");
    await edit({ starts_at: "2026-10-03T11:00:00+02:00" });
    expect(await exceptions()).toEqual([
      ["2026-12-12T10:00:00.000Z", "cancelled"],
      ["2026-12-19T10:00:00.000Z", "deleted"],
    ]);
    // Back to 09:00: the removal already at the new time is the one kept.
    await removal(DEC_12, "deleted");
    await edit({ starts_at: "2026-10-03T09:00:00+02:00" });
    expect(await exceptions()).toEqual([
      [DEC_12, "deleted"],
      [DEC_19, "deleted"],
    ]);
  });

  it("leaves removals alone when only other fields change", async () => {
    await edit({ starts_at: "2026-10-03T09:00:00+02:00", description: "Bring a mat" });
    expect(await exceptions()).toEqual(AS_SET);
  });
});
