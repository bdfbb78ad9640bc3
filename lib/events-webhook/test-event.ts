import "server-only";
import crypto from "node:crypto";
import { canManage, type SessionContext } from "@/lib/auth/session";
import type { Failure } from "@/lib/platform/result";
import { handleWebhookRequest } from "./handler";
import { endpointUrl, getSource, readSecret } from "./sources";
import { computeSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./signature";

/*
 * "Send test event": a signed sample upsert delivered through the very handler the route uses (not an
 * HTTP call to ourselves), so it exercises the current secret, the active flag, the rate limit, the
 * plan limit and the delivery log exactly as an external system would.
 */

export type TestEventResult = { ok: true; status: number; body: unknown } | Failure<"forbidden" | "not_found">;

/** Tomorrow at 10:00 UTC, so repeated test sends update one sample event instead of piling up. */
function sampleBody(now: Date): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 10));
  const end = new Date(start.getTime() + 60 * 60_000);
  return JSON.stringify({
    action: "upsert",
    // Unknown to the schema and ignored; it makes two sends within one second distinct requests
    // rather than a replay answered with {"duplicate": true}.
    test_id: crypto.randomUUID(),
    event: {
      title: "Webhook test event",
      starts_at: start.toISOString().replace(".000Z", "Z"),
      ends_at: end.toISOString().replace(".000Z", "Z"),
      description: "Sent with “Send test event” in the dashboard. Safe to delete.",
      location: "Online",
    },
  });
}

export async function sendTestEvent(context: SessionContext, sourceId: string): Promise<TestEventResult> {
  if (!canManage(context))
    return { ok: false, code: "forbidden", message: "Only owners and admins can send test events." };
  const source = await getSource(context.account.id, sourceId);
  const secret = source && (await readSecret(context.account.id, source.id));
  if (!source || !secret) return { ok: false, code: "not_found", message: "This webhook source does not exist." };
  const body = sampleBody(new Date());
  const timestamp = String(Math.floor(Date.now() / 1000));
  const request = new Request(endpointUrl(source.publicId), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "dashboard-test-event/1",
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: computeSignature(secret, timestamp, body),
    },
    body,
  });
  const response = await handleWebhookRequest(request, source.publicId);
  return { ok: true, status: response.status, body: await response.json().catch(() => null) };
}
