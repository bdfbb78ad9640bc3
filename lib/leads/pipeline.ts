import "server-only";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

/* An account's pipeline: ordered stages (key, label). Leads hold a stage key. */

export const DEFAULT_STAGES = [
  { key: "new", label: "New" },
  { key: "contacted", label: "Contacted" },
  { key: "qualified", label: "Qualified" },
  { key: "won", label: "Won" },
  { key: "lost", label: "Lost" },
] as const;

export type PipelineStage = { key: string; label: string; position: number };

/** Run for every new account, inside its sign-up transaction. */
export async function createDefaultPipeline(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.pipelineStage.createMany({ data: DEFAULT_STAGES.map((stage, position) => ({ accountId, ...stage, position })) });
}

export async function listPipelineStages(accountId: string): Promise<PipelineStage[]> {
  const { rows } = await db.pool.query<PipelineStage>(
    "SELECT key, label, position FROM pipeline_stages WHERE account_id = $1 ORDER BY position, key",
    [accountId],
  );
  return rows;
}
