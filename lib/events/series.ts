import "server-only";
import { db } from "@/lib/platform/db/client";
import { nextOccurrence, type Occurrence } from "./occurrences";
import type { Recurrence } from "./schema";

/*
 * What the dashboard and the API show of a recurring series: its removed occurrences (exceptions) and
 * its next occurrence, from lib/events/occurrences.ts (docs/recurring-events.md).
 */

const DAY_MS = 86_400_000;

/** The exceptions (start instants, epoch ms) of the given series from `since` on, per series id. */
export async function exceptionsOf(
  accountId: string,
  eventIds: string[],
  since: Date,
): Promise<Map<string, Set<number>>> {
  const found = new Map<string, Set<number>>();
  if (eventIds.length === 0) return found;
  const { rows } = await db.pool.query<{ event_id: string; at: number }>(
    `SELECT event_id, (extract(epoch FROM occurs_at) * 1000)::float8 AS at FROM event_exceptions
     WHERE account_id = $1::uuid AND event_id = ANY($2::uuid[]) AND occurs_at >= $3::timestamptz`,
    [accountId, eventIds, new Date(since.getTime() - DAY_MS).toISOString()],
  );
  for (const row of rows) {
    if (!found.has(row.event_id)) found.set(row.event_id, new Set());
    found.get(row.event_id)!.add(row.at);
  }
  return found;
}

type SeriesFields = { id: string; startsAt: Date; endsAt: Date | null; recurring: Recurrence };

/** Each recurring event's next occurrence at `now` (null once none is left), exceptions left out. */
export async function nextOccurrences(
  accountId: string,
  events: SeriesFields[],
  timeZone: string,
  now: Date,
): Promise<Map<string, Occurrence | null>> {
  const series = events.filter((event) => event.recurring !== "");
  const exceptions = await exceptionsOf(
    accountId,
    series.map((event) => event.id),
    now,
  );
  return new Map(
    series.map((event) => [
      event.id,
      nextOccurrence({ ...event, timeZone, exceptions: exceptions.get(event.id) }, now),
    ]),
  );
}
