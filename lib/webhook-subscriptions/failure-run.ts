import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";

/*
 * The current run of failed deliveries of a subscription, from its attempt log: how many attempts failed
 * since `failing_since`, and what the last one got. The dashboard says it in words ("The receiver
 * answered 500 Internal Server Error on the last 3 attempts since …").
 */

export type FailureRun = { attempts: number; statusCode: number | null; error: string | null };

export async function currentFailureRun(
  accountId: string,
  subscription: { id: string; failingSince: Date | null },
): Promise<FailureRun | null> {
  if (!subscription.failingSince || !isUuid(accountId)) return null;
  const { rows } = await db.pool.query<{ attempts: number; status_code: number | null; error: string | null }>(
    `SELECT count(*)::int AS attempts,
            (array_agg(a.status_code ORDER BY a.attempted_at DESC, a.id DESC))[1] AS status_code,
            (array_agg(a.error ORDER BY a.attempted_at DESC, a.id DESC))[1] AS error
     FROM outbound_attempts a JOIN webhook_subscriptions s ON s.id = a.subscription_id
     WHERE a.subscription_id = $2 AND a.account_id = $1::uuid AND s.account_id = $1::uuid
       AND a.attempted_at >= $3::timestamptz
       AND a.outcome <> 'succeeded'`,
    [accountId, subscription.id, subscription.failingSince.toISOString()],
  );
  const row = rows[0];
  return row && row.attempts > 0 ? { attempts: row.attempts, statusCode: row.status_code, error: row.error } : null;
}
