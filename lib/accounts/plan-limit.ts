import "server-only";
import type { Prisma } from "@/lib/platform/db/generated/client";
import type { PlanName } from "./plans";

/*
 * Creating something the plan counts (webhook sources, API keys, subscriptions) checks the count inside
 * the creating transaction, after locking the account row: concurrent creations of one account then run
 * one after another, so the limit holds exactly. The lock is FOR NO KEY UPDATE, the mode the event caps
 * take too (lib/events/sql.ts): it conflicts with itself, which is all the check needs, but unlike FOR
 * UPDATE it does not hold up writers whose foreign keys point at the account (they take KEY SHARE).
 */

export type PlanRoom = { ok: boolean; plan: PlanName; limit: number };

/**
 * Locks the account row for the rest of `tx` and compares `used()` with `limitOf(plan)`: ok when one
 * more fits. Null when the account does not exist.
 */
export async function checkPlanLimit(
  tx: Prisma.TransactionClient,
  accountId: string,
  limitOf: (plan: PlanName) => number,
  used: () => Promise<number>,
): Promise<PlanRoom | null> {
  const [account] = await tx.$queryRaw<{ plan: PlanName }[]>`
    SELECT plan::text AS plan FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
  if (!account) return null;
  const limit = limitOf(account.plan);
  return { ok: (await used()) < limit, plan: account.plan, limit };
}
