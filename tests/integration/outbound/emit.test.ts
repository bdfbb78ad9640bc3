import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { directDatabaseUrl } from "@/lib/platform/db/pooler";
import { importEvents, validateCsvRow } from "@/lib/events/csv-import";
import { cancelEvent, createEvent, deleteEvent, updateEvent, upsertEvent } from "@/lib/events/repository";
import { serializeEvent } from "@/lib/events/serialize";
import { importLeads } from "@/lib/leads/csv-import";
import { createLeadSchema } from "@/lib/leads/schemas";
import { emitNotifications } from "@/lib/outbound/emit";
import { isMessageId } from "@/lib/webhook-subscriptions/schemas";
import { cancel, createSource, remove, sample, send, upsert } from "../events-webhook/support";
import { api, leadKey } from "../leads/client";
import { createAccount } from "../../support/factories";
import { deliveries, messages, queuedRows, subscribe, subscribedAccount, type MessageRow } from "./support";

/* The transactional outbox: every writer's change and its notification commit together or not at all. */

// Sorted: notifications written together share one instant, and their order between them is not defined.
const typesOf = (sent: MessageRow[]) => sent.map((message) => message.type).sort();
const dataOf = (sent: MessageRow[], type: string) => sent.find((message) => message.type === type)?.payload.data;

