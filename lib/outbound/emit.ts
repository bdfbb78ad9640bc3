import "server-only";
import type pg from "pg";
import { emitMessagesCte } from "./sql";

/*
 * Writing outbound notifications from TypeScript writers (leads, tests, test pings). The caller passes
 * the client of ITS transaction: the message commits with the change or not at all. SQL writers (the
 * webhook's single statement, events, CSV import) use emitMessagesCte directly.
 */

export type Notification = { type: string; data: Record<string, unknown> };

type Queryable = Pick<pg.PoolClient, "query">;

const INSERT_SQL = `WITH ${emitMessagesCte(
  "notified",
  "SELECT $1::uuid AS account_id, u.type, u.data FROM unnest($2::text[], " +
    "$3::jsonb[]) WITH ORDINALITY AS u(type, data, n) ORDER BY u.n",
)} SELECT id FROM notified`;

/** Writes the notifications in the caller's transaction; returns their message ids. */
export async function emitNotifications(
  client: Queryable,
  accountId: string,
  notifications: Notification[],
): Promise<string[]> {
  if (notifications.length === 0) return [];
  const { rows } = await client.query<{ id: string }>(INSERT_SQL, [
    accountId,
    notifications.map((notification) => notification.type),
    notifications.map((notification) => JSON.stringify(notification.data)),
  ]);
  return rows.map((row) => row.id);
}
