import "server-only";
import { db } from "@/lib/platform/db/client";
import { param, raw, sql } from "@/lib/platform/db/sql";
import { isPublicId, isUuid } from "@/lib/platform/ids";
import { logSearch, logWindow, type LogFilterInput } from "@/lib/platform/log-filter";
import { logSearchCondition } from "@/lib/platform/log-search";
import { encodeCursor, keysetQuery, takePage, tryDecodeCursor, type KeyPart } from "@/lib/platform/pagination/keyset";
import { LOGGED_BODY_BYTES, type LoggedHeaders } from "./delivery-record";

/*
 * Recent Deliveries (Events → Webhook): newest first, paged by a (received_at, id) keyset cursor on the
 * index (source_id, received_at DESC, id DESC), so a page costs the same at millions of rows and rows
 * arriving meanwhile never shift a page (no skips, no repeats). Only the last 30 days are shown, even
 * before the retention sweep has dropped older days. A date range (whole days in the account's zone)
 * narrows that walk; a search filters the rows within it (see `searchCondition`).
 * The log is partitioned by UTC day of received_at: every bound on received_at here is a plain comparison
 * (the 30 days, the date range, and the cursor's time beside its row comparison, which the planner cannot
 * prune on), so a page reads only the days it can reach (tests/integration/events-webhook/partitions.test.ts).
 */

export const DELIVERY_RETENTION_DAYS = 30;

export type DeliverySummary = {
  id: string;
  receivedAt: Date;
  action: string | null;
  status: number;
  eventTitle: string | null;
  /** The occurrence of a recurring series a cancel or delete acted on (docs/recurring-events.md). */
  occurrenceAt: Date | null;
  /** The error code returned, or "duplicate" for an already accepted request answered with 200. */
  errorCode: string | null;
  latencyMs: number;
};

export type DeliveryDetail = DeliverySummary & {
  sourceId: string;
  body: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  headers: LoggedHeaders;
};

export type DeliveryPage = { items: DeliverySummary[]; olderCursor: string | null; newerCursor: string | null };

/** `search`: a title or error code contains it, or the HTTP status is it; `from`/`to`: lib/platform/log-filter.ts. */
export type ListDeliveriesOptions = LogFilterInput & {
  cursor?: string | null;
  direction?: "older" | "newer";
  action?: "upsert" | "cancel" | "delete";
  statusClass?: "2xx" | "4xx" | "5xx";
  limit?: number;
};

type Row = {
  id: string;
  received_at: Date;
  action: string | null;
  status: number;
  event_title: string | null;
  occurrence_at: Date | null;
  error_code: string | null;
  latency_ms: number;
};

const SUMMARY_COLUMNS =
  "d.id, d.received_at, d.action, d.status, d.event_title, d.occurrence_at, d.error_code, d.latency_ms";
const toSummary = (row: Row): DeliverySummary => ({
  id: row.id,
  receivedAt: row.received_at,
  action: row.action,
  status: row.status,
  eventTitle: row.event_title,
  occurrenceAt: row.occurrence_at,
  errorCode: row.error_code,
  latencyMs: row.latency_ms,
});

const CURSOR_TAG = "deliveries";
/** The keyset: its columns in the statement and the cursor's parts. */
const KEY: { columns: string[]; parts: KeyPart[] } = {
  columns: ["d.received_at", "d.id"],
  parts: ["timestamptz", "uuid"],
};
/** The cursor that continues after this entry (exported for the benchmark's deep-page scenario). */
export const deliveryCursor = (row: { received_at: Date; id: string }) =>
  encodeCursor(CURSOR_TAG, [row.received_at, row.id]);
const cursorOf = deliveryCursor;

const STATUS_RANGES = { "2xx": [200, 299], "4xx": [400, 499], "5xx": [500, 599] } as const;

/*
 * No index serves a substring: the search filters the source's rows inside the window the index walk
 * covers (30 days at most, less with a date range), stopping once a page is full. A trigram index would
 * cost every accepted request on the webhook's write path, for a search people run now and then.
 */
