import { db } from "@/lib/platform/db/client";

/** The account's events as stored, soonest first: what an import or an edit really wrote. */
export const eventsOf = (accountId: string) =>
  db.prisma.event.findMany({ where: { accountId }, orderBy: { startsAt: "asc" } });

/** `count` one-off events written straight to the table, an hour apart: an account near its plan's cap. */
export async function fillEvents(accountId: string, count: number) {
  await db.pool.query(
    `INSERT INTO events (account_id, title, starts_at) SELECT $1, 'Filler ' || n, '2026-01-01T00:00:00Z'::timestamptz
      + n * interval '1 hour'
     FROM generate_series(1, $2) AS n`,
    [accountId, count],
  );
}
