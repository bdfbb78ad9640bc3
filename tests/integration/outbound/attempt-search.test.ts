import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { listDeliveryAttempts, type ListAttemptsOptions } from "@/lib/outbound/manage";
import { newPublicId } from "@/lib/platform/ids";
import { expectHandEditedInputReadSafely } from "../../support/log-search";
import { everyPage } from "../../support/pages";
import { zonedDays } from "../../support/zoned-days";
import { subscribedAccount, type Subscribed } from "./support";

/* A subscription's Delivery attempts: the search box and date range (the URL's q, from and to). */

const ZONE = "Asia/Tokyo";
const { dayInZone, at } = zonedDays(ZONE);

type Seed = { attemptedAt: Date; type: string; statusCode: number | null; label: string };

/*
 * Messages, deliveries and attempts written straight to the tables (the subscription only takes
 * lead.created, so the fan-out trigger leaves these event.* messages alone). Returns each label's message id.
 */
async function seed(subscribed: Subscribed, rows: Seed[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const row of rows) {
    const messageId = newPublicId("notification");
    ids.set(row.label, messageId);
    await db.pool.query(
      `WITH message AS (INSERT INTO outbound_messages (id, account_id, type, payload, created_at)
         VALUES ($1, $2, $3, jsonb_build_object('label', $6::text), $5) RETURNING id, account_id, created_at),
       delivery AS (INSERT INTO outbound_deliveries (account_id, message_id, subscription_id, created_at, status)
         SELECT account_id, id, $4, created_at, 'failed' FROM message RETURNING id, account_id, created_at)
       INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt,
         attempted_at, status_code, duration_ms, outcome)
       SELECT account_id, id, created_at, $4, 1, $5, $7, 12, 'failed' FROM delivery`,
      [
        messageId,
        subscribed.accountId,
        row.type,
        subscribed.subscriptionId,
        row.attemptedAt,
        row.label,
        row.statusCode,
      ],
    );
  }
  return ids;
}

const labels = async (subscribed: Subscribed, options: ListAttemptsOptions) =>
  (
    await listDeliveryAttempts(subscribed.accountId, subscribed.subscriptionId, {
      timeZone: ZONE,
      limit: 100,
      ...options,
    })
  ).data.map((attempt) => JSON.parse(attempt.payload).label as string);

const day = dayInZone(4);
const nextDay = dayInZone(3);
const SAMPLE: Seed[] = [
  { attemptedAt: at(dayInZone(5), "23:59:59"), type: "event.updated", statusCode: 500, label: "before" },
  { attemptedAt: at(day, "00:00"), type: "event.updated", statusCode: 200, label: "first" },
  { attemptedAt: at(day, "08:00"), type: "event.created", statusCode: 404, label: "created" },
  { attemptedAt: at(nextDay, "13:00"), type: "event.cancelled", statusCode: null, label: "no answer" },
  { attemptedAt: at(nextDay, "23:59:59"), type: "event.updated", statusCode: 500, label: "last" },
  { attemptedAt: at(dayInZone(2), "00:00"), type: "event.deleted", statusCode: 410, label: "after" },
];

const subscribe = () => subscribedAccount("http://127.0.0.1:9/hook", ["lead.created"]);

describe("searching Delivery attempts", () => {
  it("finds an event type, a message id or a status code", async () => {
    const subscribed = await subscribe();
    const ids = await seed(subscribed, SAMPLE);
    expect(await labels(subscribed, { search: "event.updated" })).toEqual(["last", "first", "before"]);
    expect(await labels(subscribed, { search: "CANCEL" })).toEqual(["no answer"]);
    expect(await labels(subscribed, { search: ids.get("created") })).toEqual(["created"]);
    expect(await labels(subscribed, { search: "500" })).toEqual(["last", "before"]);
    expect(await labels(subscribed, { search: "410" })).toEqual(["after"]);
    expect(await labels(subscribed, { search: "lead." })).toEqual([]);
  });

  it("shows whole days from From to To in the account's time zone, combined with a search", async () => {
    const subscribed = await subscribe();
    await seed(subscribed, SAMPLE);
    expect(await labels(subscribed, { from: day, to: nextDay })).toEqual(["last", "no answer", "created", "first"]);
    expect(await labels(subscribed, { from: nextDay })).toEqual(["after", "last", "no answer"]);
    expect(await labels(subscribed, { to: day })).toEqual(["created", "first", "before"]);
    expect(await labels(subscribed, { from: day, to: nextDay, search: "500" })).toEqual(["last"]);
    // Tokyo is nine hours ahead: the same day in UTC runs until 09:00 the next morning in Tokyo.
    expect(await labels(subscribed, { from: nextDay, to: nextDay })).toEqual(["last", "no answer"]);
    expect(await labels(subscribed, { from: nextDay, to: nextDay, timeZone: "UTC" })).toEqual([
      "after",
      "last",
      "no answer",
    ]);
  });

  it("keeps the search and range across pages, with no skips or repeats", async () => {
    const subscribed = await subscribe();
    const attempts = Array.from({ length: 17 }, (_, n) => ({
      attemptedAt: at(day, `09:${String(n).padStart(2, "0")}`),
      type: n % 2 ? "event.updated" : "event.created",
      statusCode: 502,
      label: `attempt ${n}`,
    }));
    await seed(subscribed, attempts);
    const filter = { search: "updated", from: day, to: day, timeZone: ZONE, limit: 3 };
    const pages = await everyPage(
      (cursor) => listDeliveryAttempts(subscribed.accountId, subscribed.subscriptionId, { ...filter, cursor }),
      (page) => page.nextCursor,
    );
    const seen = pages.flatMap((page) => page.data.map((attempt) => JSON.parse(attempt.payload).label as string));
    expect(seen).toEqual([15, 13, 11, 9, 7, 5, 3, 1].map((n) => `attempt ${n}`));
  });

  it("never shows another account's attempts, whatever the search", async () => {
    const owner = await subscribe();
    const other = await subscribe();
    await seed(owner, SAMPLE);
    await seed(other, [{ attemptedAt: at(day, "10:00"), type: "event.updated", statusCode: 500, label: "theirs" }]);
    expect(await labels(other, { search: "event" })).toEqual(["theirs"]);
    expect(await labels(owner, { search: "event" })).not.toContain("theirs");
    const crossed = await listDeliveryAttempts(other.accountId, owner.subscriptionId, { search: "event", from: day });
    expect(crossed.data).toEqual([]);
  });

  it("reads hand-edited input safely: a 10,000-character search, dates that are not dates, To before From", async () => {
    const subscribed = await subscribe();
    await seed(subscribed, SAMPLE);
    await expectHandEditedInputReadSafely((filter) => labels(subscribed, filter), { day, nextDay }, SAMPLE.length);
  });
});
