import "server-only";
import { z } from "zod";
import { recordAuditSql, type AuditAction } from "@/lib/audit/record";
import type { SessionContext } from "@/lib/auth/session";
import { emitMessagesCte, eventData } from "@/lib/outbound/sql";
import { db } from "@/lib/platform/db/client";
import { inTransaction, type Queryable } from "@/lib/platform/db/transaction";
import { isUuid } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import { ENQUEUE_SQL } from "./jobs";
import { FEED_LIMITS } from "./model";
import { originAndPath } from "@/lib/webhook-subscriptions/target-url";
import { checkFeedUrl, type FeedUrlCode } from "./url";

/*
 * The account's followed calendars (docs/calendar-feeds.md, "Follow a calendar"): add, pause, resume,
 * delete (keeping or removing the events the feed brought in), "Sync now". Every statement is scoped by
 * the session's account; roles are checked by the actions. Each change has its audit entry, in the
 * change's transaction.
 */

export const feedInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the feed a name.")
    .max(FEED_LIMITS.name, `Use at most ${FEED_LIMITS.name} characters.`),
  url: z.string().trim().min(1, "Paste the feed's URL."),
  intervalMinutes: z.coerce
    .number()
    .int("Use whole minutes.")
    .min(FEED_LIMITS.minInterval, `Sync at most every ${FEED_LIMITS.minInterval} minutes.`)
    .max(FEED_LIMITS.maxInterval, "Sync at least once a day (1,440 minutes).")
    .default(FEED_LIMITS.defaultInterval),
});
export type FeedInput = z.output<typeof feedInputSchema>;

type Client = Queryable;

const audit = (
  client: Client,
  context: SessionContext,
  action: AuditAction,
  feed: { id: string; name: string },
  metadata: Record<string, unknown>,
) =>
  recordAuditSql(client, {
    accountId: context.account.id,
    actorUserId: context.user.id,
    action,
    target: { type: "calendar_feed", id: feed.id, label: feed.name },
    metadata,
  });

/** Queues a sync now. Without the worker's schema (it creates it on start) the scheduler picks the feed up. */
async function enqueue(accountId: string, feedId: string): Promise<void> {
  await db.pool.query(ENQUEUE_SQL("$1::uuid[]", "$2::uuid[]"), [[feedId], [accountId]]).catch(() => {});
}

export async function addFeed(
  context: SessionContext,
  input: FeedInput,
): Promise<{ ok: true; id: string } | Failure<FeedUrlCode>> {
  const checked = await checkFeedUrl(input.url);
  if (!checked.ok) return checked;
  const id = await inTransaction(async (client) => {
    const { rows } = await client.query(
      `INSERT INTO calendar_feeds (account_id, name, url, interval_minutes) VALUES ($1::uuid, $2, $3, $4) RETURNING id`,
      [context.account.id, input.name, checked.url, input.intervalMinutes],
    );
    const feedId = String(rows[0].id);
    const metadata = { url: originAndPath(checked.url), interval_minutes: input.intervalMinutes };
    await audit(client, context, "calendar_feed.added", { id: feedId, name: input.name }, metadata);
    return feedId;
  });
  await enqueue(context.account.id, id);
  return { ok: true, id };
}

type Found = { ok: true } | Failure<"feed_not_found">;
const notFound = () => fail("feed_not_found", "This calendar feed does not exist (it may have been deleted).");

export async function setFeedPaused(context: SessionContext, feedId: string, paused: boolean): Promise<Found> {
  if (!isUuid(feedId)) return notFound();
  const changed = await inTransaction(async (client) => {
    const { rows } = await client.query(
      `UPDATE calendar_feeds SET paused = $3, updated_at = now(),
         next_sync_at = CASE WHEN $3 THEN next_sync_at ELSE now() END
       WHERE id = $1::uuid AND account_id = $2::uuid AND paused <> $3 RETURNING id, name`,
      [feedId, context.account.id, paused],
    );
    if (!rows[0]) return false;
    const feed = { id: feedId, name: String(rows[0].name) };
    await audit(client, context, paused ? "calendar_feed.paused" : "calendar_feed.resumed", feed, {});
    return true;
  });
  if (changed && !paused) await enqueue(context.account.id, feedId);
  if (changed) return { ok: true };
  const exists = await db.pool.query("SELECT 1 FROM calendar_feeds WHERE id = $1::uuid AND account_id = $2::uuid", [
    feedId,
    context.account.id,
  ]);
  return exists.rowCount ? { ok: true } : notFound();
}

/** "Sync now": due at once and queued; a paused feed is not synced. */
export async function requestSync(context: SessionContext, feedId: string): Promise<Found | Failure<"feed_paused">> {
  if (!isUuid(feedId)) return notFound();
  const { rows } = await db.pool.query<{ paused: boolean }>(
    `UPDATE calendar_feeds SET next_sync_at = CASE WHEN paused THEN next_sync_at ELSE now() END
     WHERE id = $1::uuid AND account_id = $2::uuid RETURNING paused`,
    [feedId, context.account.id],
  );
  if (!rows[0]) return notFound();
  if (rows[0].paused) return fail("feed_paused", "This feed is paused: resume it to sync.");
  await enqueue(context.account.id, feedId);
  return { ok: true };
}

/**
 * Stops following the feed. Its events are removed (each with its event.deleted notification, the
 * account row locked first as every remover of events does) or kept as ordinary events of the account.
 */
export async function deleteFeed(
  context: SessionContext,
  feedId: string,
  events: "keep" | "remove",
): Promise<{ ok: true; events: number } | Failure<"feed_not_found">> {
  if (!isUuid(feedId)) return notFound();
  const result = await inTransaction(async (client) => {
    await client.query("SELECT 1 FROM accounts WHERE id = $1::uuid FOR NO KEY UPDATE", [context.account.id]);
    const feed = await client.query(
      "SELECT id, name, url FROM calendar_feeds WHERE id = $1::uuid AND account_id = $2::uuid FOR UPDATE",
      [feedId, context.account.id],
    );
    if (!feed.rows[0]) return null;
    const touched =
      events === "remove"
        ? await client.query(
            `WITH ev AS (DELETE FROM events WHERE account_id = $1::uuid AND feed_id = $2::uuid
               RETURNING account_id, ${eventData("events")}),
             ${emitMessagesCte("notified", "SELECT ev.account_id, 'event.deleted' AS type, ev.data FROM ev")}
             SELECT count(*)::int AS n FROM ev`,
            [context.account.id, feedId],
          )
        : await client.query(
            `WITH ev AS (UPDATE events SET feed_id = NULL, feed_key = NULL
               WHERE account_id = $1::uuid AND feed_id = $2::uuid RETURNING 1)
             SELECT count(*)::int AS n FROM ev`,
            [context.account.id, feedId],
          );
    const count = Number(touched.rows[0]?.n ?? 0);
    await client.query("DELETE FROM calendar_feeds WHERE id = $1::uuid AND account_id = $2::uuid", [
      feedId,
      context.account.id,
    ]);
    const name = String(feed.rows[0].name);
    const metadata = {
      url: originAndPath(String(feed.rows[0].url)),
      events: events === "remove" ? "removed" : "kept",
      count,
    };
    await audit(client, context, "calendar_feed.deleted", { id: feedId, name }, metadata);
    return count;
  });
  return result === null ? notFound() : { ok: true, events: result };
}
