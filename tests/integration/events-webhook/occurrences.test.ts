import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { getDelivery, listDeliveries } from "@/lib/events-webhook/deliveries";
import { occurrencesBetween } from "@/lib/events/occurrences";
import { formatShortDayTime } from "@/lib/platform/format/date-time";
import {
  cancel,
  eventRows,
  lastDelivery,
  remove,
  send,
  snapshot,
  upsert,
  exceptionsOf as exceptions,
  messageTypesOf as messages,
  occurrenceAnswer,
  YOGA,
  YOGA_FIRST as FIRST,
  yogaSource,
  type TestSource,
} from "./support";

/*
 * Cancel and delete of a later occurrence of a recurring series act on that occurrence only; an upsert of
 * it restores it (docs/recurring-events.md). The account's zone is Europe/Berlin: the series keeps 09:00
 * local, so after the October DST change its occurrences move from 07:00Z to 08:00Z.
 */

describe("occurrence actions on a recurring series", () => {
  it("cancels one later occurrence only, and the delivery log names it", async () => {
    const source = await yogaSource();
    const [series] = await eventRows(source);
    // Saturday 7 November, 09:00 in Berlin (CET): 08:00Z.
    const answer = await send(source, cancel({ ...YOGA, starts_at: "2026-11-07T09:00:00+01:00" }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(occurrenceAnswer("cancel", series.id, "2026-11-07T08:00:00.000Z", "cancelled"));
    expect(await exceptions(source)).toEqual([["2026-11-07T08:00:00.000Z", "cancelled"]]);
    const [after] = await eventRows(source);
    expect(after).toMatchObject({ status: "upcoming", starts_at: new Date(FIRST), recurring: "weekly" });
    expect(await lastDelivery(source)).toMatchObject({
      action: "cancel",
      status: 200,
      occurrence_at: new Date("2026-11-07T08:00:00Z"),
    });
  });

  it("shows the occurrence acted on in Recent Deliveries, in the account's zone", async () => {
    const source = await yogaSource();
    await send(source, cancel({ ...YOGA, starts_at: "2026-11-07T09:00:00+01:00" }));
    const page = await listDeliveries(source.accountId, source.sourceId);
    expect(page.items.map((item) => [item.action, item.occurrenceAt])).toEqual([
      ["cancel", new Date("2026-11-07T08:00:00Z")],
      ["upsert", null],
    ]);
    const detail = await getDelivery(source.accountId, page.items[0].id);
    expect(detail).toMatchObject({ eventTitle: "Morning Yoga", occurrenceAt: new Date("2026-11-07T08:00:00Z") });
    // What the table's event column and the detail dialog print beside the title.
    expect(formatShortDayTime(detail!.occurrenceAt!, "Europe/Berlin")).toBe("Sat 7 Nov, 09:00");
  });

  it("tells subscribers which occurrence was cancelled, deleted or restored", async () => {
    const source = await yogaSource();
    const occurrence = { ...YOGA, starts_at: "2026-11-07T09:00:00+01:00" };
    await send(source, cancel(occurrence));
    await send(source, remove(occurrence));
    await send(source, upsert(occurrence));
    const { rows } = await db.pool.query(
      "SELECT type, payload -> 'data' AS data FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id",
      [source.accountId],
    );
    expect(rows[0].data).not.toHaveProperty("occurrence");
    expect(rows.slice(1).map((row) => [row.type, row.data.title, row.data.occurrence])).toEqual(
      ["cancelled", "deleted", "upcoming"].map((status) => [
        "event.updated",
        "Morning Yoga",
        { starts_at: "2026-11-07T08:00:00.000Z", status },
      ]),
    );
  });

  it("carries next_occurrence_at: the coming occurrence, the next while it is cancelled, it once back", async () => {
    const source = await yogaSource();
    const series = { startsAt: new Date(FIRST), endsAt: null, recurring: "weekly" as const, timeZone: "Europe/Berlin" };
    const [coming, after] = occurrencesBetween(series, new Date(), new Date(Date.now() + 30 * 86_400_000), 2).map((o) =>
      o.startsAt.toISOString(),
    );
    const occurrence = { ...YOGA, starts_at: coming };
    await send(source, cancel(occurrence));
    await send(source, upsert(occurrence));
    await send(source, cancel({ ...YOGA, starts_at: FIRST }));
    const { rows } = await db.pool.query(
      "SELECT type, payload -> 'data' AS data FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id",
      [source.accountId],
    );
    expect(rows.map((row) => [row.type, row.data.recurring, row.data.next_occurrence_at])).toEqual([
      ["event.created", "weekly", coming],
      ["event.updated", "weekly", after],
      ["event.updated", "weekly", coming],
      // A cancelled series has no next occurrence.
      ["event.cancelled", "weekly", null],
    ]);
  });

  it("deletes one later occurrence, and an upsert of it restores it", async () => {
    const source = await yogaSource();
    const deleted = await send(source, remove({ ...YOGA, starts_at: "2026-10-17T07:00:00Z" }));
    expect(deleted.body).toMatchObject({
      event: { occurrence: { starts_at: "2026-10-17T07:00:00.000Z", status: "deleted" } },
    });
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
    expect(
      await send(source, remove({ ...YOGA, location: "Studio 3", starts_at: "2026-11-07T09:00:00+01:00" })),
    ).toMatchObject({ status: 404 });
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

  it("answers a cancel of a deleted occurrence with 200, keeping it deleted and notifying nobody", async () => {
    const source = await yogaSource();
    const occurrence = { ...YOGA, starts_at: "2026-10-10T09:00:00+02:00" };
    await send(source, remove(occurrence));
    const [series] = await eventRows(source);
    const answer = await send(source, cancel(occurrence));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, event: { id: series.id, occurrence: { status: "deleted" } } });
    expect(await exceptions(source)).toEqual([["2026-10-10T07:00:00.000Z", "deleted"]]);
    expect((await eventRows(source))[0].updated_at).toEqual(series.updated_at);
    expect(await messages(source)).toEqual(["event.created", "event.updated"]);
  });
});

/*
 * Two requests racing on one occurrence. A held row lock on the series stalls the first request after its
 * exception write (it bumps the series' updated_at next) and the second behind it, both statements
 * already running on snapshots taken before either commits; then the lock is released.
 */
describe("concurrent occurrence actions", () => {
  async function waitForStalledRequests(count: number): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const { rowCount } = await db.pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ltrim(query) LIKE 'WITH clock%'",
      );
      if ((rowCount ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`fewer than ${count} requests waited for a lock`);
  }

  async function race(source: TestSource, bodies: string[]) {
    const [series] = await eventRows(source);
    const holder = await db.pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM events WHERE id = $1 FOR UPDATE", [series.id]);
      const answers = bodies.map((body) => send(source, body));
      for (const answer of answers) answer.catch(() => {}); // Awaited below.
      await waitForStalledRequests(bodies.length);
      await holder.query("COMMIT");
      return await Promise.all(answers);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      holder.release();
    }
  }

  it("two cancels of one occurrence both answer 200 and notify once", async () => {
    const source = await yogaSource();
    const occurrence = { ...YOGA, starts_at: "2026-11-14T09:00:00+01:00" };
    const answers = await race(source, [cancel(occurrence), cancel({ ...occurrence, description: "twin" })]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await exceptions(source)).toEqual([["2026-11-14T08:00:00.000Z", "cancelled"]]);
    expect(await messages(source)).toEqual(["event.created", "event.updated"]);
  });

  it("two upserts restoring one occurrence both answer 200 and notify once", async () => {
    const source = await yogaSource();
    const occurrence = { ...YOGA, starts_at: "2026-11-14T09:00:00+01:00" };
    await send(source, remove(occurrence));
    const [series] = await eventRows(source);
    const answers = await race(source, [upsert(occurrence), upsert({ ...occurrence, description: "twin" })]);
    const restored = { starts_at: "2026-11-14T08:00:00.000Z", status: "upcoming" };
    expect(answers.map((answer) => [answer.status, answer.body.event])).toEqual([
      [200, { id: series.id, status: "upcoming", created: false, occurrence: restored }],
      [200, { id: series.id, status: "upcoming", created: false, occurrence: restored }],
    ]);
    expect(await exceptions(source)).toEqual([]);
    expect(await eventRows(source)).toHaveLength(1);
    expect(await messages(source)).toEqual(["event.created", "event.updated", "event.updated"]);
    expect(
      await db.pool.query("SELECT status FROM webhook_deliveries WHERE source_id = $1 AND action = 'upsert'", [
        source.sourceId,
      ]),
    ).toMatchObject({
      rows: [{ status: 200 }, { status: 200 }, { status: 200 }],
    });
  });
});
