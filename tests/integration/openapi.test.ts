import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as openApiRoute } from "@/app/api/public/openapi.json/route";
import { SIGNING_TEST_VECTOR } from "@/lib/events-webhook/test-vector";
import { parsePayload } from "@/lib/events-webhook/payload";
import { serializeConversation, serializeMessage } from "@/lib/conversations/model";
import { postMessageSchema } from "@/lib/conversations/schemas";
import { serializeLead } from "@/lib/leads/model";
import { leadWriteReceipt } from "@/lib/leads/receipt";
import { createLeadSchema } from "@/lib/leads/schemas";
import { buildOpenApiDocument, openApiDocument } from "@/lib/openapi/document";

/*
 * The OpenAPI document (/api/public/openapi.json) against the OpenAPI 3.1 schema, against the route files
 * on disk (a public route without an entry fails here), and against the schemas that validate requests.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(import.meta.dirname, "../..");
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const OPENAPI_PATH = "/api/public/openapi.json";
const WEBHOOK_PATH = "/api/v1/events/webhook/{source_id}";
// The calendar feed: a secret URL (no key, so no 401) that calendar apps poll with If-None-Match (no rate limit).
const CALENDAR_FEED_PATH = "/api/v1/events/calendar/{token}";

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument({ baseUrl: "https://app.example.com/" }))) as Json;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** app/api/public/leads/[id]/stage/route.ts → /api/public/leads/{id}/stage; [sourceId] → {source_id}. */
function apiPathOf(file: string): string {
  const segments = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
  const mapped = segments.map((segment) => {
    const param = /^\[(\w+)\]$/.exec(segment);
    return param ? `{${param[1].replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}}` : segment;
  });
  return `/${mapped.join("/")}`;
}

/** The methods a route really serves: its exports, minus the no-argument 405 answers for the others. */
async function servedMethods(file: string): Promise<string[]> {
  const exports = (await import(file)) as Record<string, unknown>;
  return HTTP_METHODS.filter((method) => {
    const handler = exports[method];
    if (typeof handler !== "function") return false;
    if (handler.length > 0) return true;
    const answer = handler();
    return !(answer instanceof Response && answer.status === 405);
  });
}

type Route = { file: string; path: string; methods: string[]; scopes: Record<string, string | null | undefined> };

/** The scope withApiKey enforces for each exported method (undefined: not a key-authenticated handler). */
async function enforcedScopes(file: string): Promise<Record<string, string | null | undefined>> {
  const exports = (await import(file)) as Record<string, { requiredScope?: string | null } | undefined>;
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, exports[method]?.requiredScope]));
}
let routes: Route[] = [];

beforeAll(async () => {
  const files = [...routeFiles(path.join(ROOT, "app/api/public")), ...routeFiles(path.join(ROOT, "app/api/v1"))];
  routes = await Promise.all(
    files.map(async (file) => ({
      file,
      path: apiPathOf(file),
      methods: await servedMethods(file),
      scopes: await enforcedScopes(file),
    })),
  );
});

const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([apiPath, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => HTTP_METHODS.includes(method.toUpperCase() as (typeof HTTP_METHODS)[number]))
      .map(([method, operation]) => ({ path: apiPath, method: method.toUpperCase(), operation: operation as Json })),
  );

const keyOperations = () =>
  operations().filter((op) => ![OPENAPI_PATH, WEBHOOK_PATH, CALENDAR_FEED_PATH].includes(op.path));
