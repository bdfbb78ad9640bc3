import { describe, expect, it } from "vitest";
import { SECURITY_SCHEME } from "@/lib/openapi/common";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { EVENT_TYPES } from "@/lib/webhook-subscriptions/catalogue";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument({ baseUrl: "https://app.example.com" }))) as Json;

describe("the OpenAPI document for webhook subscriptions", () => {
  it("describes the notification and its Standard Webhooks headers in the webhooks section", () => {
    const receive = doc.webhooks.notification.post;
    expect(receive.parameters.map((parameter: Json) => [parameter.in, parameter.name])).toEqual([
      ["header", "webhook-id"],
      ["header", "webhook-timestamp"],
      ["header", "webhook-signature"],
    ]);
    const payload = doc.components.schemas.WebhookNotification;
    expect(payload.required).toEqual(["id", "type", "created_at", "data"]);
    expect(payload.properties.type.enum).toEqual([...EVENT_TYPES]);
  });

  it("says in the API key's description that the webhooks scope receives lead and conversation data", () => {
    const description: string = doc.components.securitySchemes[SECURITY_SCHEME].description;
    expect(description).toContain(
      "`webhooks` (Create subscriptions and receive the notifications they carry, including lead and conversation data",
    );
  });

  it("names the URL problem reasons and the plan limit on subscribe", () => {
    const create = doc.paths["/api/public/webhooks"].post;
    for (const reason of ["private_address", "scheme_not_allowed", "url_too_long", "port_not_allowed"])
      expect(create.description).toContain(reason);
    // A name that does not resolve is answered as a private one (no separate reason to probe DNS with).
    expect(create.description).not.toContain("unresolvable_host");
    expect(create.responses["403"].content["application/json"].schema.properties.error.properties.code.enum).toEqual([
      "insufficient_scope",
      "plan_limit_reached",
    ]);
    expect(doc.paths["/api/public/webhook-events"].get.parameters.map((parameter: Json) => parameter.name)).toEqual([
      "limit",
      "order",
      "cursor",
      "type",
    ]);
  });
});
