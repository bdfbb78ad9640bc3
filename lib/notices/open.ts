import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { inTransaction } from "@/lib/platform/db/transaction";
import { isUuid } from "@/lib/platform/ids";
import type { Notice, NoticeKind } from "./model";

/*
 * The banner's notices. A webhook source's failure is noticed when a dashboard page is loaded: the
 * statement that reads the open notices also finds the account's active sources that answered only
 * errors for an hour (the Overview's rule over the hourly counters, lib/overview/queries.ts) and have
 * had no notice since their last accepted request (looked for over the last 7 days). Those get a notice
 * and an audit entry in one transaction; a page load that finds none writes nothing.
 */

const ACCEPTED = "('ok', 'duplicate')";
const OPEN_SQL = `WITH failing AS (
    SELECT s.id::text AS id, s.public_id, s.name FROM webhook_sources s
    CROSS JOIN LATERAL (
      SELECT COALESCE(sum(h.deliveries) FILTER (WHERE h.hour = $2::timestamptz AND h.outcome NOT IN ${ACCEPTED}), 0)
        AS previous_refused,
        COALESCE(sum(h.deliveries) FILTER (WHERE h.hour >= $2::timestamptz AND h.outcome IN ${ACCEPTED}), 0)
          AS accepted,
        max(h.hour) FILTER (WHERE h.outcome IN ${ACCEPTED}) AS last_accepted
      FROM webhook_delivery_hours h
      WHERE h.account_id = s.account_id AND h.hour >= $3::timestamptz AND h.source_id = s.id) c
    WHERE s.account_id = $1::uuid AND s.active AND c.previous_refused > 0 AND c.accepted = 0
      AND NOT EXISTS (
        SELECT 1 FROM account_notices n
        WHERE n.account_id = $1::uuid AND n.kind = 'source_failing' AND n.target_id = s.public_id
          AND n.created_at >= COALESCE(c.last_accepted, $3::timestamptz)))
  SELECT 'open' AS state, n.id::text, n.kind, n.target_id, n.target_label, n.message, n.created_at, NULL AS source_id
  FROM account_notices n WHERE n.account_id = $1::uuid AND n.opened_at IS NULL
  UNION ALL
  SELECT 'new', NULL, 'source_failing', f.public_id, f.name, NULL, NULL, f.id FROM failing f`;

type Row = {
  state: "open" | "new";
  id: string | null;
  kind: NoticeKind;
  target_id: string;
  target_label: string;
  message: string | null;
  created_at: Date | null;
  /** A failing source's id (the notice names it by its public id, as the webhook page's links do). */
  source_id: string | null;
};

export const SOURCE_FAILING_MESSAGE =
  "Every request for over an hour was refused: compare the sender's signing secret and payloads with the " +
  "refused deliveries.";

const HOUR_MS = 3_600_000;

/** The account's open notices, newest first, after noticing the sources that started failing. */
export async function openNotices(accountId: string, now = new Date()): Promise<Notice[]> {
  if (!isUuid(accountId)) return [];
  const previousHour = new Date((Math.floor(now.getTime() / HOUR_MS) - 1) * HOUR_MS);
  const week = new Date(previousHour.getTime() - 7 * 24 * HOUR_MS);
  const read = () =>
    db.pool.query<Row>(OPEN_SQL, [accountId, previousHour.toISOString(), week.toISOString()]).then((r) => r.rows);
  let rows = await read();
  const failing = rows.filter((row) => row.state === "new");
  if (failing.length > 0) {
    await noticeFailingSources(accountId, failing);
    rows = await read();
  }
  return rows
    .filter((row) => row.state === "open")
    .map((row) => ({
      id: row.id!,
      kind: row.kind,
      targetId: row.target_id,
      targetLabel: row.target_label,
      message: row.message!,
      createdAt: row.created_at!,
    }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

async function noticeFailingSources(accountId: string, sources: Row[]): Promise<void> {
  await inTransaction(async (client) => {
    for (const source of sources) {
      // A concurrent page load may have noticed it first: then this one adds nothing.
      const inserted = await client.query(
        `INSERT INTO account_notices (account_id, kind, target_id, target_label, message)
         VALUES ($1::uuid, 'source_failing', $2, $3, $4)
         ON CONFLICT (account_id, kind, target_id) WHERE opened_at IS NULL DO NOTHING`,
        [accountId, source.target_id, source.target_label, SOURCE_FAILING_MESSAGE],
      );
      if (inserted.rowCount === 0) continue;
      await recordAuditSql(client, {
        accountId,
        actorUserId: null,
        action: "webhook_source.failing",
        target: { type: "webhook_source", id: source.source_id!, label: source.target_label },
        metadata: { rule: "only errors for an hour" },
      });
    }
  });
}

/** Closes the notices of a problem: its page has been opened. */
export async function markNoticesOpened(accountId: string, kind: NoticeKind, targetId: string): Promise<void> {
  if (!isUuid(accountId)) return;
  await db.pool.query(
    `UPDATE account_notices SET opened_at = now()
     WHERE account_id = $1::uuid AND kind = $2 AND target_id = $3 AND opened_at IS NULL`,
    [accountId, kind, targetId],
  );
}
