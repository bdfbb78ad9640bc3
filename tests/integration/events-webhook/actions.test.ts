import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { POST } from "@/app/api/v1/events/webhook/[sourceId]/route";
import { cancel, createSource, eventRows, remove, sample, send, signedRequest, upsert } from "./support";

describe("upsert", () => {
  it("creates the event, then replaces every field on the next upsert of the same identity", async () => {
    const source = await createSource();
    const first = await send(
      source,
      upsert(
        sample({
          ends_at: "2026-05-01T12:00:00+02:00",
          description: "Tours",
          url: "https://example.com/open",
          price: "Free",
          recurring: "yearly",
        }),
      ),
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ok: true,
      action: "upsert",
      event: { id: expect.any(String), status: "upcoming", created: true },
    });

    const second = await send(source, upsert(sample({ description: "Only a description now", status: "cancelled" })));
    expect(second.body).toEqual({
      ok: true,
      action: "upsert",
      event: { id: (first.body.event as { id: string }).id, status: "cancelled", created: false },
    });

    const rows = await eventRows(source);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: "Spring Open Day",
      starts_at: new Date("2026-05-01T08:00:00Z"),
      starts_at_offset: "+02:00",
      location: "Main Hall",
      // Full replacement: what the second upsert omitted is now empty.
      ends_at: null,
      description: "Only a description now",
      url: "",
      price: "",
      recurring: "",
      status: "cancelled",
    });
    expect(rows[0].updated_at.getTime()).toBeGreaterThanOrEqual(rows[0].created_at.getTime());
  });

  it("treats the same instant written in two offsets, and trimmed title and location, as one event", async () => {
    const source = await createSource();
    await send(source, upsert({ title: "Talk", starts_at: "2026-05-01T10:00:00+02:00", location: "Berlin" }));
    const again = await send(
      source,
      upsert({ title: "  Talk ", starts_at: "2026-05-01T08:00:00Z", location: " Berlin  ", price: "€5" }),
    );
    expect(again.body).toMatchObject({ event: { created: false } });
    const rows = await eventRows(source);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ price: "€5", starts_at_offset: "Z" });
  });

  it("treats a missing location as empty and an offset-less start as UTC", async () => {
    const source = await createSource();
    await send(source, upsert({ title: "Webinar", starts_at: "2026-06-01T09:00:00" }));
    await send(source, upsert({ title: "Webinar", starts_at: "2026-06-01T09:00:00Z", location: "" }));
    const rows = await eventRows(source);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ location: "", starts_at: new Date("2026-06-01T09:00:00Z") });
  });

  it("makes different events of a different start, title or location", async () => {
    const source = await createSource();
    await send(source, upsert(sample()));
    await send(source, upsert(sample({ starts_at: "2026-05-01T10:00:01+02:00" })));
    await send(source, upsert(sample({ title: "Spring Open Day 2" })));
    await send(source, upsert(sample({ location: "Side Hall" })));
    expect(await eventRows(source)).toHaveLength(4);
  });

  it("ignores unknown fields", async () => {
    const source = await createSource();
    const answer = await send(
      source,
      JSON.stringify({ action: "upsert", event: { ...sample(), colour: "red" }, extra: true }),
    );
    expect(answer.status).toBe(200);
  });
});

describe("cancel and delete", () => {
  it("cancels an event, and cancelling again succeeds and changes nothing", async () => {
    const source = await createSource();
    await send(source, upsert(sample({ description: "kept" })));
    const first = await send(source, cancel(sample()));
    expect(first.body).toMatchObject({ ok: true, action: "cancel", event: { status: "cancelled", created: false } });
    const [afterFirst] = await eventRows(source);
    const second = await send(
      source,
      cancel({
        title: "Spring Open Day",
        starts_at: "2026-05-01T08:00:00Z",
        location: "Main Hall",
        description: "ignored",
      }),
    );
    expect(second.body).toMatchObject({
      ok: true,
      action: "cancel",
      event: { id: afterFirst.id, status: "cancelled" },
    });
    const [afterSecond] = await eventRows(source);
    expect(afterSecond).toEqual(afterFirst);
    expect(afterSecond.description).toBe("kept");
  });

  it("deletes an event; a later delete of it is event_not_found", async () => {
    const source = await createSource();
    const created = await send(source, upsert(sample()));
    const deleted = await send(source, remove(sample()));
    expect(deleted.body).toEqual({
      ok: true,
      action: "delete",
      event: { id: (created.body.event as { id: string }).id, status: "deleted", created: false },
    });
    expect(await eventRows(source)).toHaveLength(0);
    const again = await send(source, remove(sample({ unknown: "makes the body differ" })));
    expect(again.status).toBe(404);
  });

  it("upsert after cancel brings the event back as upcoming", async () => {
    const source = await createSource();
    await send(source, upsert(sample()));
    await send(source, cancel(sample()));
    const back = await send(source, upsert(sample({ description: "rescheduled" })));
    expect(back.body).toMatchObject({ event: { status: "upcoming", created: false } });
  });
});

describe("the route", () => {
  it("hands the request and the source id from the path to the webhook handler", async () => {
    const source = await createSource();
    const response = await POST(signedRequest(source, upsert(sample())), {
      params: Promise.resolve({ sourceId: source.publicId }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toMatchObject({ ok: true, action: "upsert" });
  });

  it("scopes events to the source's account", async () => {
    const a = await createSource();
    const b = await createSource();
    await send(a, upsert(sample()));
    await send(b, upsert(sample()));
    const counts = await db.pool.query(
      "SELECT account_id, count(*)::int AS n FROM events WHERE account_id = ANY($1) GROUP BY account_id",
      [[a.accountId, b.accountId]],
    );
    expect(counts.rows.map((row) => row.n)).toEqual([1, 1]);
    // b cannot cancel a's event through its own source: it only sees its own events.
    await send(b, remove(sample()));
    expect(await eventRows(a)).toHaveLength(1);
  });
});
