import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";
import { emptyPage, encodeCursor, keysetPage, type Page } from "@/lib/platform/pagination/keyset";
import type { ListOrder } from "@/lib/api/list";
import { NOTIFICATION_RETENTION_DAYS, type Subscription } from "./model";
import { MESSAGE_CURSOR, SUBSCRIPTION_CURSOR, type Keyset } from "./schemas";
import { subscriptionSelect } from "./store";

/*
 * The account's subscriptions and its recent notifications, newest first by default, paged by keyset on
 * (created_at, id) along the (account_id, [type,] created_at, id) indexes: no OFFSET, so a deep page
 * costs what the first one costs.
 */

export type ListOptions = { limit: number; order: ListOrder; cursor: Keyset | null };

/** Rows strictly after the cursor in the list's order. */
function after(cursor: Keyset | null, order: ListOrder) {
  if (!cursor) return {};
  const createdAt = new Date(cursor.createdAt);
  const beyond = order === "desc" ? "lt" : "gt";
  return { OR: [{ createdAt: { [beyond]: createdAt } }, { createdAt, id: { [beyond]: cursor.id } }] };
}

function page<T extends { createdAt: Date; id: string }>(rows: T[], limit: number, tag: string): Page<T> {
  return keysetPage(rows, limit, (last) => encodeCursor(tag, [last.createdAt, last.id]));
}

export async function listSubscriptions(accountId: string, options: ListOptions): Promise<Page<Subscription>> {
  if (!isUuid(accountId)) return emptyPage();
  const rows = await db.prisma.webhookSubscription.findMany({
    where: { accountId, ...after(options.cursor, options.order) },
    orderBy: [{ createdAt: options.order }, { id: options.order }],
    take: options.limit + 1,
    select: subscriptionSelect,
  });
  return page(rows, options.limit, SUBSCRIPTION_CURSOR.tag);
}

export type OutboundMessageView = { id: string; type: string; payload: unknown; createdAt: Date };

/** The account's notifications (optionally of one type); `payload` is the body receivers get. */
export async function listOutboundMessages(
  accountId: string,
  options: ListOptions & { type: string | null },
): Promise<Page<OutboundMessageView>> {
  if (!isUuid(accountId)) return emptyPage();
  // Plain bounds on the partition column (the keyset's OR does not prune): the days kept, and the cursor's time.
  const createdAt = {
    gte: new Date(Date.now() - NOTIFICATION_RETENTION_DAYS * 86_400_000),
    ...(options.cursor ? { [options.order === "desc" ? "lte" : "gte"]: new Date(options.cursor.createdAt) } : {}),
  };
  const rows = await db.prisma.outboundMessage.findMany({
    where: {
      accountId,
      createdAt,
      ...(options.type ? { type: options.type } : {}),
      ...after(options.cursor, options.order),
    },
    orderBy: [{ createdAt: options.order }, { id: options.order }],
    take: options.limit + 1,
    select: { id: true, type: true, payload: true, createdAt: true },
  });
  return page(rows, options.limit, MESSAGE_CURSOR.tag);
}