describe("the outbox transaction", () => {
  it("leaves no message, delivery or queue row behind when the writing transaction rolls back", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const [id] = await emitNotifications(client, accountId, [{ type: "lead.created", data: { id: "lead_x" } }]);
      expect(id).toMatch(/^whmsg_[0-9a-f]{11}[0-9A-Za-z]{22}$/);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await messages(accountId)).toEqual([]);
    expect(await deliveries(subscriptionId)).toEqual([]);
  });

  it("commits the message with one pending delivery, queued once, per matching subscription", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const other = await subscribe(accountId, "http://127.0.0.1:9/other", ["event.*"]);
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      await emitNotifications(client, accountId, [{ type: "lead.created", data: { id: "lead_y" } }]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    const [message] = await messages(accountId);
    expect(message.payload).toMatchObject({ id: message.id, type: "lead.created", data: { id: "lead_y" } });
    expect(new Date(message.payload.created_at).toISOString()).toBe(message.payload.created_at);
    const rows = await deliveries(subscriptionId);
    expect(rows).toMatchObject([{ message_id: message.id, status: "pending", attempts: 0 }]);
    expect(await queuedRows(rows.map((row) => row.id))).toHaveLength(1);
    expect(await deliveries(other.subscriptionId)).toEqual([]);
  });

  it("queues the fan-out in the writer's transaction and wakes the relays, unless another commit does", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    // LISTEN needs a session of its own: the direct URL, as the worker's relay uses (not through a pooler).
    const listener = new pg.Client({ connectionString: directDatabaseUrl() });
    await listener.connect();
    const writer = await db.pool.connect();
    const holder = await db.pool.connect();
    const heard: string[] = [];
    const onNotification = (message: { channel: string }) => heard.push(message.channel);
    listener.on("notification", onNotification);
    // Other test files write messages too, so the wake-up is asserted through the lock this writer holds.
    const holdsWakeUpLock = async () => {
      const { rows } = await writer.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 " +
          "AND objid = 1918305121 AND objsubid = 1 AND pid = pg_backend_pid()",
      );
      return rows[0].n === 1;
    };
    const queuedFanOuts = async (ids: string[]) =>
      (
        await db.pool.query("SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = ANY ($1::text[])", [
          ids,
        ])
      ).rows[0].n;
    try {
      await listener.query('LISTEN "outbound:fan_out"; LISTEN "outbound:queued"');
      await writer.query("BEGIN");
      const first = await emitNotifications(writer, accountId, [{ type: "lead.created", data: { id: "lead_wake_1" } }]);
      expect(await holdsWakeUpLock()).toBe(true);
      await writer.query("COMMIT");
      await expect.poll(() => heard.includes("outbound:fan_out")).toBe(true);

      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(1918305121)");
      await writer.query("BEGIN");
      const second = await emitNotifications(writer, accountId, [
        { type: "lead.created", data: { id: "lead_wake_2" } },
      ]);
      expect(await holdsWakeUpLock()).toBe(false);
      await writer.query("COMMIT");
      await holder.query("COMMIT");
      // Queued all the same: a relay (woken by another commit, or by its poll) fans it out.
      expect(await deliveries(subscriptionId)).toHaveLength(2);
      expect(await queuedFanOuts([...first, ...second])).toBe(0);
      await expect.poll(() => heard.includes("outbound:queued")).toBe(true);
    } finally {
      listener.off("notification", onNotification);
      await listener.query("UNLISTEN *").catch(() => {});
      for (const client of [writer, holder]) client.release();
      await listener.end();
    }
  });

  it("writes messages but no deliveries for an account without an active subscription", async () => {
    const account = await createAccount();
    await createEvent(account.accountId, sample());
    const written = await messages(account.accountId);
    expect(written).toHaveLength(1);
    // Nothing is queued for the relay, so nothing can become a delivery.
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = ANY ($1::text[])",
      [written.map((row) => row.id)],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe("every writer of calendar events notifies", () => {
  it("the webhook: upsert creates then updates, cancel, a repeated cancel (nothing), delete", async () => {
    const source = await createSource();
    const { subscriptionId } = await subscribe(source.accountId, "http://127.0.0.1:9/hook", ["event.*"]);
    expect((await send(source, upsert(sample()))).status).toBe(200);
    expect((await send(source, upsert(sample({ description: "now with a description" })))).status).toBe(200);
    expect((await send(source, cancel(sample()))).status).toBe(200);
    expect((await send(source, cancel(sample()))).status).toBe(200);
    expect((await send(source, remove(sample()))).status).toBe(200);
    const sent = await messages(source.accountId);
    expect(sent.map((message) => message.type)).toEqual([
      "event.created",
      "event.updated",
      "event.cancelled",
      "event.deleted",
    ]);
    expect(sent[1].payload.data).toMatchObject({
      title: "Spring Open Day",
      starts_at: "2026-05-01T10:00:00+02:00",
      description: "now with a description",
      status: "upcoming",
    });
    expect(sent[3].payload.data).toMatchObject({ status: "cancelled" });
    expect(await deliveries(subscriptionId)).toHaveLength(4);
  });

  it("a refused webhook request (event not found) notifies nobody", async () => {
    const source = await createSource();
    expect((await send(source, cancel(sample({ title: "Never existed" })))).status).toBe(404);
    expect(await messages(source.accountId)).toEqual([]);
  });

  it("the dashboard: create, edit, upsert, cancel and delete, with the event as serializeEvent shows it", async () => {
    const { accountId } = await subscribedAccount();
    const created = await createEvent(accountId, sample({ ends_at: "2026-05-01T12:30:00.250+02:00", price: "10 EUR" }));
    if (!created.ok) throw new Error(created.message);
    const updated = await updateEvent(accountId, created.event.id, sample({ description: "edited" }));
    if (!updated.ok) throw new Error(updated.message);
    await upsertEvent(accountId, sample({ description: "upserted" }));
    const cancelled = await cancelEvent(accountId, created.event.id);
    await cancelEvent(accountId, created.event.id);
    await deleteEvent(accountId, created.event.id);
    const sent = await messages(accountId);
    expect(sent.map((message) => message.type)).toEqual([
      "event.created",
      "event.updated",
      "event.updated",
      "event.cancelled",
      "event.deleted",
    ]);
    expect(sent[0].payload.data).toEqual(serializeEvent(created.event, { timeZone: "UTC", at: new Date() }));
    expect(sent[0].payload.data.ends_at).toBe("2026-05-01T12:30:00.250+02:00");
    expect(sent[1].payload.data).toEqual(serializeEvent(updated.event, { timeZone: "UTC", at: new Date() }));
    expect(sent[3].payload.data).toEqual(serializeEvent(cancelled!, { timeZone: "UTC", at: new Date() }));
  });

  it("a dashboard create refused by the plan's limit or a duplicate notifies nobody", async () => {
    const { accountId } = await subscribedAccount();
    await createEvent(accountId, sample());
    expect((await createEvent(accountId, sample())).ok).toBe(false);
    expect(await messages(accountId)).toHaveLength(1);
  });

  it("the CSV import: one notification per created or updated event, in the batch's statement", async () => {
    const { accountId, subscriptionId } = await subscribedAccount("http://127.0.0.1:9/hook", [
      "event.created",
      "event.updated",
    ]);
    await createEvent(accountId, sample({ title: "Existing" }));
    const rows = ["Existing", "New one", "New two"].map((title, index) => {
      const result = validateCsvRow({
        line: index + 2,
        values: { title, starts_at: "2026-05-01T10:00:00+02:00", location: "Main Hall", description: "Doors at 9" },
      });
      if (!result.ok) throw new Error("invalid row");
      return result.row;
    });
    expect(await importEvents(accountId, rows)).toMatchObject({ created: 2, updated: 1 });
    const sent = await messages(accountId);
    expect(typesOf(sent)).toEqual(["event.created", "event.created", "event.created", "event.updated"]);
    expect(await deliveries(subscriptionId)).toHaveLength(4);
  });
});

describe("every writer of leads notifies", () => {
  it("the API create: lead.created carries exactly the lead the API answered, with metadata and nulls", async () => {
    const { account, accountId } = await subscribedAccount("http://127.0.0.1:9/hook", ["lead.*"]);
    const secret = await leadKey(account);
    const created = await api.create(secret, {
      name: "Grace",
      email: "grace@example.test",
      phone: "+49 30 1234",
      metadata: { plan: "trial", "utm source": "ads" },
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    const [message] = await messages(accountId);
    expect(message.type).toBe("lead.created");
    expect(message.payload.data).toStrictEqual(body);
  });

  it("the API create: a create that conflicts on the email or names an unknown stage notifies nobody", async () => {
    const { account, accountId, subscriptionId } = await subscribedAccount("http://127.0.0.1:9/hook", ["lead.*"]);
    const secret = await leadKey(account);
    expect((await api.create(secret, { name: "First", email: "same@example.test" })).status).toBe(201);
    expect((await api.create(secret, { name: "Second", email: "same@example.test" })).status).toBe(409);
    expect((await api.create(secret, { name: "Third", stage: "no-such-stage" })).status).toBe(400);
    expect((await messages(accountId)).map((message) => message.payload.data.name)).toEqual(["First"]);
    expect(await deliveries(subscriptionId)).toHaveLength(1);
  });

  it("the API: create, patch and stage change (lead.updated, lead.stage_changed with previous_stage)", async () => {
    const { account, accountId, subscriptionId } = await subscribedAccount("http://127.0.0.1:9/hook", ["lead.*"]);
    const secret = await leadKey(account);
    const created = await api.create(secret, { name: "Ada", email: "ada@example.test" });
    expect(created.status).toBe(201);
    const lead = (await created.json()) as { id: string };
    expect((await api.patch(secret, lead.id, { company: "Engines Ltd", stage: "contacted" })).status).toBe(200);
    expect((await api.stage(secret, lead.id, { stage: "won" })).status).toBe(200);
    expect((await api.stage(secret, lead.id, { stage: "won" })).status).toBe(200);
    const sent = await messages(accountId);
    // The PATCH's two notifications share one instant; their order between them is not defined.
    const [createdMessage, ...rest] = sent;
    expect(createdMessage.payload).toMatchObject({
      type: "lead.created",
      data: { id: lead.id, name: "Ada", email: "ada@example.test", stage: "new" },
    });
    expect(typesOf(rest)).toEqual(["lead.stage_changed", "lead.stage_changed", "lead.updated"]);
    expect(dataOf(rest, "lead.updated")).toMatchObject({
      company: "Engines Ltd",
      stage: "contacted",
    });
    expect(
      rest.filter((message) => message.type === "lead.stage_changed").map((message) => message.payload.data),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stage: "contacted", previous_stage: "new" }),
        expect.objectContaining({ stage: "won", previous_stage: "contacted" }),
      ]),
    );
    expect(await deliveries(subscriptionId)).toHaveLength(4);
  });

  it("the CSV import: lead.created for new rows, lead.updated (and stage_changed) for existing emails", async () => {
    const { account, accountId, subscriptionId } = await subscribedAccount("http://127.0.0.1:9/hook", ["lead.*"]);
    const secret = await leadKey(account);
    await api.create(secret, { name: "Known", email: "known@example.test" });
    const row = (line: number, fields: Record<string, unknown>) => ({ line, lead: createLeadSchema.parse(fields) });
    const summary = await importLeads(accountId, [
      row(2, { email: "known@example.test", stage: "won" }),
      row(3, { name: "Fresh", email: "fresh@example.test" }),
    ]);
    expect(summary).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const imported = (await messages(accountId)).slice(1);
    expect(typesOf(imported)).toEqual(["lead.created", "lead.stage_changed", "lead.updated"]);
    expect(dataOf(imported, "lead.stage_changed")).toMatchObject({
      email: "known@example.test",
      stage: "won",
      previous_stage: "new",
    });
    expect(dataOf(imported, "lead.created")).toMatchObject({
      name: "Fresh",
      email: "fresh@example.test",
    });
    expect(await deliveries(subscriptionId)).toHaveLength(4);
  });

  it("a refused create (email taken) notifies nobody", async () => {
    const { account, accountId } = await subscribedAccount();
    const secret = await leadKey(account);
    await api.create(secret, { email: "grace@example.test" });
    expect((await api.create(secret, { email: "grace@example.test" })).status).toBe(409);
    expect(await messages(accountId)).toHaveLength(1);
  });
});

