import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { createWebhookHandler, handleWebhookRequest } from "@/lib/events-webhook/handler";
import { computeSignature } from "@/lib/events-webhook/signature";
import { rotateSecret, setSourceActive } from "@/lib/events-webhook/sources";
import {
  cancel,
  createSource,
  deliveryCount,
  lastDelivery,
  nowSeconds,
  openLogGates,
  remove,
  sample,
  send,
  signedRequest,
  snapshot,
  upsert,
  type Answer,
  type TestSource,
} from "./support";

/*
 * Every refusal of docs/webhook.md ("Check order"): status, error code, and nothing stored or changed. The account
 * already holds one event, and every refused request would have changed it had it been accepted.
 */

let source: TestSource;
const changed = upsert(sample({ description: "changed by a request that must be refused" }));

beforeAll(async () => {
  source = await createSource();
  expect((await send(source, upsert(sample({ description: "original" })))).status).toBe(200);
});

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({
    ok: false,
    error: { code, message: expect.any(String), details: expect.any(Array) },
  });
}

/** Sends, and asserts the answer and that no event, replay record or rate-limit point changed. */
async function refused(
  status: number,
  code: string,
  run: () => Promise<Answer>,
  options: { countsTowardsRateLimit?: boolean } = {},
) {
  await openLogGates(source);
  const before = await snapshot(source);
  const answer = await run();
  expectError(answer, status, code);
  const after = await snapshot(source);
  expect(after.events).toEqual(before.events);
  expect(after.replays).toBe(before.replays);
  expect(after.ratePoints).toBe(before.ratePoints + (options.countsTowardsRateLimit ? 1 : 0));
  return answer;
}

describe("refusals before the signature is checked", () => {
  it("answers 404 source_not_found for an unknown source id and logs nothing", async () => {
    const total = async () => (await db.pool.query("SELECT count(*)::int AS n FROM webhook_deliveries")).rows[0].n;
    const before = await total();
    await refused(404, "source_not_found", () => send(source, changed, { publicId: "src_000000000000000000000000" }));
    await refused(404, "source_not_found", () => send(source, changed, { publicId: "not-a-source-id" }));
    expect(await total()).toBe(before);
  });

  it("answers 403 source_inactive for an inactive source, even when correctly signed", async () => {
    await setSourceActive(source.context, source.sourceId, false);
    try {
      await refused(403, "source_inactive", () => send(source, changed));
      expect(await lastDelivery(source)).toMatchObject({ status: 403, error_code: "source_inactive" });
    } finally {
      await setSourceActive(source.context, source.sourceId, true);
    }
  });

  it("answers 413 payload_too_large for a body of 256 KiB + 1 byte", async () => {
    const body = new Uint8Array(256 * 1024 + 1).fill(0x20);
    await refused(413, "payload_too_large", () =>
      send(source, body, { headers: { "Content-Length": String(body.length) } }),
    );
    expect(await lastDelivery(source)).toMatchObject({ status: 413, body_bytes: 256 * 1024 + 1 });
  });

  it("answers 413 for a chunked body without Content-Length that grows past 256 KiB", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const timestamp = String(nowSeconds());
    const request = new Request(`http://localhost/api/v1/events/webhook/${source.publicId}`, {
      method: "POST",
      body: stream,
      headers: {
        "X-Service-Timestamp": timestamp,
        "X-Service-Signature": computeSignature(source.secret, timestamp, ""),
      },
      duplex: "half",
    } as RequestInit);
    await refused(413, "payload_too_large", async () => {
      const response = await handleWebhookRequest(request, source.publicId);
      return { status: response.status, body: await response.json(), headers: response.headers };
    });
  });

  it("accepts a body of exactly 256 KiB", async () => {
    const prefix = upsert(sample({ title: "Exactly 256 KiB" })).slice(0, -1) + ',"padding":"';
    const body = prefix + "x".repeat(256 * 1024 - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(body)).toBe(256 * 1024);
    expect((await send(source, body)).status).toBe(200);
  });

  // Against a handler whose clock is pinned: with the real clock a second could tick between taking the
  // timestamp and the check, and "301 seconds ahead" would then be 300 and rightly accepted.
  it.each([
    ["a missing timestamp", () => null],
    ["a non-numeric timestamp", () => "17672256OO"],
    ["a 13-digit timestamp (milliseconds)", (nowMs: number) => String(nowMs)],
    ["a timestamp 301 seconds old", (nowMs: number) => String(Math.floor(nowMs / 1000) - 301)],
    ["a timestamp 301 seconds in the future", (nowMs: number) => String(Math.floor(nowMs / 1000) + 301)],
  ])("answers 400 invalid_timestamp for %s", async (_, timestamp) => {
    const nowMs = Date.now();
    const handler = createWebhookHandler({ pool: db.pool, now: () => nowMs });
    await refused(400, "invalid_timestamp", () => send(source, changed, { timestamp: timestamp(nowMs), handler }));
    expect(await lastDelivery(source)).toMatchObject({ status: 400, error_code: "invalid_timestamp", action: null });
  });

  it("accepts a timestamp 299 seconds old and 299 seconds ahead (inside the window)", async () => {
    expect(
      (await send(source, upsert(sample({ title: "Edge of window" })), { timestamp: String(nowSeconds() - 299) }))
        .status,
    ).toBe(200);
    expect(
      (await send(source, upsert(sample({ title: "Edge of window" })), { timestamp: String(nowSeconds() + 299) }))
        .status,
    ).toBe(200);
  });
});

