import { db } from "@/lib/platform/db/client";
import { ensureDailyPartitions } from "@/lib/platform/db/partitions";

/*
 * The partitioned logs take a row only on a day that has its partition. The test database has them from 40
 * days back to a week ahead (tests/setup/database.ts), and a retention test drops the expired ones: a test
 * that writes rows dated further back, or after such a test, creates the days it needs first.
 */
export async function ensurePartitionsFor(table: string, instants: readonly Date[]): Promise<void> {
  for (const instant of instants) await ensureDailyPartitions(db.pool, [table], { from: instant, to: instant });
}
