import "server-only";
import { db } from "@/lib/platform/db/client";
import { param, raw, sql } from "@/lib/platform/db/sql";
import { encodeCursor, keysetQuery, takePage, tryDecodeCursor, type KeyPart } from "@/lib/platform/pagination/keyset";

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

const CURSOR_TAG = "audit";
/** The keyset: its columns in the statement and the cursor's parts. */
const KEY: { columns: string[]; parts: KeyPart[] } = { columns: ["created_at", "id"], parts: ["timestamptz", "uuid"] };

/** Null for anything that is not a cursor we issued; the caller then shows the first page. */
export function decodeCursor(text: string | undefined | null): string[] | null {
  return tryDecodeCursor(text, CURSOR_TAG, KEY.parts);
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
  const cursor = olderThan ?? newerThan;
  // Walking upwards from a "newer" cursor reads in ascending order; the page is flipped back below.
  const direction = newerThan ? "ascending" : "descending";

  const query = keysetQuery({
    select: sql`SELECT ${raw(COLUMNS)} FROM audit_log`,
    where: [sql`account_id = ${param(accountId, "uuid")}`],
    ...KEY,
    cursor,
    direction,
    limit,
  });
  const result = await db.replica.query<Row>(query.text, query.values);
  const { rows, more } = takePage(result.rows, limit);

  if (newerThan) {
    // Back at the top: show the newest page exactly as the first visit would.
    if (!more) return listAuditLog(accountId, {}, limit);
    rows.reverse();
    return {
      entries: rows.map(toEntry),
      newer: cursorOf(rows[0]),
      older: rows.length ? cursorOf(rows[rows.length - 1]) : null,
    };
  }
  return {
    entries: rows.map(toEntry),
    newer: olderThan && rows.length ? cursorOf(rows[0]) : null,
    older: more ? cursorOf(rows[rows.length - 1]) : null,
  };
}

const cursorOf = (row: Row) => encodeCursor(CURSOR_TAG, [row.created_at, row.id]);

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
