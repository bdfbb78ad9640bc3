import {
  parseEventFields,
  parseEventIdentity,
  type EventIdentity,
  type EventInput,
  type FieldError,
} from "@/lib/events/schema";
import { decodeJson, isJsonObject } from "@/lib/platform/http/json-body";

/*
 * Step 8 of the webhook's checks, run only after the signature has been verified over the raw bytes:
 * strict UTF-8, JSON, then the shape { action, event } with the shared event schema.
 */

export const ACTIONS = ["upsert", "cancel", "delete"] as const;
export type WebhookAction = (typeof ACTIONS)[number];

export type ParsedPayload =
  | { ok: true; action: "upsert"; event: EventInput }
  | { ok: true; action: "cancel" | "delete"; event: EventIdentity }
  | {
      ok: false;
      code: "invalid_json" | "invalid_payload";
      message: string;
      details: FieldError[] | { message: string }[];
      /** What the delivery log can still show about an invalid request. */
      action: WebhookAction | null;
      title: string | null;
    };

const isAction = (value: unknown): value is WebhookAction =>
  typeof value === "string" && (ACTIONS as readonly string[]).includes(value);

export function parsePayload(bytes: Uint8Array): ParsedPayload {
  const decoded = decodeJson(bytes);
  if (!decoded.ok) {
    return invalidJson(decoded.problem === "not_utf8" ? "The body is not valid UTF-8." : "The body is not valid JSON.");
  }
  const body = decoded.value;
  if (!isJsonObject(body)) {
    return {
      ...invalidPayload([{ message: 'The body must be a JSON object with "action" and "event".' }]),
      action: null,
      title: null,
    };
  }
  const action = isAction(body.action) ? body.action : null;
  const title = isJsonObject(body.event) && typeof body.event.title === "string" ? body.event.title : null;
  const details: FieldError[] = [];
  if (!action) {
    details.push({
      field: "action",
      message: body.action === undefined ? "This field is required." : "Must be one of upsert, cancel, delete.",
    });
  }
  if (body.event === undefined) details.push({ field: "event", message: "This field is required." });
  else if (!isJsonObject(body.event)) details.push({ field: "event", message: "Must be a JSON object." });
  if (!action || !isJsonObject(body.event)) return { ...invalidPayload(details), action, title };

  if (action === "upsert") {
    const event = parseEventFields(body.event, "event");
    return event.ok ? { ok: true, action, event: event.value } : { ...invalidPayload(event.details), action, title };
  }
  const identity = parseEventIdentity(body.event, "event");
  return identity.ok
    ? { ok: true, action, event: identity.value }
    : { ...invalidPayload(identity.details), action, title };
}

function invalidJson(message: string): ParsedPayload {
  return { ok: false, code: "invalid_json", message, details: [], action: null, title: null };
}

function invalidPayload(details: FieldError[] | { message: string }[]) {
  return {
    ok: false as const,
    code: "invalid_payload" as const,
    message: "The body is not a valid event action; see details.",
    details,
  };
}
