import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { handleWebhookRequest } from "@/lib/events-webhook/handler";
import { computeSignature } from "@/lib/events-webhook/signature";
import { createSource, nowSeconds, type TestSource } from "./support";

/*
 * Random headers and bodies thrown at the handler: it never answers 500, and no event appears unless the
 * request carried a valid signature.
 */

let source: TestSource;
beforeAll(async () => {
  source = await createSource({ plan: "pro", rateLimit: 100_000 });
});

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

// Instants at and just beyond what PostgreSQL's timestamptz can store (years 0001-9999 in UTC), and
// text PostgreSQL refuses (NUL) or would silently alter (lone surrogates).
const edgeInstants = fc.constantFrom(
  "0001-01-01T00:30:00+01:00",
  "9999-12-31T23:30:00-01:00",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "0000-12-31T23:59:59Z",
  "0001-01-01T00:00:00+00:01",
  "9999-12-31T23:59:59.999-00:01",
);
const storableEdges = fc.constantFrom("\u0000", "a\u0000b", "\ud800", "\udfff x", "\ud83d\ude00", "\u0000\ud800");

const eventLike = fc.record(
  {
    title: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      storableEdges,
      fc.integer(),
      fc.constant(null),
    ),
    starts_at: fc.oneof(
      edgeInstants,
      fc
        .date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom("2026-05-01", "2026-05-01T10:00:00+02:00", "2026-02-30T10:00:00Z", "not a date", ""),
      fc.string({ maxLength: 30 }),
    ),
    ends_at: fc.oneof(
      fc.constant(null),
      edgeInstants,
      fc.string({ maxLength: 30 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ),
    location: fc.oneof(fc.string({ maxLength: 30 }), storableEdges),
    url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 }), fc.constant("javascript:alert(1)")),
    recurring: fc.oneof(fc.constantFrom("daily", "weekly", "monthly", "yearly", "", null, "hourly"), fc.string()),
    status: fc.oneof(fc.constantFrom("upcoming", "cancelled", null, "done"), fc.integer()),
    description: fc.oneof(fc.string({ maxLength: 100 }), storableEdges),
    price: fc.oneof(fc.string({ maxLength: 20 }), storableEdges),
  },
  { requiredKeys: [] },
);

// Well-formed upserts too, so that the accepting path is exercised as well as the refusals.
const wellFormed = fc
  .record({
    title: fc.string({ minLength: 1, maxLength: 40 }).filter((title) => title.trim().length > 0),
    starts_at: fc.oneof(
      {
        arbitrary: fc
          .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString()),
        weight: 4,
      },
      edgeInstants,
    ),
    location: fc.oneof({ arbitrary: fc.string({ maxLength: 20 }), weight: 4 }, storableEdges),
  })
  .map((event) => JSON.stringify({ action: "upsert", event }));

const body = fc.oneof(
  { arbitrary: wellFormed, weight: 3 },
  fc
    .record({ action: fc.constantFrom("upsert", "cancel", "delete", "archive", 7), event: eventLike })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }),
);

const request = fc.record({
  body,
  timestamp: fc.oneof(
    { arbitrary: fc.constant("now"), weight: 3 },
    fc.integer({ min: -400, max: 400 }).map((offset) => String(nowSeconds() + offset)),
    printable(20),
    fc.constant(undefined),
  ),
  signature: fc.constantFrom("valid", "valid-upper", "random", "garbage", "missing"),
  garbageSignature: printable(80),
  contentType: fc.option(printable(40)),
  extraHeader: fc.option(printable(60)),
});

it("never answers 500 and never stores an event without a valid signature", { timeout: 120_000 }, async () => {
  let accepted = 0;
  const countEvents = async () =>
    (await db.pool.query("SELECT count(*)::int AS n FROM events WHERE account_id = $1", [source.accountId])).rows[0].n;
  await fc.assert(
    fc.asyncProperty(request, async (input) => {
      const timestamp = input.timestamp === "now" ? String(nowSeconds()) : input.timestamp;
      const valid = computeSignature(source.secret, timestamp ?? "", input.body);
      const signature = {
        valid,
        "valid-upper": "sha256=" + valid.slice(7).toUpperCase(),
        random: "sha256=" + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"),
        garbage: input.garbageSignature,
        missing: undefined,
      }[input.signature];
      const headers = new Headers();
      if (timestamp !== undefined) headers.set("X-Service-Timestamp", timestamp);
      if (signature !== undefined) headers.set("X-Service-Signature", signature);
      if (input.contentType !== null) headers.set("Content-Type", input.contentType);
      if (input.extraHeader !== null) headers.set("X-Anything", input.extraHeader);

      const before = await countEvents();
      const response = await handleWebhookRequest(
        new Request(`http://localhost/api/v1/events/webhook/${source.publicId}`, {
          method: "POST",
          headers,
          body: typeof input.body === "string" ? input.body : new Uint8Array(input.body),
        }),
        source.publicId,
      );
      expect(response.status).not.toBe(500);
      expect(response.status).not.toBe(503);
      const answer = await response.json();
      expect(typeof answer.ok).toBe("boolean");
      if (input.signature !== "valid") {
        expect([400, 401]).toContain(response.status);
        expect(await countEvents()).toBe(before);
      }
      if (response.status === 200) {
        expect(answer.ok).toBe(true);
        accepted++;
      } else
        expect(answer).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
    }),
    { numRuns: 300 },
  );
  expect(accepted).toBeGreaterThan(0);
});