/** Operations that answer 401 and 429: all but the OpenAPI document and the calendar feed. */
const limitedOperations = () => operations().filter((op) => op.path !== OPENAPI_PATH && op.path !== CALENDAR_FEED_PATH);

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("is served at /api/public/openapi.json without a key, publicly cacheable, with this server's URL", async () => {
    const response = openApiRoute();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
    const served = (await response.json()) as Json;
    expect(served.openapi).toBe("3.1.0");
    expect(served.servers).toEqual([
      { url: process.env.APP_BASE_URL?.replace(/\/+$/, "") || process.env.NEXTAUTH_URL?.replace(/\/+$/, "") || "/" },
    ]);
    expect(openApiDocument()).toBe(openApiDocument());
    expect(doc.servers).toEqual([{ url: "https://app.example.com" }]);
  });

  it("documents every method of every route under app/api/public and app/api/v1", () => {
    const served = routes
      .filter((route) => route.path !== OPENAPI_PATH)
      .flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
    expect(served.length).toBeGreaterThanOrEqual(7);
    const documented = new Set(operations().map((op) => `${op.method} ${op.path}`));
    expect(served.filter((entry) => !documented.has(entry))).toEqual([]);
  });

  it("documents no path or method that no route serves", () => {
    const served = new Set(routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`)));
    expect(
      operations()
        .map((op) => `${op.method} ${op.path}`)
        .filter((entry) => !served.has(entry)),
    ).toEqual([]);
  });

  it("gives every key-authenticated operation the bearer scheme with the scope its route enforces", () => {
    for (const { path: apiPath, method, operation } of keyOperations()) {
      const route = routes.find((candidate) => candidate.path === apiPath)!;
      const enforced = route.scopes[method] ?? null;
      expect(route.scopes[method], `${method} ${apiPath} is not wrapped by withApiKey`).not.toBeUndefined();
      const label = `${method} ${apiPath}`;
      expect(operation.security, label).toEqual([{ apiKey: enforced ? [enforced] : [] }]);
      expect(operation["x-required-scope"], label).toBe(enforced);
      if (enforced) {
        expect(operation.description, label).toContain(`\`${enforced}\``);
        expect(
          operation.responses["403"].content["application/json"].schema.properties.error.properties.code.enum[0],
          label,
        ).toBe("insufficient_scope");
      }
    }
    const leadScopes = keyOperations().map((op) => op.operation["x-required-scope"]);
    expect(leadScopes).toEqual(expect.arrayContaining(["read:leads", "write:leads", null]));
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("lists 401, 429 and 503 on every operation, and 400 on every operation that takes input", () => {
    for (const { path: apiPath, method, operation } of limitedOperations()) {
      const label = `${method} ${apiPath}`;
      expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(["401", "429", "503"]));
      const takesInput =
        Boolean(operation.requestBody) ||
        (operation.parameters ?? []).some((parameter: Json) => parameter.in === "query");
      if (takesInput) expect(Object.keys(operation.responses), label).toContain("400");
    }
  });

  it("gives every error answer the one error body with the codes of that status", () => {
    for (const { path: apiPath, method, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        const schema = response.content["application/json"].schema;
        const label = `${method} ${apiPath} ${status}`;
        expect(schema.required, label).toEqual(["ok", "error"]);
        expect(schema.properties.ok, label).toMatchObject({ const: false });
        expect(schema.properties.error.required, label).toEqual(["code", "message", "details"]);
        expect(schema.properties.error.properties.code.enum.length, label).toBeGreaterThan(0);
      }
    }
    const codes = (apiPath: string, method: string, status: number) =>
      doc.paths[apiPath][method].responses[status].content["application/json"].schema.properties.error.properties.code
        .enum;
    expect(codes("/api/public/leads", "post", 409)).toEqual([
      "lead_exists",
      "idempotency_key_reused",
      "idempotency_request_in_progress",
    ]);
    expect(codes("/api/public/leads", "post", 400)).toEqual(["invalid_request", "invalid_json"]);
    expect(codes("/api/public/leads", "post", 413)).toEqual(["payload_too_large"]);
    expect(codes("/api/public/leads/{id}", "get", 404)).toEqual(["not_found"]);
    expect(codes("/api/public/zapier/me", "get", 401)).toEqual(["unauthorized", "invalid_token"]);
    expect(codes("/api/public/conversations/{id}/messages", "post", 409)).toEqual([
      "conversation_not_in_handoff",
      "idempotency_key_reused",
      "idempotency_request_in_progress",
    ]);
    expect(codes("/api/public/conversations/{id}/messages", "get", 404)).toEqual(["not_found"]);
    expect(codes("/api/public/conversations/{id}", "get", 404)).toEqual(["not_found"]);
    expect(codes(WEBHOOK_PATH, "post", 400)).toEqual(["invalid_timestamp", "invalid_json", "invalid_payload"]);
    expect(codes(WEBHOOK_PATH, "post", 401)).toEqual(["invalid_signature"]);
    expect(codes(WEBHOOK_PATH, "post", 403)).toEqual(["source_inactive", "plan_limit_reached"]);
    expect(codes(WEBHOOK_PATH, "post", 404)).toEqual(["source_not_found", "event_not_found"]);
  });

  it("names rate-limit headers on 429, Retry-After on 503, Idempotency-Key and Idempotent-Replayed on POSTs", () => {
    for (const { path: apiPath, method, operation } of limitedOperations()) {
      const label = `${method} ${apiPath}`;
      expect(Object.keys(operation.responses["429"].headers), label).toEqual([
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "Retry-After",
      ]);
      expect(Object.keys(operation.responses["503"].headers), label).toEqual(["Retry-After"]);
    }
    for (const { path: apiPath, operation } of keyOperations().filter((op) => op.method === "POST")) {
      expect(
        operation.parameters.map((parameter: Json) => `${parameter.in} ${parameter.name}`),
        apiPath,
      ).toContain("header Idempotency-Key");
      const success = Object.entries(operation.responses as Json).find(([status]) => status.startsWith("2"))![1];
      expect(Object.keys(success.headers), apiPath).toContain("Idempotent-Replayed");
    }
    const webhookHeaders = doc.paths[WEBHOOK_PATH].post.parameters.filter(
      (parameter: Json) => parameter.in === "header",
    );
    expect(webhookHeaders.map((parameter: Json) => [parameter.name, parameter.required])).toEqual([
      ["X-Service-Timestamp", true],
      ["X-Service-Signature", true],
    ]);
  });

  it("documents the calendar feed as text/calendar with its ETag, a 304 and the plain 404, with no key", () => {
    const feed = doc.paths[CALENDAR_FEED_PATH].get;
    expect(feed.security).toEqual([]);
    expect(Object.keys(feed.responses)).toEqual(["200", "304", "404", "500", "503"]);
    expect(Object.keys(feed.responses["200"].content)).toEqual(["text/calendar"]);
    expect(Object.keys(feed.responses["304"].headers)).toEqual(["ETag", "Cache-Control"]);
    expect(feed.responses["404"].content["application/json"].schema.properties.error.properties.code.enum).toEqual([
      "not_found",
    ]);
  });

  it("documents the list envelope and the list parameters of GET /api/public/leads", () => {
    const list = doc.paths["/api/public/leads"].get;
    expect(list.parameters.map((parameter: Json) => parameter.name)).toEqual([
      "limit",
      "order",
      "cursor",
      "q",
      "stage",
      "created_after",
      "updated_after",
    ]);
    expect(list.parameters[0].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 });
    const envelope = doc.components.schemas.LeadList;
    expect(envelope.required).toEqual(["data", "has_more", "next_cursor"]);
    expect(envelope.properties.data.items).toEqual({ $ref: "#/components/schemas/Lead" });
  });
});