describe("invalid signatures: 401 invalid_signature", () => {
  const valid = () => computeSignature(source.secret, String(nowSeconds()), changed);

  it.each([
    ["a missing signature", () => null],
    ["uppercase hex", () => "sha256=" + valid().slice(7).toUpperCase()],
    ["a wrong prefix", () => "sha512=" + valid().slice(7)],
    ["a wrong length", () => valid().slice(0, -2)],
    ["a signature of another body", () => computeSignature(source.secret, String(nowSeconds()), upsert(sample()))],
  ])("refuses %s", async (_, signature) => {
    await refused(401, "invalid_signature", () => send(source, changed, { signature: signature() }));
    const logged = await lastDelivery(source);
    expect(logged).toMatchObject({ status: 401, error_code: "invalid_signature", action: null, event_title: null });
    expect(logged?.headers).toMatchObject({ signature_valid: false });
  });

  it("refuses a body signed after re-serialising it (the signature covers the raw bytes as sent)", async () => {
    const sent =
      '{ "action": "upsert", "event": { "title": "Spring Open Day", "starts_at": ' +
      '"2026-05-01T10:00:00+02:00", "location": "Main Hall", "description": "x" } }';
    const timestamp = String(nowSeconds());
    const signature = computeSignature(source.secret, timestamp, JSON.stringify(JSON.parse(sent)));
    await refused(401, "invalid_signature", () => send(source, sent, { timestamp, signature }));
  });

  it("refuses a request signed with the secret that was rotated away, from the very next request", async () => {
    const isolated = await createSource();
    const oldSecret = isolated.secret;
    expect((await send(isolated, upsert(sample()))).status).toBe(200);
    const rotated = await rotateSecret(isolated.context, isolated.sourceId);
    if (!rotated.ok) throw new Error(rotated.message);
    const before = await snapshot(isolated);
    const answer = await send(isolated, upsert(sample({ description: "old secret" })), { secret: oldSecret });
    expectError(answer, 401, "invalid_signature");
    expect(await snapshot(isolated)).toEqual(before);
    expect(
      (await send(isolated, upsert(sample({ description: "new secret" })), { secret: rotated.secret })).status,
    ).toBe(200);
  });
});

