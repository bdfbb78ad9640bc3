import { readBody, type BodyRead } from "@/lib/platform/http/body";

/** The largest events-webhook body (docs/webhook.md); the OpenAPI document and the fast path use it too. */
export const MAX_BODY_BYTES = 256 * 1024;

export function readWebhookBody(request: Request): Promise<BodyRead> {
  return readBody(request, MAX_BODY_BYTES);
}
