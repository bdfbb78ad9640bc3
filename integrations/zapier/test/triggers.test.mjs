import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, App, appTester, bundle, delivered, failureOf, newSecret } from "./support.mjs";

const TRIGGERS = {
  new_lead: ["lead.created"],
  lead_stage_changed: ["lead.stage_changed"],
  event_changed: ["event.created", "event.updated"],
  handoff_requested: ["conversation.handoff_requested"],
};

const trigger = (key) => App.triggers[key].operation;
const targetUrl = () => `http://127.0.0.1:9/hooks/catch/${crypto.randomBytes(4).toString("hex")}`;

describe.each(Object.entries(TRIGGERS))("REST hook %s", (key, eventTypes) => {
  it(`subscribes (POST /api/public/webhooks) for ${eventTypes.join(" and ")} and unsubscribes (DELETE)`, async () => {
    const url = targetUrl();
    const subscribeData = await appTester(trigger(key).performSubscribe, bundle({ targetUrl: url }));
    expect(subscribeData.id).toMatch(/^whsub_/);
    // Kept in Zapier's subscribe data: perform verifies each notification's signature with it.
    expect(subscribeData.secret).toMatch(/^whsec_/);

    const stored = await api(`/webhooks/${subscribeData.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: subscribeData.id, url, event_types: eventTypes, status: "active" });

    await appTester(trigger(key).performUnsubscribe, bundle({ targetUrl: url, subscribeData }));
    expect((await api(`/webhooks/${subscribeData.id}`)).status).toBe(404);
  });
});

describe("unsubscribing", () => {
  it("succeeds when the subscription was already deleted in the app", async () => {
    const subscribeData = await appTester(trigger("new_lead").performSubscribe, bundle({ targetUrl: targetUrl() }));
    expect((await api(`/webhooks/${subscribeData.id}`, { method: "DELETE" })).status).toBe(204);
    await expect(appTester(trigger("new_lead").performUnsubscribe, bundle({ subscribeData }))).resolves.toEqual({});
  });
});

describe("a delivered notification", () => {
  it("becomes the notification's object, the lead as the API returns it", async () => {
    const created = await api("/leads", {
      method: "POST",
      body: JSON.stringify({ name: "Hook Person", email: "hook@example.com" }),
    });
    const notification = {
      id: `whmsg_${crypto.randomBytes(8).toString("hex")}`,
      type: "lead.created",
      created_at: new Date().toISOString(),
      data: created.body,
    };
    const subscribeData = await appTester(trigger("new_lead").performSubscribe, bundle({ targetUrl: targetUrl() }));
    const delivery = delivered(notification, subscribeData.secret, subscribeData);
    const results = await appTester(trigger("new_lead").perform, bundle(delivery));
    expect(results).toEqual([created.body]);
    expect(results[0].id).toMatch(/^lead_/);
    await appTester(trigger("new_lead").performUnsubscribe, bundle({ subscribeData }));
  });

  it("keeps an id for de-duplication when the object has none", async () => {
    const notification = {
      id: "whmsg_no_object_id",
      type: "event.updated",
      created_at: new Date().toISOString(),
      data: { title: "Untitled" },
    };
    const results = await appTester(trigger("event_changed").perform, bundle(delivered(notification)));
    expect(results).toEqual([{ title: "Untitled", id: "whmsg_no_object_id" }]);
  });

  it("is refused when it is not signed with the subscription's secret", async () => {
    const data = { id: "lead_forged", name: "Forged" };
    const forged = delivered({ id: "whmsg_forged", type: "lead.created", created_at: new Date().toISOString(), data });
    const stored = { id: forged.subscribeData.id, secret: newSecret() };
    const error = await failureOf(appTester(trigger("new_lead").perform, bundle({ ...forged, subscribeData: stored })));
    expect(error.name).toBe("HaltedError");
    expect(error.message).toMatch(/no signature matches/);
  });
});

describe("performList of New Lead", () => {
  it("reads the newest leads first, each with its id", async () => {
    const names = ["List First", "List Second", "List Third"];
    const ids = [];
    for (const name of names) {
      const lead = await appTester(App.creates.create_lead.operation.perform, bundle({ inputData: { name } }));
      ids.push(lead.id);
    }
    const results = await appTester(trigger("new_lead").performList, bundle());
    expect(results.slice(0, 3).map((lead) => lead.id)).toEqual(ids.reverse());
    expect(results.every((lead) => typeof lead.id === "string" && lead.id.startsWith("lead_"))).toBe(true);
  });
});

/*
 * The notifications listed by GET /api/public/webhook-events are written by the app as the changes commit.
 * These rows are written directly, dated ahead of anything the app writes during the run, so the test
 * does not depend on which writers announce themselves: it checks the integration's reading and mapping.
 */
describe("performList of the notification triggers", () => {
  const client = new pg.Client({ connectionString: inject("zapierDatabaseUrl") });
  const soon = (minutes) => new Date(Date.now() + minutes * 60_000);
  const insert = async (type, data, createdAt) => {
    const id = `whmsg_${crypto.randomBytes(11).toString("hex")}`;
    const payload = { id, type, created_at: createdAt.toISOString(), data };
    await client.query(
      "INSERT INTO outbound_messages (id, account_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
      [id, inject("zapierAccountId"), type, payload, createdAt],
    );
  };

  beforeAll(async () => {
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it("answers 200 and an empty list before anything was announced", async () => {
    const page = await api("/webhook-events?type=event.deleted");
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([]);
    const results = await appTester(trigger("event_changed").performList, bundle());
    expect(Array.isArray(results)).toBe(true);
  });

  it("Lead Stage Changed lists the leads of lead.stage_changed notifications, newest first", async () => {
    await insert("lead.stage_changed", { id: "lead_older", stage: "contacted", previous_stage: "new" }, soon(60));
    await insert("lead.stage_changed", { id: "lead_newer", stage: "won", previous_stage: "qualified" }, soon(61));
    await insert("lead.created", { id: "lead_not_a_stage_change" }, soon(62));
    const results = await appTester(trigger("lead_stage_changed").performList, bundle());
    expect(results.slice(0, 2)).toEqual([
      { id: "lead_newer", stage: "won", previous_stage: "qualified" },
      { id: "lead_older", stage: "contacted", previous_stage: "new" },
    ]);
    expect(results.map((lead) => lead.id)).not.toContain("lead_not_a_stage_change");
  });

  it("Event Created or Updated merges both types, newest first, and leaves other event types out", async () => {
    await insert("event.created", { id: "event-a", title: "Created" }, soon(70));
    await insert("event.updated", { id: "event-b", title: "Updated" }, soon(72));
    await insert("event.created", { id: "event-c", title: "Created later" }, soon(74));
    await insert("event.cancelled", { id: "event-d", title: "Cancelled" }, soon(76));
    const results = await appTester(trigger("event_changed").performList, bundle());
    expect(results.slice(0, 3).map((event) => event.id)).toEqual(["event-c", "event-b", "event-a"]);
    expect(results.map((event) => event.id)).not.toContain("event-d");
    expect(results.every((event) => typeof event.id === "string")).toBe(true);
  });
});