describe("an exact replay", () => {
  it("answers 200 duplicate and does not process the request again", async () => {
    const body = upsert(sample({ title: "Replayed", description: "first" }));
    const request = () => signedRequest(source, body, { timestamp: String(nowSeconds()) });
    const first = request();
    const again = new Request(first.url, { method: "POST", headers: first.headers, body });
    expect((await handleWebhookRequest(first, source.publicId)).status).toBe(200);
    await openLogGates(source);
    const before = await snapshot(source);
    const response = await handleWebhookRequest(again, source.publicId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, duplicate: true });
    expect(await snapshot(source)).toEqual(before);
    expect(await lastDelivery(source)).toMatchObject({ status: 200, error_code: "duplicate" });
  });
});

describe("invalid bodies (signed correctly): 400, counted against the rate limit, nothing stored", () => {
  const rate = { countsTowardsRateLimit: true };

  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["a string", '"x"'],
  ])("refuses the JSON value %s with invalid_payload", async (_, body) => {
    await refused(400, "invalid_payload", () => send(source, body), rate);
  });

  it("refuses truncated JSON with invalid_json", async () => {
    await refused(400, "invalid_json", () => send(source, changed.slice(0, -3)), rate);
  });

  it("refuses invalid UTF-8 signed over its exact bytes with 400 invalid_json, not 401", async () => {
    const body = Buffer.concat([
      Buffer.from('{"action":"upsert","event":{"title":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","starts_at":"2026-05-01T10:00:00Z"}}'),
    ]);
    const answer = await refused(400, "invalid_json", () => send(source, body), rate);
    expect(answer.body.error).toMatchObject({ message: "The body is not valid UTF-8." });
  });

  it("refuses an unknown action with a detail on action", async () => {
    const answer = await refused(
      400,
      "invalid_payload",
      () => send(source, JSON.stringify({ action: "archive", event: sample() })),
      rate,
    );
    expect(answer.body.error).toMatchObject({
      details: [{ field: "action", message: "Must be one of upsert, cancel, delete." }],
    });
  });

  it("refuses a missing event", async () => {
    const answer = await refused(
      400,
      "invalid_payload",
      () => send(source, JSON.stringify({ action: "upsert" })),
      rate,
    );
    expect(answer.body.error).toMatchObject({ details: [{ field: "event", message: "This field is required." }] });
  });

  it.each([
    ["a missing title", { title: undefined }, "event.title", "This field is required."],
    ["a missing starts_at", { starts_at: undefined }, "event.starts_at", "This field is required."],
    ["a date-only starts_at", { starts_at: "2026-05-01" }, "event.starts_at", expect.stringMatching(/Include a time/)],
    ["an unparseable starts_at", { starts_at: "next Friday" }, "event.starts_at", expect.stringMatching(/ISO 8601/)],
    ["ends_at before starts_at", { ends_at: "2026-05-01T07:00:00Z" }, "event.ends_at", "Must not be before starts_at."],
    ["a title over 300 characters", { title: "t".repeat(301) }, "event.title", "Use at most 300 characters."],
    [
      "a description over 5,000 characters",
      { description: "d".repeat(5_001) },
      "event.description",
      "Use at most 5,000 characters.",
    ],
    ["a location over 500 characters", { location: "l".repeat(501) }, "event.location", "Use at most 500 characters."],
    [
      "a url over 2,048 characters",
      { url: "https://example.com/" + "u".repeat(2_029) },
      "event.url",
      "Use at most 2,048 characters.",
    ],
    ["a price over 100 characters", { price: "p".repeat(101) }, "event.price", "Use at most 100 characters."],
    ["a javascript: url", { url: "javascript:alert(1)" }, "event.url", "Must be an absolute http(s) URL."],
    [
      "recurring outside its values",
      { recurring: "hourly" },
      "event.recurring",
      expect.stringMatching(/^Must be one of daily/),
    ],
    [
      "recurring in another case",
      { recurring: "Weekly" },
      "event.recurring",
      expect.stringMatching(/^Must be one of daily/),
    ],
    ["recurring as a number", { recurring: 7 }, "event.recurring", expect.stringMatching(/^Must be one of daily/)],
    [
      "recurring as a list",
      { recurring: ["weekly"] },
      "event.recurring",
      expect.stringMatching(/^Must be one of daily/),
    ],
    ["status outside its values", { status: "postponed" }, "event.status", "Must be upcoming or cancelled."],
    // Values PostgreSQL would refuse (a 500 before): instants outside years 0001-9999, NUL, lone surrogates.
    [
      "a starts_at whose instant is in year 0",
      { starts_at: "0001-01-01T00:30:00+01:00" },
      "event.starts_at",
      expect.stringMatching(/0001 and 9999/),
    ],
    [
      "a starts_at whose instant is in year 10000",
      { starts_at: "9999-12-31T23:30:00-01:00" },
      "event.starts_at",
      expect.stringMatching(/0001 and 9999/),
    ],
    [
      "an ends_at whose instant is in year 10000",
      { ends_at: "9999-12-31T23:59:59.999-00:01" },
      "event.ends_at",
      expect.stringMatching(/0001 and 9999/),
    ],
    ["a NUL character in the title", { title: "Open\u0000Day" }, "event.title", expect.stringMatching(/NUL/)],
    [
      "a lone surrogate in the location",
      { location: "Hall \ud800" },
      "event.location",
      expect.stringMatching(/surrogate/),
    ],
    ["a NUL character in the url", { url: "https://example.com/\u0000" }, "event.url", expect.stringMatching(/NUL/)],
  ])("refuses %s with a per-field detail", async (_, overrides, field, message) => {
    const answer = await refused(
      400,
      "invalid_payload",
      () => send(source, upsert(sample({ description: "changed", ...overrides }))),
      rate,
    );
    expect(answer.body.error).toMatchObject({ details: [{ field, message }] });
    expect(await lastDelivery(source)).toMatchObject({ status: 400, error_code: "invalid_payload", action: "upsert" });
  });

  it("accepts the first and last instants PostgreSQL can store", async () => {
    for (const [starts, ends] of [
      ["0001-01-01T00:00:00Z", "0001-01-01T01:00:00+01:00"],
      ["9999-12-31T23:59:59.999Z", "9999-12-31T22:59:59.999-01:00"],
    ]) {
      const answer = await send(source, upsert(sample({ title: `Edge ${starts}`, starts_at: starts, ends_at: ends })));
      expect(answer.status).toBe(200);
    }
  });

  it("accepts fields at their exact limits", async () => {
    const atLimits = sample({
      title: "t".repeat(300),
      description: "d".repeat(5_000),
      location: "l".repeat(500),
      url: "https://example.com/" + "u".repeat(2_028),
      price: "p".repeat(100),
    });
    expect((await send(source, upsert(atLimits))).status).toBe(200);
  });
});

describe("actions on events that do not exist", () => {
  it.each([
    ["cancel", cancel],
    ["delete", remove],
  ])("answers 404 event_not_found to %s", async (action, make) => {
    await refused(404, "event_not_found", () => send(source, make(sample({ title: "Never created" }))), {
      countsTowardsRateLimit: true,
    });
    expect(await lastDelivery(source)).toMatchObject({
      status: 404,
      error_code: "event_not_found",
      action,
      event_title: "Never created",
    });
  });

  it("processes an identical retry once the event exists (a refused request leaves no replay record)", async () => {
    const timestamp = String(nowSeconds());
    const body = cancel(sample({ title: "Created later" }));
    expect((await send(source, body, { timestamp })).status).toBe(404);
    expect((await send(source, upsert(sample({ title: "Created later" })))).status).toBe(200);
    const retry = await send(source, body, { timestamp });
    expect(retry.body).toMatchObject({ ok: true, action: "cancel", event: { status: "cancelled" } });
  });
});

it("logs refused requests to an existing source", async () => {
  const before = await deliveryCount(source);
  await openLogGates(source);
  await send(source, changed, { signature: null });
  await send(source, "[]");
  expect(await deliveryCount(source)).toBe(before + 2);
});