describe("message ids drawn in SQL", () => {
  it("are 11 hex digits of the time in ms and 22 random base62 characters, distinct, growing with time", async () => {
    // The database's clock, which draws the ids (it may be another machine's under TEST_DATABASE_URL).
    const now = async () =>
      Number(
        (
          await db.pool.query<{ ms: string }>(
            "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms",
          )
        ).rows[0].ms,
      );
    const before = await now();
    const { rows } = await db.pool.query<{ id: string }>(
      "SELECT outbound_public_id('whmsg_') AS id FROM generate_series(1, 5000)",
    );
    const after = await now();
    const ids = rows.map((row) => row.id);
    for (const id of ids) expect(id).toMatch(/^whmsg_[0-9a-f]{11}[0-9A-Za-z]{22}$/);
    expect(ids.every((id) => isMessageId(id))).toBe(true);
    // Ids drawn before the time prefix (22 characters) stay valid in cursors; nothing else of that shape does.
    expect(isMessageId("whmsg_2Vb8cQ1Xo9LmRt4YpKz7aE")).toBe(true);
    expect(isMessageId(`whmsg_${"Z".repeat(11)}${"a".repeat(22)}`)).toBe(false);
    expect(isMessageId(`whmsg_${"0".repeat(12)}${"a".repeat(22)}`)).toBe(false);
    expect(new Set(ids).size).toBe(ids.length);
    const times = ids.map((id) => parseInt(id.slice("whmsg_".length, "whmsg_".length + 11), 16));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(before);
    expect(Math.max(...times)).toBeLessThanOrEqual(after);
    // Drawn one after the other, so never decreasing: new entries go to the right edge of the indexes.
    expect(times.every((time, index) => index === 0 || time >= times[index - 1])).toBe(true);
  });

  it("draw every random character about equally often", async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      "SELECT outbound_public_id('whmsg_') AS id FROM generate_series(1, 5000)",
    );
    const counts = new Map<string, number>();
    for (const { id } of rows)
      for (const character of id.slice("whmsg_".length + 11)) counts.set(character, (counts.get(character) ?? 0) + 1);
    // 110,000 characters over 62: about 1,774 each, with a standard deviation of about 42.
    expect(counts.size).toBe(62);
    const expected = (rows.length * 22) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(6 * 42);
  });
});
