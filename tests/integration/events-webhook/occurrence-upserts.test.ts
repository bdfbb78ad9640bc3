import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import {
  cancel,
  eventRows,
  exceptionsOf as exceptions,
  lastDelivery,
  messageTypesOf as messageTypes,
  occurrenceAnswer,
  send,
  upsert,
  YOGA,
  yogaSource,
  type TestSource,
} from "./support";

/*
 * An upsert naming a later occurrence of a recurring series (same title and location) acts on that
 * occurrence, whether or not it was removed, and never writes a one-off event beside the series
 * (docs/recurring-events.md). Account zone Europe/Berlin; the series is every Saturday at 09:00.
 */

const DEC_5 = { ...YOGA, starts_at: "2026-12-05T09:00:00+01:00" };

const ratePoints = async (source: TestSource) =>
  (await db.pool.query("SELECT points FROM rate_limits WHERE key = $1", [`webhook:${source.sourceId}`])).rows[0]
    ?.points;

const loggedUpserts = async (source: TestSource) =>
  (
    await db.pool.query(
      "SELECT status, occurrence_at FROM webhook_deliveries WHERE source_id = $1 AND action = 'upsert' ORDER BY id",
      [source.sourceId],
    )
  ).rows;

describe("an upsert naming a later occurrence of a series", () => {
  it("changes nothing for an occurrence that takes place, and creates no event beside the series", async () => {
    const source = await yogaSource();
    const [series] = await eventRows(source);
    const answer = await send(source, upsert({ ...DEC_5, description: "ignored: occurrences have no fields" }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(occurrenceAnswer("upsert", series.id, "2026-12-05T08:00:00.000Z", "upcoming"));
    const rows = await eventRows(source);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ description: "", updated_at: series.updated_at });
    expect(await exceptions(source)).toEqual([]);
    expect(await messageTypes(source)).toEqual(["event.created"]);
    expect((await lastDelivery(source))?.occurrence_at).toEqual(new Date("2026-12-05T08:00:00Z"));
  });

  it("answers a retried restore as the restore it repeats, without a duplicate event", async () => {
    const source = await yogaSource();
    await send(source, cancel(DEC_5));
    const first = await send(source, upsert(DEC_5));
    // A sender that lost the answer sends again with a new timestamp: not a replay.
    const retry = await send(source, upsert(DEC_5), { timestamp: String(Math.floor(Date.now() / 1000) + 1) });
    for (const answer of [first, retry])
      expect(answer.body.event).toMatchObject({
        created: false,
        occurrence: { starts_at: "2026-12-05T08:00:00.000Z", status: "upcoming" },
      });
    expect(await eventRows(source)).toHaveLength(1);
    expect(await exceptions(source)).toEqual([]);
    expect(await messageTypes(source)).toEqual(["event.created", "event.updated", "event.updated"]);
    const logged = await loggedUpserts(source);
    expect(logged.map((row) => [row.status, row.occurrence_at?.toISOString()])).toEqual([
      [200, undefined],
      [200, "2026-12-05T08:00:00.000Z"],
      [200, "2026-12-05T08:00:00.000Z"],
    ]);
  });

  it("keeps a cancelled occurrence cancelled when the upsert's status is cancelled", async () => {
    const source = await yogaSource();
    await send(source, cancel(DEC_5));
    const answer = await send(source, upsert({ ...DEC_5, status: "cancelled" }));
    expect(answer.status).toBe(200);
    expect(answer.body.event).toMatchObject({
      created: false,
      occurrence: { starts_at: "2026-12-05T08:00:00.000Z", status: "cancelled" },
    });
    expect(await exceptions(source)).toEqual([["2026-12-05T08:00:00.000Z", "cancelled"]]);
    expect(await eventRows(source)).toHaveLength(1);
    // Nothing changed: no second event.updated.
    expect(await messageTypes(source)).toEqual(["event.created", "event.updated"]);
  });

  it("cancels an occurrence that takes place when the upsert's status is cancelled", async () => {
    const source = await yogaSource();
    const answer = await send(source, upsert({ ...DEC_5, status: "cancelled" }));
    expect(answer.body.event).toMatchObject({ occurrence: { status: "cancelled" } });
    expect(await exceptions(source)).toEqual([["2026-12-05T08:00:00.000Z", "cancelled"]]);
    expect(await eventRows(source)).toHaveLength(1);
  });

  it("writes a one-off event at an instant that is no occurrence (09:01), counting the request once", async () => {
    const source = await yogaSource();
    const before = await ratePoints(source);
    const answer = await send(source, upsert({ ...DEC_5, starts_at: "2026-12-05T09:01:00+01:00" }));
    expect(answer.status).toBe(200);
    expect(answer.body.event).toMatchObject({ created: true, status: "upcoming" });
    expect(answer.body.event).not.toHaveProperty("occurrence");
    const rows = await eventRows(source);
    expect(rows.map((row) => [row.starts_at.toISOString(), row.recurring])).toEqual([
      ["2026-10-03T07:00:00.000Z", "weekly"],
      ["2026-12-05T08:01:00.000Z", ""],
    ]);
    expect(await ratePoints(source)).toBe(before + 1);
    expect((await loggedUpserts(source)).map((row) => row.status)).toEqual([200, 200]);
  });

  it("writes a one-off event of the same title before the series starts, or at another location", async () => {
    const source = await yogaSource();
    await send(source, upsert({ ...YOGA, starts_at: "2026-09-26T09:00:00+02:00" }));
    await send(source, upsert({ ...DEC_5, location: "Studio 3" }));
    expect((await eventRows(source)).map((row) => [row.location, row.recurring])).toEqual([
      ["Studio 2", "weekly"],
      ["Studio 2", ""],
      ["Studio 3", ""],
    ]);
  });
});
