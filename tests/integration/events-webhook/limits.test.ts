import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { eventUsage } from "@/lib/events/repository";
import { createSource, eventRows, lastDelivery, remove, sample, send, snapshot, upsert } from "./support";
import { fillEvents } from "../../support/stored";
import { expectWindowSpent } from "../../support/rate-limit";

describe("plan event limit", () => {
  it("answers 403 plan_limit_reached when an upsert would create an event beyond the free plan's 1,000", async () => {
    const source = await createSource();
    await fillEvents(source.accountId, 999);
    expect((await send(source, upsert(sample({ title: "Number 1000" })))).status).toBe(200);
    expect(await eventUsage(source.accountId)).toEqual({ count: 1_000, limit: 1_000, plan: "free" });

    const before = await snapshot(source);
    const answer = await send(source, upsert(sample({ title: "Number 1001" })));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      ok: false,
      error: { code: "plan_limit_reached", message: expect.stringMatching(/1,000 events/) },
    });
    const after = await snapshot(source);
    expect(after.events).toEqual(before.events);
    expect(after.replays).toBe(before.replays);
    expect(await lastDelivery(source)).toMatchObject({
      status: 403,
      error_code: "plan_limit_reached",
      event_title: "Number 1001",
    });
  });

  it("still updates, cancels and deletes existing events at the limit, which frees room again", async () => {
    const source = await createSource();
    await fillEvents(source.accountId, 999);
    await send(source, upsert(sample()));
    expect((await send(source, upsert(sample({ description: "updated at the limit" })))).body).toMatchObject({
      event: { created: false },
    });
    expect((await send(source, remove(sample()))).status).toBe(200);
    expect((await send(source, upsert(sample({ title: "Fits again" })))).body).toMatchObject({
      event: { created: true },
    });
  });

  it("allows 100,000 events on the pro plan", async () => {
    const source = await createSource({ plan: "pro" });
    await fillEvents(source.accountId, 1_000);
    expect((await send(source, upsert(sample()))).body).toMatchObject({ event: { created: true } });
    expect((await eventUsage(source.accountId)).limit).toBe(100_000);
  });
});

describe("per-source rate limit", () => {
  it("answers 429 rate_limited with Retry-After and RateLimit headers over the limit, storing nothing", async () => {
    const source = await createSource({ rateLimit: 3 });
    for (let i = 0; i < 3; i++) {
      const answer = await send(source, upsert(sample({ title: `Allowed ${i}` })));
      expect(answer.status).toBe(200);
      expect(answer.headers.get("RateLimit-Limit")).toBe("3");
      expect(answer.headers.get("RateLimit-Remaining")).toBe(String(2 - i));
    }
    const before = await snapshot(source);
    const answer = await send(source, upsert(sample({ title: "Too many" })));
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expectWindowSpent(answer.headers, 3);
    const after = await snapshot(source);
    expect(after.events).toEqual(before.events);
    expect(after.replays).toBe(before.replays);
    expect(await eventRows(source)).toHaveLength(3);
  });

  it("counts invalid but signed bodies, not unsigned ones, and answers 429 before validating", async () => {
    const source = await createSource({ rateLimit: 2 });
    await send(source, "[]");
    await send(source, upsert(sample()), { signature: null });
    await send(source, upsert(sample()), { signature: null });
    expect((await snapshot(source)).ratePoints).toBe(1);
    await send(source, "[]");
    const answer = await send(source, "[]");
    expect(answer.status).toBe(429);
  });

  it("answers an exact replay as a duplicate even when the source is over its limit", async () => {
    const source = await createSource({ rateLimit: 1 });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = upsert(sample());
    expect((await send(source, body, { timestamp })).status).toBe(200);
    expect((await send(source, upsert(sample({ title: "other" })))).status).toBe(429);
    expect((await send(source, body, { timestamp })).body).toEqual({ ok: true, duplicate: true });
  });

  it("keeps the limit of one source independent of another's", async () => {
    const busy = await createSource({ rateLimit: 1 });
    const quiet = await createSource({ rateLimit: 1 });
    await send(busy, upsert(sample()));
    expect((await send(busy, upsert(sample({ title: "b" })))).status).toBe(429);
    expect((await send(quiet, upsert(sample()))).status).toBe(200);
  });

  it("opens a new window after a minute", async () => {
    const source = await createSource({ rateLimit: 1 });
    await send(source, upsert(sample()));
    expect((await send(source, upsert(sample({ title: "b" })))).status).toBe(429);
    // Age the window as a minute would.
    await db.pool.query("UPDATE rate_limits SET expire = expire - 60000 WHERE key = $1", [
      `webhook:${source.sourceId}`,
    ]);
    expect((await send(source, upsert(sample({ title: "c" })))).status).toBe(200);
  });
});
