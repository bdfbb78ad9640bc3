import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "@/lib/outbound/signing";
import { generateSubscriptionSecret } from "@/lib/webhook-subscriptions/model";
import { failureOf } from "../support/failure";

/*
 * The Zapier integration's REST-hook triggers keep the subscription's signing secret and refuse a delivered
 * notification whose Standard Webhooks signature does not verify (integrations/zapier/src/hooks.js,
 * src/signature.js). The integration's own tests need a production build of the app; these run without one.
 */

const require = createRequire(import.meta.url);
const App = require("../../integrations/zapier/index.js");
const zapier = require("zapier-platform-core");
const appTester = zapier.createAppTester(App);

type Json = Record<string, unknown>;
type RawRequest = { headers: Record<string, string>; content: string };

const newLead = App.triggers.new_lead.operation;
const secret = generateSubscriptionSecret();
const lead = { id: "lead_8f2k3m4n5p6q7r8s9t0v1w", name: "Hook Person", email: "hook@example.com" };
const authData = { base_url: "https://app.example.com", api_key: "ik_live_x" };

/** A notification as the delivery worker signs it, with Zapier's "Http-" prefixed header names. */
function delivery(options: { secrets?: string[]; timestamp?: number } = {}): RawRequest {
  const id = `whmsg_${crypto.randomBytes(8).toString("hex")}`;
  const body = JSON.stringify({ id, type: "lead.created", created_at: new Date().toISOString(), data: lead });
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers = {
    "Http-Webhook-Id": id,
    "Http-Webhook-Timestamp": String(timestamp),
    "Http-Webhook-Signature": signatureHeader(options.secrets ?? [secret], id, timestamp, body),
    "Http-Content-Type": "application/json",
  };
  return { headers, content: body };
}

/** New Lead's perform, as Zapier runs it for a request to the hook URL. */
function perform(rawRequest: RawRequest, subscribeData: Json = { id: "whsub_x", secret }) {
  const cleanedRequest = JSON.parse(rawRequest.content);
  return appTester(newLead.perform, { authData, inputData: {}, subscribeData, rawRequest, cleanedRequest });
}

describe("a delivered notification", () => {
  it("signed by the app with the subscription's secret becomes its object", async () => {
    await expect(perform(delivery())).resolves.toEqual([lead]);
  });

  it("verifies as the standardwebhooks library signs, with plain header names", async () => {
    const id = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
    const body = JSON.stringify({ id, type: "lead.created", created_at: "2026-06-15T12:00:00.000Z", data: lead });
    const sentAt = new Date();
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, sentAt, body),
    };
    await expect(perform({ headers, content: body })).resolves.toEqual([lead]);
  });

  it("is accepted during a secret rotation when one of its signatures matches", async () => {
    await expect(perform(delivery({ secrets: [generateSubscriptionSecret(), secret] }))).resolves.toEqual([lead]);
  });

  it("forged with another secret is refused", async () => {
    const error = await failureOf(perform(delivery({ secrets: [generateSubscriptionSecret()] })));
    expect(error.name).toBe("HaltedError");
    expect(error.message).toMatch(/did not sign: no signature matches/);
  });

  it("whose body was changed after signing is refused", async () => {
    const signed = delivery();
    const altered = signed.content.replace("hook@example.com", "attacker@example.com");
    const error = await failureOf(perform({ ...signed, content: altered }));
    expect(error.name).toBe("HaltedError");
  });

  it("without signature headers is refused", async () => {
    const { content } = delivery();
    const error = await failureOf(perform({ headers: { "Http-Content-Type": "application/json" }, content }));
    expect(error.name).toBe("HaltedError");
    expect(error.message).toMatch(/header is missing/);
  });

  it("signed more than five minutes ago, or ahead, is refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 301, now + 301]) {
      const error = await failureOf(perform(delivery({ timestamp })));
      expect(error.message).toMatch(/more than five minutes/);
    }
    await expect(perform(delivery({ timestamp: now - 240 }))).resolves.toEqual([lead]);
  });

  it("to a Zap subscribed without a stored secret is refused with what to do", async () => {
    const error = await failureOf(perform(delivery(), { id: "whsub_x" }));
    expect(error.message).toMatch(/Turn the Zap off and on again/);
  });
});

describe("subscribing", () => {
  // Answers POST /api/public/webhooks as the app does (201 with the secret), so performSubscribe runs here.
  let server: http.Server;
  let baseUrl = "";
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const { url, event_types } = JSON.parse(body) as Json;
        const subscription = { id: "whsub_1234567890abcdefghijkl", url, event_types, status: "active", secret };
        response.writeHead(201, { "Content-Type": "application/json" });
        response.end(JSON.stringify(subscription));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps the subscription's secret in the subscribe data, which perform verifies with", async () => {
    const targetUrl = "https://hooks.zapier.com/hooks/standard/1/abc";
    const bundle = { authData: { ...authData, base_url: baseUrl }, inputData: {}, targetUrl };
    const subscribeData = await appTester(newLead.performSubscribe, bundle);
    expect(subscribeData).toMatchObject({ id: "whsub_1234567890abcdefghijkl", secret });
    await expect(perform(delivery(), subscribeData)).resolves.toEqual([lead]);
  });
});