describe("the document's schemas agree with the code", () => {
  // The JSON Schema validator the OpenAPI validator itself runs on (ajv for draft 2020-12, as OpenAPI 3.1 uses).
  const requireFromValidator = createRequire(
    createRequire(import.meta.url).resolve("@seriousme/openapi-schema-validator"),
  );
  const { default: Ajv2020 } = requireFromValidator("ajv/dist/2020.js") as { default: new (options: object) => Json };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(doc, "openapi.json");
  const schemaAccepts = (name: string, value: unknown) =>
    ajv.getSchema(`openapi.json#/components/schemas/${name}`)(value) as boolean;

  it.each([
    { label: "a name only", body: { name: "Ada" }, accepted: true },
    {
      label: "a phone with a null name and unknown fields",
      body: { name: null, phone: "+1 555 0100", favourite_colour: "green" },
      accepted: true,
    },
    { label: "no name, email or phone", body: { company: "Acme" }, accepted: false },
    { label: "a name of spaces only", body: { name: "   " }, accepted: false },
    { label: "a 201-character name", body: { name: "x".repeat(201) }, accepted: false },
    { label: "a 200-emoji name", body: { name: "😀".repeat(200) }, accepted: true },
    { label: "a number as name", body: { name: 42, email: "ada@example.com" }, accepted: false },
    { label: "a metadata value that is not a string", body: { name: "Ada", metadata: { plan: 5 } }, accepted: false },
    {
      label: "51 metadata keys",
      body: { name: "Ada", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
      accepted: false,
    },
    { label: "an empty stage", body: { name: "Ada", stage: "" }, accepted: false },
    { label: "an array body", body: [{ name: "Ada" }], accepted: false },
  ])(
    "POST /api/public/leads, $label: accepted $accepted by the zod schema and by the document alike",
    ({ body, accepted }) => {
      expect(createLeadSchema.safeParse(body).success).toBe(accepted);
      expect(schemaAccepts("CreateLeadRequest", body)).toBe(accepted);
    },
  );

  it("describes a lead exactly as the API serialises it", () => {
    const at = new Date("2026-01-31T09:00:00Z");
    const domainLead = {
      id: "lead_3kTMd9QpXr2hVbN8cWfY7a",
      name: "Ada",
      email: "ada@example.com",
      phone: null,
      company: null,
      source: "api",
      stage: "new",
      notes: null,
      metadata: { plan: "pro" },
      conversationId: null,
      createdAt: at,
      updatedAt: at,
      stageChangedAt: at,
    };
    const lead = serializeLead(domainLead);
    expect(schemaAccepts("Lead", lead)).toBe(true);
    expect(schemaAccepts("Lead", { ...lead, stage: undefined })).toBe(false);
    expect(Object.keys(doc.components.schemas.Lead.properties).sort()).toEqual(Object.keys(lead).sort());
    // A write-only key's answer (lib/leads/receipt.ts): the id and what the request set.
    const receipt = leadWriteReceipt(domainLead, { name: "Ada", metadata: { plan: "pro" } }, "update");
    expect(receipt).toEqual({ id: lead.id, name: "Ada", metadata: { plan: "pro" }, updated_at: lead.updated_at });
    expect(schemaAccepts("LeadWriteReceipt", receipt)).toBe(true);
    expect(schemaAccepts("LeadWriteReceipt", { updated_at: lead.updated_at })).toBe(false);
    const patch = doc.paths["/api/public/leads/{id}"].patch.responses["200"].content["application/json"].schema;
    expect(patch.anyOf).toEqual([
      { $ref: "#/components/schemas/Lead" },
      { $ref: "#/components/schemas/LeadWriteReceipt" },
    ]);
  });

  it("documents the four conversation paths with the conversation scopes, and the list parameters", () => {
    const scopeOf = (apiPath: string, method: string) => doc.paths[apiPath][method]["x-required-scope"];
    expect(scopeOf("/api/public/conversations", "get")).toBe("read:conversations");
    expect(scopeOf("/api/public/conversations/{id}", "get")).toBe("read:conversations");
    expect(scopeOf("/api/public/conversations/{id}/messages", "get")).toBe("read:conversations");
    expect(scopeOf("/api/public/conversations/{id}/messages", "post")).toBe("write:conversations");
    expect(scopeOf("/api/public/conversations/{id}/close", "post")).toBe("write:conversations");
    const names = (apiPath: string) => doc.paths[apiPath].get.parameters.map((parameter: Json) => parameter.name);
    expect(names("/api/public/conversations")).toEqual(["limit", "order", "cursor", "status", "updated_after"]);
    expect(names("/api/public/conversations/{id}/messages")).toEqual(["id", "limit", "cursor"]);
    expect(doc.components.schemas.ConversationList.properties.data.items).toEqual({
      $ref: "#/components/schemas/Conversation",
    });
    expect(doc.components.schemas.ConversationMessageList.properties.data.items).toEqual({
      $ref: "#/components/schemas/ConversationMessage",
    });
  });

  it("describes a conversation and a message exactly as the API (and the notifications) serialise them", () => {
    const at = new Date("2026-01-31T09:00:00Z");
    const conversation = serializeConversation({
      id: "conv_5hTq2Wm9ZkR4xN7bLc3Vd8",
      widgetId: "wid_8PqR2sT4uV6wX8yZ0aB2cD",
      status: "handoff_requested",
      leadId: null,
      visitorName: null,
      visitorEmail: null,
      pageUrl: "https://example.com/",
      referrer: null,
      userAgent: "test",
      locale: "en-GB",
      handoffRequestedAt: at,
      closedAt: null,
      closedReason: null,
      lastMessageAt: at,
      createdAt: at,
      updatedAt: at,
    });
    expect(schemaAccepts("Conversation", conversation)).toBe(true);
    expect(schemaAccepts("Conversation", { ...conversation, status: "waiting" })).toBe(false);
    expect(Object.keys(doc.components.schemas.Conversation.properties).sort()).toEqual(
      Object.keys(conversation).sort(),
    );
    const message = serializeMessage({
      id: "msg_2bN7cQ4dR9eS1fT6gU3hV8",
      seq: 7,
      conversationId: conversation.id,
      author: "agent",
      authorName: "Grace",
      text: "<b>hi</b>",
      createdAt: at,
    });
    expect(schemaAccepts("ConversationMessage", message)).toBe(true);
    expect(schemaAccepts("ConversationMessage", { ...message, author: "bot" })).toBe(false);
    expect(Object.keys(doc.components.schemas.ConversationMessage.properties).sort()).toEqual(
      Object.keys(message).sort(),
    );
  });

  it.each([
    { label: "a text", body: { text: "Hello" }, accepted: true },
    {
      label: "a text and an author name, with unknown fields",
      body: { text: "Hello", author_name: "Grace", channel: "sms" },
      accepted: true,
    },
    { label: "a null author name", body: { text: "Hello", author_name: null }, accepted: true },
    { label: "no text", body: { author_name: "Grace" }, accepted: false },
    { label: "an empty text", body: { text: "" }, accepted: false },
    { label: "a text of spaces only", body: { text: "   " }, accepted: false },
    { label: "a 4,001-character text", body: { text: "x".repeat(4001) }, accepted: false },
    { label: "a 4,000-emoji text", body: { text: "😀".repeat(4000) }, accepted: true },
    { label: "a number as text", body: { text: 42 }, accepted: false },
    { label: "a 101-character author name", body: { text: "Hi", author_name: "x".repeat(101) }, accepted: false },
  ])(
    "POST …/messages, $label: accepted $accepted by the zod schema and by the document alike",
    ({ body, accepted }) => {
      expect(postMessageSchema.safeParse(body).success).toBe(accepted);
      expect(schemaAccepts("PostMessageRequest", body)).toBe(accepted);
    },
  );

  it("accepts the published webhook test vector's body and refuses what the webhook refuses", () => {
    const accepts = (body: string) => [
      parsePayload(new TextEncoder().encode(body)).ok,
      schemaAccepts("WebhookPayload", JSON.parse(body)),
    ];
    expect(accepts(SIGNING_TEST_VECTOR.body)).toEqual([true, true]);
    expect(accepts('{"action":"cancel","event":{"title":"Open Day","starts_at":"2026-05-01T10:00:00Z"}}')).toEqual([
      true,
      true,
    ]);
    expect(accepts('{"action":"archive","event":{"title":"Open Day","starts_at":"2026-05-01T10:00:00Z"}}')).toEqual([
      false,
      false,
    ]);
    expect(accepts('{"action":"upsert","event":{"starts_at":"2026-05-01T10:00:00Z"}}')).toEqual([false, false]);
    expect(
      accepts(`{"action":"upsert","event":{"title":"${"x".repeat(301)}","starts_at":"2026-05-01T10:00:00Z"}}`),
    ).toEqual([false, false]);
    expect(
      accepts(
        '{"action":"upsert","event":{"title":"Open Day","starts_at":"2026-05-01T10:00:00Z","status":"postponed"}}',
      ),
    ).toEqual([false, false]);
  });
});
