import "server-only";
import { db } from "@/lib/db/client";

/*
 * The audit log, newest first, paged by a keyset cursor on (created_at, id): every page is one index
 * range scan on audit_log (account_id, created_at DESC, id DESC), however long the log grows.
 *
 * Retention: entries are kept for at least one year. Nothing deletes them today; a future clean-up job
 * must never remove entries younger than 365 days.
 */

export const AUDIT_RETENTION_DAYS = 365;
export const AUDIT_PAGE_SIZE = 25;

export type AuditLogEntry = {
  id: string;
  createdAt: Date;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string;
  targetLabel: string;
  metadata: Record<string, unknown>;
};

/** Links to the neighbouring pages; null when there is nothing in that direction. */
export type AuditLogPage = { entries: AuditLogEntry[]; newer: string | null; older: string | null };

type Cursor = { createdAt: Date; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(entry: Cursor): string {
  return Buffer.from(`${entry.createdAt.toISOString()}|${entry.id}`).toString("base64url");
}

/** Null for anything that is not a cursor we issued; the caller then shows the first page. */
export function decodeCursor(text: string | undefined | null): Cursor | null {
  if (!text || text.length > 200) return null;
  const [iso, id] = Buffer.from(text, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) return null;
  return { createdAt, id };
}

type Row = {
  id: string;
  created_at: Date;
  actor_label: string;
  action: string;
  target_type: string;
  target_id: string;
  target_label: string;
  metadata: Record<string, unknown>;
};

const COLUMNS = "id, created_at, actor_label, action, target_type, target_id, target_label, metadata";

/**
 * One page of the account's audit log. `older` continues below a cursor, `newer` goes back up above one;
 * with neither, the newest page.
 */
export async function listAuditLog(
  accountId: string,
  page: { older?: string | null; newer?: string | null } = {},
  limit = AUDIT_PAGE_SIZE,
): Promise<AuditLogPage> {
  const olderThan = decodeCursor(page.older);
  const newerThan = olderThan ? null : decodeCursor(page.newer);

  let rows: Row[];
  if (newerThan) {
    // Walk upwards from the cursor, then put the page back in newest-first order.
    const result = await db.pool.query<Row>(
      `SELECT ${COLUMNS} FROM audit_log WHERE account_id = $1 AND (created_at, id) > ($2, $3)
       ORDER BY created_at ASC, id ASC LIMIT $4`,
      [accountId, newerThan.createdAt, newerThan.id, limit + 1],
    );
    rows = result.rows;
    const hasNewer = rows.length > limit;
    rows = rows.slice(0, limit).reverse();
    if (!hasNewer) {
      // Back at the top: show the newest page exactly as the first visit would.
      return listAuditLog(accountId, {}, limit);
    }
    return { entries: rows.map(toEntry), newer: encodeCursor(toCursor(rows[0])), older: rows.length ? encodeCursor(toCursor(rows[rows.length - 1])) : null };
  }

  const result = olderThan
    ? await db.pool.query<Row>(
        `SELECT ${COLUMNS} FROM audit_log WHERE account_id = $1 AND (created_at, id) < ($2, $3)
         ORDER BY created_at DESC, id DESC LIMIT $4`,
        [accountId, olderThan.createdAt, olderThan.id, limit + 1],
      )
    : await db.pool.query<Row>(`SELECT ${COLUMNS} FROM audit_log WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [
        accountId,
        limit + 1,
      ]);
  const hasOlder = result.rows.length > limit;
  rows = result.rows.slice(0, limit);
  return {
    entries: rows.map(toEntry),
    newer: olderThan && rows.length ? encodeCursor(toCursor(rows[0])) : null,
    older: hasOlder ? encodeCursor(toCursor(rows[rows.length - 1])) : null,
  };
}

function toCursor(row: Row): Cursor {
  return { createdAt: row.created_at, id: row.id };
}

function toEntry(row: Row): AuditLogEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    actorLabel: row.actor_label,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    metadata: row.metadata ?? {},
  };
}
