import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { cancel, createSource, eventRows, lastDelivery, remove, send, snapshot, upsert, type TestSource } from "./support";

/*
 * Cancel and delete of a later occurrence of a recurring series act on that occurrence only; an upsert of
 * it restores it (docs/recurring-events.md). The account's zone is Europe/Berlin: the series keeps 09:00
 * local, so after the October DST change its occurrences move from 07:00Z to 08:00Z.
 */

const YOGA = { title: "Morning Yoga", location: "Studio 2" };
const FIRST = "2026-10-03T09:00:00+02:00";

async function yogaSource(): Promise<TestSource> {
  const source = await createSource({ name: "Yoga Studio" });
  await db.pool.query("UPDATE accounts SET timezone = 'Europe/Berlin' WHERE id = $1", [source.accountId]);
  const created = await send(source, upsert({ ...YOGA, starts_at: FIRST, recurring: "weekly" }));
  expect(created.status).toBe(200);
  return source;
}

const exceptions = async (source: TestSource) =>
  (await db.pool.query("SELECT occurs_at, kind FROM event_exceptions WHERE account_id = $1 ORDER BY occurs_at", [source.accountId])).rows.map(
    (row) => [row.occurs_at.toISOString(), row.kind],
  );

const messages = async (source: TestSource) =>
  (await db.pool.query("SELECT type FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id", [source.accountId])).rows.map((row) => row.type);

describe("occurrence actions on a recurring series", () => {
  it("cancels one later occurrence only, and the delivery log names it", async () => {
    const source = await yogaSource();
    const [series] = await eventRows(source);
    // Saturday 7 November, 09:00 in Berlin (CET): 08:00Z.
    const answer = await send(source, cancel({ ...YOGA, starts_at: "2026-11-07T09:00:00+01:00" }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      action: "cancel",
      event: { id: series.id, status: "upcoming", created: false, occurrence: { starts_at: "2026-11-07T08:00:00.000Z", status: "cancelled" } },
    });
    expect(await exceptions(source)).toEqual([["2026-11-07T08:00:00.000Z", "cancelled"]]);
    const [after] = await eventRows(source);
    expect(after).toMatchObject({ status: "upcoming", starts_at: new Date(FIRST), recurring: "weekly" });
    expect(await lastDelivery(source)).toMatchObject({ action: "cancel", status: 200, occurrence_at: new Date("2026-11-07T08:00:00Z") });
  });

  it("deletes one later occurrence, and an upsert of it restores it", async () => {
    const source = await yogaSource();
    const deleted = await send(source, remove({ ...YOGA, starts_at: "2026-10-17T07:00:00Z" }));
    expect(deleted.body).toMatchObject({ event: { occurrence: { starts_at: "2026-10-17T07:00:00.000Z", status: "deleted" } } });
    expect(await exceptions(source)).toEqual([["2026-10-17T07:00:00.000Z", "deleted"]]);

    const restored = await send(source, upsert({ ...YOGA, starts_at: "2026-10-17T09:00:00+02:00" }));
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ event: { created: false, status: "upcoming" } });
    expect(await exceptions(source)).toEqual([]);
    // Restoring did not create a one-off event beside the series.
    expect(await eventRows(source)).toHaveLength(1);
    expect(await messages(source)).toEqual(["event.created", "event.updated", "event.updated"]);
  });

  it("acts on the whole series when the first occurrence is named", async () => {
    const source = await yogaSource();
    const answer = await send(source, cancel({ ...YOGA, starts_at: FIRST }));
    expect(answer.body).toMatchObject({ event: { status: "cancelled" } });
    expect(answer.body.event).not.toHaveProperty("occurrence");
    expect(await exceptions(source)).toEqual([]);
    expect((await eventRows(source))[0].status).toBe("cancelled");
  });

  it("answers 404 for an instant that is not an occurrence (09:01 instead of 09:00), changing nothing", async () => {
    const source = await yogaSource();
    const before = await snapshot(source);
    for (const starts_at of ["2026-11-07T09:01:00+01:00", "2026-11-08T09:00:00+01:00", "2026-09-26T09:00:00+02:00"]) {
      const answer = await send(source, cancel({ ...YOGA, starts_at }));
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ ok: false, error: { code: "event_not_found" } });
    }
    expect(await send(source, remove({ ...YOGA, location: "Studio 3", starts_at: "2026-11-07T09:00:00+01:00" }))).toMatchObject({ status: 404 });
    const after = await snapshot(source);
    expect(after.events).toEqual(before.events);
    expect(after.replays).toBe(before.replays);
    expect(await exceptions(source)).toEqual([]);
  });

  it("cancels twice as one change and lets a delete of a cancelled occurrence remove it", async () => {
    const source = await yogaSource();
    const occurrence = { ...YOGA, starts_at: "2026-10-10T09:00:00+02:00" };
    await send(source, cancel(occurrence));
    await send(source, cancel({ ...occurrence, description: "again" }));
    await send(source, remove(occurrence));
    expect(await exceptions(source)).toEqual([["2026-10-10T07:00:00.000Z", "deleted"]]);
    expect(await messages(source)).toEqual(["event.created", "event.updated", "event.updated"]);
  });
});