const searchCondition = (search: string) =>
  logSearchCondition(search, { text: [sql`d.event_title`, sql`d.error_code`], status: sql`d.status` });

export async function listDeliveries(
  accountId: string,
  sourceId: string,
  options: ListDeliveriesOptions = {},
): Promise<DeliveryPage> {
  const empty: DeliveryPage = { items: [], olderCursor: null, newerCursor: null };
  const page = deliveriesQuery(accountId, sourceId, options);
  if (!page) return empty;
  const { query, limit, cursor, newer } = page;
  const result = await db.replica.query<Row>(query.text, query.values);
  const { rows, more } = takePage(result.rows, limit);
  if (newer) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    items: rows.map(toSummary),
    olderCursor: last && (newer || more) ? cursorOf(last) : null,
    newerCursor: first && (cursor ? !newer || more : false) ? cursorOf(first) : null,
  };
}

/** The statement of one page of Recent Deliveries (exported for the test that reads its plan); null for bad ids. */
export function deliveriesQuery(accountId: string, sourceId: string, options: ListDeliveriesOptions = {}) {
  if (!isUuid(accountId) || !(isUuid(sourceId) || isPublicId(sourceId, "source"))) return null;
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 25), 1), 100);
  const cursor = tryDecodeCursor(options.cursor, CURSOR_TAG, KEY.parts);
  const newer = Boolean(cursor) && options.direction === "newer";

  const account = param(accountId, "uuid");
  const source = isUuid(sourceId) ? sql`id = ${param(sourceId, "uuid")}` : sql`public_id = ${param(sourceId, "text")}`;
  const where = [
    sql`d.account_id = ${account}`,
    sql`d.source_id = (SELECT id FROM webhook_sources WHERE account_id = ${account} AND ${source})`,
    sql`d.received_at > now() - interval '${raw(String(DELIVERY_RETENTION_DAYS))} days'`,
  ];
  if (options.action) where.push(sql`d.action = ${param(options.action, "text")}`);
  if (options.statusClass) {
    const [low, high] = STATUS_RANGES[options.statusClass];
    where.push(sql`d.status BETWEEN ${raw(String(low))} AND ${raw(String(high))}`);
  }
  const window = logWindow(options);
  if (window.since) where.push(sql`d.received_at >= ${param(window.since.toISOString(), "timestamptz")}`);
  if (window.until) where.push(sql`d.received_at < ${param(window.until.toISOString(), "timestamptz")}`);
  const search = logSearch(options.search);
  if (search) where.push(searchCondition(search));
  if (cursor) {
    const time = param(cursor[0], "timestamptz");
    where.push(newer ? sql`d.received_at >= ${time}` : sql`d.received_at <= ${time}`);
  }
  const direction = newer ? "ascending" : "descending";
  const query = keysetQuery({
    select: sql`SELECT ${raw(SUMMARY_COLUMNS)} FROM webhook_deliveries d`,
    where,
    ...KEY,
    cursor,
    direction,
    limit,
  });
  return { query, limit, cursor, newer };
}

export async function getDelivery(accountId: string, deliveryId: string): Promise<DeliveryDetail | null> {
  if (!isUuid(accountId) || !isUuid(deliveryId)) return null;
  const result = await db.pool.query<
    Row & { source_id: string; body: string; body_bytes: number; headers: LoggedHeaders }
  >(
    `SELECT ${SUMMARY_COLUMNS}, d.source_id, d.body, d.body_bytes, d.headers FROM webhook_deliveries d
     WHERE d.id = $1::uuid AND d.account_id = $2::uuid AND d.received_at > now() - interval
       '${DELIVERY_RETENTION_DAYS} days'`,
    [deliveryId, accountId],
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    ...toSummary(row),
    sourceId: row.source_id,
    body: row.body,
    bodyBytes: row.body_bytes,
    bodyTruncated: row.body_bytes > LOGGED_BODY_BYTES,
    headers: row.headers,
  };
}
